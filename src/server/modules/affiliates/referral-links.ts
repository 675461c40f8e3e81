// `?ref=CODE` on any page the shop serves (/, /eu, a price list): the click is counted (once per
// browser and day) and the referral cookie set for the terms' cookie length, the last click
// winning. A malformed, unknown or suspended code sets nothing; a failure never stops the page.
import type { MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { AFFILIATE_CODE_MAX_INPUT } from '@shared/affiliates';
import { browserTokenOf, type BrowserTokens } from '../../http/browser-token';
import type { Logger } from '../../logger';
import type { AffiliatesService } from './affiliates.service';

export const referralCookieName = (brandSlug: string) => `${brandSlug}.ref`;

export function referralLinks(deps: { affiliates: Pick<AffiliatesService, 'click'>; cookieName: string; browserTokens: BrowserTokens; logger: Logger }): MiddlewareHandler {
  return async (c, next) => {
    if ((c.req.method === 'GET' || c.req.method === 'HEAD') && !c.req.path.startsWith('/api/')) {
      const ref = c.req.query('ref');
      if (ref !== undefined && ref.length > 0 && ref.length <= AFFILIATE_CODE_MAX_INPUT) {
        try {
          const cookie = await deps.affiliates.click({ ref, cookie: getCookie(c, deps.cookieName), browserToken: browserTokenOf(c, deps.browserTokens) });
          if (cookie) setCookie(c, deps.cookieName, cookie.value, { httpOnly: true, sameSite: 'Lax', secure: deps.browserTokens.secureCookie, path: '/', maxAge: cookie.maxAgeSeconds });
        } catch (error) {
          deps.logger.warn({ err: error }, 'referral click not recorded');
        }
      }
    }
    await next();
  };
}
