import { compress } from 'hono/compress';
import { createMiddleware } from 'hono/factory';

/**
 * API routes whose answers can be large: content images (SVG), the OpenAPI file, mail previews.
 * Guides and strategies are not here: their routes send answers gzipped once (prepared-json.ts).
 */
const LARGE_API_ANSWERS = ['/api/content/images/', '/api/openapi.json', '/api/sandbox/mailbox'];

/**
 * Whether a path's answers can be large enough to gzip: the built client and the API's documents.
 * The other API answers and the health checks are a few hundred bytes, and hono/compress cannot
 * skip them (c.json() declares no length), so each paid for a gzip stream and for turning the
 * Node adapter's light response into a full one: half of what /healthz cost.
 */
export function mayBeLarge(path: string): boolean {
  if (path === '/healthz' || path === '/readyz') return false;
  if (!path.startsWith('/api/')) return true;
  return LARGE_API_ANSWERS.some((prefix) => path.startsWith(prefix));
}

const gzip = compress();

/** hono/compress (1 KB threshold, gzip or deflate as accepted) on the paths that may need it. */
export const compression = createMiddleware((c, next) => (mayBeLarge(c.req.path) ? gzip(c, next) : next()));
