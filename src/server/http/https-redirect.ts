import type { MiddlewareHandler } from 'hono';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * In production, plain-HTTP requests are redirected to HTTPS (spec §4). Behind a proxy the
 * original scheme is in x-forwarded-proto. Localhost and configured preview hosts are exempt.
 */
export function httpsRedirect(previewHosts: string[]): MiddlewareHandler {
  const exempt = new Set([...LOCAL_HOSTS, ...previewHosts.map((host) => host.toLowerCase())]);
  return async (c, next) => {
    const url = new URL(c.req.url);
    const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() ?? url.protocol.replace(':', '');
    const hostname = (c.req.header('host') ?? url.host).replace(/:\d+$/, '').toLowerCase();
    if (proto === 'https' || exempt.has(hostname)) return next();
    url.protocol = 'https:';
    url.host = hostname;
    url.port = '';
    return c.redirect(url.toString(), 308);
  };
}
