import type { MiddlewareHandler } from 'hono';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * In production, plain-HTTP requests are redirected to HTTPS. Behind a proxy the original scheme
 * is in x-forwarded-proto. Localhost and configured preview hosts are exempt. The redirect goes to
 * PUBLIC_URL's host, never the request's: the Host header is the client's to choose, and a
 * Location built from it would send a shared cache's later visitors wherever a forger said.
 * The request URL is parsed only to build a redirect: parsing it on every request cost a tenth
 * of a /healthz answer.
 */
export function httpsRedirect(options: { publicUrl: string; previewHosts: string[] }): MiddlewareHandler {
  const exempt = new Set([...LOCAL_HOSTS, ...options.previewHosts.map((host) => host.toLowerCase())]);
  const origin = `https://${new URL(options.publicUrl).host}`;
  // not async: the usual request (HTTPS, or exempt) passes straight on, without a promise of its own
  return (c, next) => {
    const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() ?? (c.req.url.startsWith('https:') ? 'https' : 'http');
    if (proto === 'https') return next();
    const hostname = (c.req.header('host') ?? new URL(c.req.url).host).replace(/:\d+$/, '').toLowerCase();
    if (exempt.has(hostname)) return next();
    const { pathname, search } = new URL(c.req.url);
    return Promise.resolve(c.redirect(`${origin}${pathname}${search}`, 308));
  };
}
