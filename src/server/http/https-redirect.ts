import type { MiddlewareHandler } from 'hono';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * In production, plain-HTTP requests are redirected to HTTPS (spec §4). Behind a proxy the
 * original scheme is in x-forwarded-proto. Localhost and configured preview hosts are exempt.
 * The request URL is parsed only to build a redirect: parsing it on every request cost a
 * tenth of a /healthz answer.
 */
export function httpsRedirect(previewHosts: string[]): MiddlewareHandler {
  const exempt = new Set([...LOCAL_HOSTS, ...previewHosts.map((host) => host.toLowerCase())]);
  // not async: the usual request (HTTPS, or exempt) passes straight on, without a promise of its own
  return (c, next) => {
    const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() ?? (c.req.url.startsWith('https:') ? 'https' : 'http');
    if (proto === 'https') return next();
    const hostname = (c.req.header('host') ?? new URL(c.req.url).host).replace(/:\d+$/, '').toLowerCase();
    if (exempt.has(hostname)) return next();
    const url = new URL(c.req.url);
    url.protocol = 'https:';
    url.host = hostname;
    url.port = '';
    return Promise.resolve(c.redirect(url.toString(), 308));
  };
}
