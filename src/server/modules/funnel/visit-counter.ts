// Landing visits counted in memory and added to the database in batches: a page view costs a map
// update, never a database round trip. A landing page is '/', '/eu' or a vendor's price list's
// '/{slug}', told from the catalogue in memory. A browser is told apart from another by a hash of its
// address and user agent salted with a random value that changes every UTC day and never leaves
// this process, so no address is stored and yesterday's hashes cannot be linked to today's.
import { createHash, randomBytes } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { setCookie } from 'hono/cookie';
import { hasUtm, isAutomatedVisit, utmCookieValue, utmOf, visitRefOf, type Utm } from '@shared/funnel';
import type { Catalogue } from '@shared/catalogue';
import { landingPagePath } from '@shared/landing-page';
import { createBackgroundLoop } from '../../jobs/background-loop';
import { clientAddressOfRequest } from '../../http/client-address';
import type { TrustProxy } from '../../config';
import type { Logger } from '../../logger';

/** One counter row: a day, a landing page and its source. */
export type VisitKey = {
  day: string;
  page: string;
  utm: Utm;
  affiliateCode: string;
};
export type VisitTally = VisitKey & { visits: number; visitors: number };

/** A UTM cookie lasts as long as a buyer usually takes to come back and buy. */
const UTM_COOKIE_S = 30 * 24 * 60 * 60;
const FLUSH_INTERVAL_MS = 10_000;
/** Distinct browsers remembered per day; beyond it every visit counts as a new browser (memory stays bounded). */
const MAX_SEEN_PER_DAY = 200_000;

export const utmCookieName = (brandSlug: string) => `${brandSlug}.utm`;

export type VisitCounter = {
  middleware: MiddlewareHandler;
  /** Adds the tally to the database now (the report calls it so that it sees this instance's latest visits). */
  flush: () => Promise<void>;
  start: () => void;
  /** Stops the loop and adds what is left. */
  stop: () => Promise<void>;
};

export function createVisitCounter(deps: {
  clock: () => Date;
  logger: Logger;
  /** Adds the tallies to the stored counters (one statement). */
  save: (tallies: VisitTally[]) => Promise<void>;
  cookie: { name: string; secure: boolean };
  trustProxy: TrustProxy;
  /** The catalogue in effect (in memory): its vendor lists' pages are landing pages too. */
  catalogue: () => Catalogue;
}): VisitCounter {
  let pending = new Map<string, VisitTally>();
  let salt = { day: '', value: Buffer.alloc(0), seen: new Set<string>() };

  function firstOfBrowserToday(day: string, c: Context): boolean {
    if (salt.day !== day) salt = { day, value: randomBytes(32), seen: new Set() };
    const hash = createHash('sha256')
      .update(salt.value)
      .update(clientAddressOfRequest(c, deps.trustProxy) ?? '')
      .update('\n')
      .update(c.req.header('user-agent') ?? '')
      .digest('base64url')
      .slice(0, 22);
    if (salt.seen.has(hash)) return false;
    if (salt.seen.size < MAX_SEEN_PER_DAY) salt.seen.add(hash);
    return true;
  }

  function count(key: VisitKey, newBrowser: boolean) {
    const id = JSON.stringify([key.day, key.page, key.utm.source, key.utm.medium, key.utm.campaign, key.affiliateCode]);
    const tally = pending.get(id) ?? { ...key, visits: 0, visitors: 0 };
    tally.visits += 1;
    if (newBrowser) tally.visitors += 1;
    pending.set(id, tally);
  }

  async function flush() {
    if (pending.size === 0) return;
    const batch = [...pending.values()];
    pending = new Map();
    try {
      await deps.save(batch);
    } catch (error) {
      // put them back: the next flush tries again
      for (const tally of batch) {
        const key = {
          day: tally.day,
          page: tally.page,
          utm: tally.utm,
          affiliateCode: tally.affiliateCode,
        };
        for (let i = 0; i < tally.visits; i += 1) count(key, i < tally.visitors);
      }
      throw error;
    }
  }

  const loop = createBackgroundLoop({
    pass: flush,
    intervalMs: FLUSH_INTERVAL_MS,
    firstDelayMs: FLUSH_INTERVAL_MS,
    logger: deps.logger,
    label: 'funnel visits',
  });

  const countVisit = (c: Context) => {
    try {
      const url = new URL(c.req.url);
      const page = landingPagePath(url.pathname, url.search, deps.catalogue());
      if (
        page !== null &&
        !isAutomatedVisit({
          userAgent: c.req.header('user-agent'),
          purpose: c.req.header('sec-purpose') ?? c.req.header('purpose'),
        })
      ) {
        const day = deps.clock().toISOString().slice(0, 10);
        const utm = utmOf(url.searchParams);
        count(
          {
            day,
            page,
            utm,
            affiliateCode: visitRefOf(url.searchParams),
          },
          firstOfBrowserToday(day, c),
        );
        // the tags follow the visitor to the checkout in the shop's own cookie (the last tagged visit wins)
        if (hasUtm(utm))
          setCookie(c, deps.cookie.name, utmCookieValue(utm), {
            httpOnly: true,
            sameSite: 'Lax',
            secure: deps.cookie.secure,
            path: '/',
            maxAge: UTM_COOKIE_S,
          });
      }
    } catch (error) {
      deps.logger.warn({ err: error }, 'landing visit not counted');
    }
  };
  // Not async, and no URL parsed for the API: a member's reads are never a landing page.
  const middleware: MiddlewareHandler = (c, next) => {
    if (c.req.method === 'GET' && !c.req.path.startsWith('/api/')) countVisit(c);
    return next();
  };

  return {
    middleware,
    flush,
    start: () => void loop.start(),
    async stop() {
      await loop.stop();
      await flush().catch((error: unknown) => deps.logger.warn({ err: error }, 'the last landing visits were not saved'));
    },
  };
}
