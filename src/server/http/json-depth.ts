import { createMiddleware } from 'hono/factory';
import { jsonTooDeepMessage } from '@shared/error-messages';
import { JSON_MAX_DEPTH } from '@shared/json-limits';
import { errorBody } from './errors';

/**
 * A Stripe event nests about a dozen levels (event, data, object, lines, data, line, parent, …).
 * Its route keeps a wider margin: a genuine event refused here would be retried by Stripe in vain
 * and never delivered, while its signature check already stops forged ones before any parse.
 */
export const WEBHOOK_JSON_MAX_DEPTH = 64;

const OPEN_SQUARE = 0x5b;
const OPEN_CURLY = 0x7b;
const CLOSE_SQUARE = 0x5d;
const CLOSE_CURLY = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether JSON text opens more than `limit` arrays and objects inside one another, counted in one
 * pass over the bytes, outside strings. Malformed text is left to the parser: only its brackets
 * count. Bytes rather than characters: in UTF-8 a bracket, quote or backslash never occurs inside
 * a multi-byte character, and the bytes are what arrives.
 */
export function nestsDeeperThan(body: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < body.length; index += 1) {
    const byte = body[index];
    if (inString) {
      if (byte === BACKSLASH) index += 1;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_SQUARE || byte === OPEN_CURLY) {
      depth += 1;
      if (depth > limit) return true;
    } else if ((byte === CLOSE_SQUARE || byte === CLOSE_CURLY) && depth > 0) {
      depth -= 1;
    }
  }
  return false;
}

/**
 * Refuses a request body nested deeper than JSON_MAX_DEPTH before any route parses or walks it:
 * 30,000 nested arrays cost a recursive walk half a second of CPU and a 500. Every body is
 * looked at, whatever its content type, because the routes parse JSON whatever it is declared
 * as. It reads a copy, so the body stays whole for the route (better-auth reads the raw request,
 * the webhook its exact bytes for the signature). Runs after the body limit, which bounds the
 * copy.
 */
export const jsonDepthLimit = createMiddleware(async (c, next) => {
  if (c.req.method === 'GET' || c.req.method === 'HEAD' || !c.req.raw.body) return next();
  const limit = c.req.path.startsWith('/api/webhooks/') ? WEBHOOK_JSON_MAX_DEPTH : JSON_MAX_DEPTH;
  const body = new Uint8Array(await c.req.raw.clone().arrayBuffer());
  if (nestsDeeperThan(body, limit)) return c.json(errorBody('json_too_deep', jsonTooDeepMessage(limit)), 400);
  return next();
});
