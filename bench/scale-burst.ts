// The sale: `buyers` anonymous purchases from `addresses` client addresses (buyers behind one
// carrier NAT share one), each a browser that opens the page, checks out, pays with the 4242
// card, creates its account from the paid checkout and names its TradingView username; then the
// counts the database and the TradingView-shaped server hold afterwards.
import type pg from 'pg';
import type { FakeTradingView } from '../src/server/test-support/fake-tradingview-server';
import { browser, buy, connectDiscord, PASSWORD, type Patience } from './shop-client';

const PLANS = ['monthly', 'monthly', 'monthly', 'monthly', 'monthly', 'quarterly', 'quarterly', 'yearly', 'euMonthly', 'lifetime'];
const GRANT_DEADLINE_MS = 5 * 60_000;

export const burstUsername = (i: number) => `Burst_${i}`;
const burstDiscordName = (i: number) => `burst_${i}`;
/** The sandbox guild's role every paying member gets (sandbox-discord.ts, SANDBOX_MEMBER_ROLE). */
const SANDBOX_VIP_ROLE = 'sbx-role-vip';
/** How many times a patient member (the chaos bench's) clicks Connect Discord again after a failed link. */
const DISCORD_CONNECT_ATTEMPTS = 3;
const burstEmail = (i: number) => `burst${i}@scale.example`;

export type BurstResult = {
  purchases: number;
  /** From the first page to the last payment. */
  purchaseSeconds: number;
  /** From the first page to the last grant recorded done (NaN when some never were). */
  lastGrantSeconds: number;
  lost: number;
  duplicated: number;
  granted: number;
  claimed: number;
  /** Answers other than 2xx on the buyers' way, by step and status. */
  refusals: Record<string, number>;
  tradingViewCalls: number;
  tradingViewThrottled: number;
  /** With `discord`: members who connected Discord after naming their username, and those the sandbox guild shows with the VIP role. */
  discord?: { connected: number; withRole: number; lastRoleSeconds: number };
};

/** Runs `count` jobs, at most `inFlight` at a time. */
async function pool(count: number, inFlight: number, job: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (next < count) await job(next++);
  }));
}

/** A client or a pool (a pool outlives a database restart). */
type Queryable = Pick<pg.Pool, 'query'>;
const one = async <T>(db: Queryable, text: string, values: unknown[] = []) => (await db.query(text, values)).rows[0] as T;

/** `base`: the shop, or its instances (buyer i uses the i-th, round the list; the first is the public address); `patience`: buyers retry 5xx and a shop that is down. */
/** `discord`: each claimed member also connects Discord (the sandbox's) and must end with the VIP role. */
export async function runBurst(options: {
  base: string | string[];
  db: Queryable;
  tradingView: FakeTradingView;
  buyers: number;
  addresses: number;
  scripts: number;
  patience?: Patience;
  discord?: boolean;
}): Promise<BurstResult> {
  const { db, tradingView, buyers, addresses, scripts, patience } = options;
  const bases = typeof options.base === 'string' ? [options.base] : options.base;
  const paid: string[] = [];
  const claimedUsers: string[] = [];
  const discordNames: string[] = [];
  const refusals: Record<string, number> = {};
  const callsBefore = tradingView.requests.length;
  const throttledBefore = tradingView.throttled;
  const started = performance.now();
  let lastPayment = started;

  const step = async <T>(name: string, work: () => Promise<T>): Promise<T | null> => {
    try {
      return await work();
    } catch (error) {
      const status = /: (\d{3}) /.exec(String(error))?.[1] ?? 'error';
      refusals[`${name} ${status}`] = (refusals[`${name} ${status}`] ?? 0) + 1;
      return null;
    }
  };
  await pool(buyers, addresses, async (i) => {
    const visitor = browser(bases[i % bases.length]!, `10.29.${i % addresses}.7`, patience, bases[0]);
    // the page hands the browser its id, as the landing page does before the Buy button
    await step('page', async () => {
      const page = await visitor.fetch('/');
      if (!page.ok) throw new Error(`GET /: ${page.status} `);
    });
    const sessionId = await step('checkout', () => buy(visitor, PLANS[i % PLANS.length]!, burstEmail(i), false));
    if (!sessionId) return;
    paid.push(sessionId);
    lastPayment = performance.now();
    const account = await step('account', () => visitor.post<{ signedIn: boolean }>('/api/verify-payment', { sessionId, password: PASSWORD }));
    if (!account) return;
    // the account was made but the automatic sign-in failed: the page sends the buyer to sign in
    if (!account.signedIn && !(await step('sign-in', () => visitor.post('/api/auth/sign-in/email', { email: burstEmail(i), password: PASSWORD })))) return;
    if (!(await step('username', () => visitor.post('/api/tradingview/activate', { tv_username: burstUsername(i) })))) return;
    claimedUsers.push(burstEmail(i));
    if (!options.discord) return;
    const connected = await step('discord', async () => {
      // the Discord page shows a link that failed (?error=…, say while the database was away), and a patient member connects again
      for (let attempt = 1; ; attempt += 1) {
        try {
          await connectDiscord(visitor, burstDiscordName(i));
          return true;
        } catch (error) {
          if (!patience || attempt >= DISCORD_CONNECT_ATTEMPTS) throw error;
          await new Promise((done) => setTimeout(done, 1_000 * attempt));
        }
      }
    });
    if (connected) discordNames.push(burstDiscordName(i));
  });

  // every claimed member's grant recorded done, or the deadline
  let lastGrantSeconds = Number.NaN;
  const grantDeadline = Date.now() + GRANT_DEADLINE_MS;
  while (Date.now() < grantDeadline) {
    const { pending } = await one<{ pending: number }>(
      db,
      `SELECT count(*)::int AS pending FROM "user" u WHERE u.email = ANY($1)
         AND NOT EXISTS (SELECT 1 FROM tradingview_grants g WHERE g.user_id = u.id AND g.desired = 'grant' AND g.status = 'granted')`,
      [claimedUsers],
    );
    if (pending === 0) {
      lastGrantSeconds = (performance.now() - started) / 1000;
      break;
    }
    await new Promise((done) => setTimeout(done, 500));
  }

  // every connected member's VIP role in the sandbox guild, or the deadline
  let lastRoleSeconds = Number.NaN;
  let withRole = 0;
  while (options.discord && Date.now() < grantDeadline) {
    ({ withRole } = await one<{ withRole: number }>(db, `SELECT count(*)::int AS "withRole" FROM sandbox_discord_members WHERE username = ANY($1) AND $2 = ANY(roles)`, [
      discordNames,
      SANDBOX_VIP_ROLE,
    ]));
    if (withRole === discordNames.length) {
      lastRoleSeconds = (performance.now() - started) / 1000;
      break;
    }
    await new Promise((done) => setTimeout(done, 500));
  }

  // per paid checkout: its orders, receipts and finish-setup mails
  const perPurchase = (await db.query(
    `SELECT s.id,
       (SELECT count(*)::int FROM orders o WHERE o.checkout_session_id = s.id) AS orders,
       (SELECT count(*)::int FROM outbox m WHERE m.dedupe_key = 'receipt:' || s.id) AS receipts,
       (SELECT count(*)::int FROM outbox m WHERE m.dedupe_key = 'finish_setup:' || s.id) AS setups
     FROM unnest($1::text[]) AS s(id)`,
    [paid],
  )).rows as { orders: number; receipts: number; setups: number }[];
  const grants = (await db.query(
    `SELECT u.email, count(g.id)::int AS grants, bool_and(g.status = 'granted') AS done FROM "user" u LEFT JOIN tradingview_grants g ON g.user_id = u.id
     WHERE u.email = ANY($1) GROUP BY u.email`,
    [claimedUsers],
  )).rows as { grants: number; done: boolean }[];
  const claimedNames = claimedUsers.map((email) => burstUsername(Number(/\d+/.exec(email)![0])));
  const held = (name: string) => [...tradingView.access.values()].filter((users) => users.has(name)).length;
  const grantedEverywhere = claimedNames.filter((name) => held(name) === scripts).length;
  const addedTwice = claimedNames.filter((name) => (tradingView.additions.get(name.toLowerCase()) ?? 0) > scripts).length;

  const missing = perPurchase.filter((row) => row.orders === 0 || row.receipts === 0 || row.setups === 0).length;
  const doubled = perPurchase.filter((row) => row.orders > 1 || row.receipts > 1 || row.setups > 1).length;
  const calls = tradingView.requests.slice(callsBefore);
  return {
    purchases: paid.length,
    purchaseSeconds: (lastPayment - started) / 1000,
    lastGrantSeconds,
    lost: missing + (buyers - paid.length) + (claimedUsers.length - grants.filter((row) => row.done).length) + (options.discord ? claimedUsers.length - withRole : 0),
    duplicated: doubled + grants.filter((row) => row.grants > 1).length + addedTwice,
    granted: Math.min(grantedEverywhere, grants.filter((row) => row.done).length),
    claimed: claimedUsers.length,
    refusals,
    tradingViewCalls: calls.length,
    tradingViewThrottled: tradingView.throttled - throttledBefore,
    ...(options.discord ? { discord: { connected: discordNames.length, withRole, lastRoleSeconds } } : {}),
  };
}
