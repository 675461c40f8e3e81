import { createMiddleware } from 'hono/factory';
import { ANONYMOUS_CHECKOUTS_PER_ADDRESS, ANONYMOUS_CHECKOUTS_PER_BROWSER, ANONYMOUS_CHECKOUTS_PER_SHARED_ADDRESS, type ThrottleRule } from '@shared/throttle';
import type { Db } from '../../db/client';
import { browserTokenOf, ensureBrowserToken, type BrowserTokens } from '../../http/browser-token';
import type { CheckoutRefusal } from '../../http/checkout-refusal';
import { clientAddressOf } from '../../http/client-address';
import { serverError } from '../../http/server-errors';
import type { AuthVariables } from '../../http/session-user';
import { consumeThrottle } from '../throttle/throttle.repository';

type Count = { key: string; rule: ThrottleRule; counted: CheckoutRefusal['counted'] };

/**
 * The anonymous-checkout limit (src/shared/throttle.ts): a browser with the shop's browser id is
 * counted by it and, with a much higher ceiling, by its address; a client without one by its
 * address alone. Signed-in members are not counted. A refusal answers 429 with Retry-After and
 * says which count ran out and when to come back. The answer gives a browser without an id one.
 */
export function limitAnonymousCheckouts(deps: { db: Db; clock: () => Date; tokens: BrowserTokens }) {
  return createMiddleware<{ Variables: AuthVariables }>(async (c, next) => {
    if (c.get('user') === null) {
      const address = clientAddressOf(c.req.raw.headers) ?? 'unknown';
      const token = browserTokenOf(c, deps.tokens);
      const counts: Count[] = token
        ? [
            { key: `checkout-network:${address}`, rule: ANONYMOUS_CHECKOUTS_PER_SHARED_ADDRESS, counted: 'network' },
            { key: `checkout-browser:${token}`, rule: ANONYMOUS_CHECKOUTS_PER_BROWSER, counted: 'browser' },
          ]
        : [{ key: `checkout:${address}`, rule: ANONYMOUS_CHECKOUTS_PER_ADDRESS, counted: 'address' }];
      for (const { key, rule, counted } of counts) {
        const decision = await consumeThrottle(deps.db, key, rule, deps.clock());
        if (!decision.allowed) {
          const retryAfterSeconds = Math.ceil(decision.retryAfterMs / 1000);
          c.header('Retry-After', String(retryAfterSeconds));
          throw serverError('checkoutLimited', { counted, retryAfterSeconds });
        }
      }
    }
    ensureBrowserToken(c, deps.tokens);
    await next();
  });
}
