import type { Config } from '../config';

type Sources = Record<string, string[]>;

function contentSecurityPolicy(config: Config): Sources {
  const pixel = config.site.metaPixelId ? ['https://connect.facebook.net'] : [];
  const pixelImages = config.site.metaPixelId ? ['https://www.facebook.com'] : [];
  const chat = config.site.chatUrl ? [new URL(config.site.chatUrl).origin] : [];
  // A brand mark on another host (BRAND_LOGO_URL) must be allowed to load.
  const logo = URL.canParse(config.site.brandLogoUrl) ? [new URL(config.site.brandLogoUrl).origin] : [];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...pixel],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', ...pixelImages, ...logo],
    'connect-src': ["'self'", ...pixel, ...pixelImages],
    'frame-src': chat.length ? chat : ["'none'"],
    'font-src': ["'self'", 'data:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

/**
 * The headers every answer carries, pages and API alike (the set hono/secure-headers sends by
 * default, with the shop's content security policy). They depend on the configuration only, so
 * they are built once at start and written by the edge (edge.ts) as they are.
 */
export function securityHeaders(config: Config): Record<string, string> {
  const policy = Object.entries(contentSecurityPolicy(config))
    .map(([directive, sources]) => `${directive} ${sources.join(' ')}`)
    .join('; ');
  return {
    'content-security-policy': policy,
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'no-referrer',
    'strict-transport-security': 'max-age=15552000; includeSubDomains',
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  };
}
