// The grant queue against the TradingView-shaped server through the real client: a 429 with
// Retry-After and an expired session cookie pause the whole queue without counting a failure
// against any grant, and it resumes on its own (the throttle's end, the cookie working again);
// what a grant costs in calls, and the audit catching an add that did not land.
// Runs on PGlite by default and on Postgres with TEST_DATABASE_URL.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { tradingviewGrants, tradingviewQueuePause, tradingviewShopAccess, user, userSubscriptions } from '../../db/schema';
import { createLogger } from '../../logger';
import { FAKE_SESSION, startFakeTradingView, type FakeTradingView } from '../../test-support/fake-tradingview-server';
import { createTestDatabase } from '../../test-support/test-database';
import { createGrantReconciler, type GrantReconciler } from './grant-reconciler';
import { createTradingViewClient } from './tradingview-client';
import { linkUsername } from './tradingview.repository';
import type { ListOptions, TradingViewPort } from './tradingview.port';
import { createTradingViewConsoleService } from './tradingview-console.service';

const SCRIPTS = ['PUB;pro-v2', 'PUB;smc', 'PUB;volatility'];
const NAMES = ['Trader_Joe', 'Alice-Charts', 'bob'];
// the rows' clock is the real one: the pause is measured against TradingView's Retry-After
const clock = () => new Date();
const EXPIRES = new Date(Date.now() + 30 * 24 * 60 * 60_000);

let database: Database;
let fake: FakeTradingView;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});
beforeEach(async () => {
  await database.db.execute(sql`TRUNCATE tradingview_grants, tradingview_shop_access, tradingview_queue_pause, user_subscriptions, "user" CASCADE`);
  fake = await startFakeTradingView();
});
afterEach(async () => {
  await fake.close();
});

/** The real client on the fake; reads are not retried inside it, so every 429 reaches the queue. */
function reconciler(options: { sessionProbeMs?: number; throttleWaitInRowMs?: number; port?: TradingViewPort } = {}): GrantReconciler {
  const port =
    options.port ??
    createTradingViewClient({
      baseUrl: fake.baseUrl,
      credentials: FAKE_SESSION,
      scriptIds: SCRIPTS,
      timeoutMs: 5_000,
      readRetries: 0,
    });
  return createGrantReconciler({
    db: database.db,
    port,
    scriptIds: SCRIPTS,
    logger: createLogger('silent'),
    clock,
    intervalMs: 60_000,
    transientDelayMs: 1,
    ...options,
  });
}

async function payingMember(username: string, planType: 'monthly' | 'lifetime' = 'monthly'): Promise<string> {
  const userId = randomUUID();
  await database.db.insert(user).values({ id: userId, name: 'member', email: `${userId}@example.com` });
  await database.db.insert(userSubscriptions).values({
    userId,
    planType,
    status: 'active',
    isActive: true,
    expiresAt: planType === 'lifetime' ? null : EXPIRES,
    provider: 'sandbox',
  });
  await linkUsername(database.db, userId, username, clock());
  return userId;
}

/** The grant queue as the console's TradingView page reads it. */
const consoleQueue = (r: GrantReconciler) =>
  createTradingViewConsoleService({
    db: database.db,
    port: createTradingViewClient({ baseUrl: fake.baseUrl, credentials: FAKE_SESSION, scriptIds: SCRIPTS }),
    reconciler: r,
    scriptIds: SCRIPTS,
    clock,
    audit: async () => undefined,
    lastSessionCheck: async () => null,
  }).queue();

const rowsOf = async (userIds: string[]) => {
  const rows = await database.db.select().from(tradingviewGrants);
  return rows.filter((row) => userIds.includes(row.userId));
};
/** Runs the queue's passes until every one of these members' grants is done (a bound, not a speed). */
const passUntilGranted = (r: GrantReconciler, userIds: string[], done: 'granted' | 'revoked' = 'granted') =>
  vi.waitFor(
    async () => {
      await r.runOnce();
      expect((await rowsOf(userIds)).map((row) => row.status)).toEqual(userIds.map(() => done));
    },
    { timeout: 30_000, interval: 100 },
  );
const held = (username: string) => SCRIPTS.filter((script) => fake.access.get(script)?.has(username)).length;

describe('the grant queue pauses for TradingView, not for the grants', () => {
  it('a short 429 is waited out within the grant: nothing counted as a failure, every grant lands once', async () => {
    const userIds = await Promise.all(NAMES.map((name) => payingMember(name)));
    const r = reconciler();
    for (const userId of userIds) await r.syncUser(userId);
    // two calls a second: the members' adds (one per script) meet the throttle
    fake.callsPerSecond = 2;

    await r.runOnce();
    expect(fake.throttled).toBeGreaterThan(0);
    const rows = await rowsOf(userIds);
    expect(rows.map((row) => [row.status, row.attempts])).toEqual(userIds.map(() => ['granted', 0]));
    expect(r.paused()).toBeNull();
    for (const name of NAMES) {
      expect(held(name)).toBe(SCRIPTS.length);
      expect(fake.additions.get(name.toLowerCase())).toBe(SCRIPTS.length);
    }
  });

  it('a long 429 pauses the whole queue for its Retry-After without counting a failure, then resumes', async () => {
    const userIds = await Promise.all(NAMES.map((name) => payingMember(name)));
    const r = reconciler();
    for (const userId of userIds) await r.syncUser(userId);
    // every call refused, so the first call of the pass meets the throttle whatever the machine's
    // speed (two a second let a slow first grant succeed and open more lanes, each with a call in flight)
    fake.callsPerSecond = 0;
    fake.retryAfterSeconds = 120;

    await r.runOnce();
    const pause = r.paused();
    expect(pause).toMatchObject({ reason: 'throttled' });
    expect(pause!.until!.getTime() - pause!.since.getTime()).toBeGreaterThanOrEqual(119_000);
    expect(fake.throttled).toBe(1);
    expect((await rowsOf(userIds)).every((row) => row.attempts === 0 && row.status !== 'failed')).toBe(true);

    // within the Retry-After a pass calls nothing
    const calls = fake.requests.length;
    await r.runOnce();
    expect(fake.requests.length).toBe(calls);
    expect(r.paused()).toMatchObject({ reason: 'throttled' });
  });

  it('a paused queue resumes when the Retry-After ends, and no grant was counted as failed', async () => {
    const userIds = await Promise.all(NAMES.map((name) => payingMember(name)));
    const r = reconciler({ throttleWaitInRowMs: 0 });
    for (const userId of userIds) await r.syncUser(userId);
    fake.callsPerSecond = 2;

    await r.runOnce();
    expect(r.paused()).toMatchObject({ reason: 'throttled' });
    // TradingView lifts its limit; the queue goes on once the second it asked for has passed
    fake.callsPerSecond = null;
    await passUntilGranted(r, userIds);
    expect((await rowsOf(userIds)).every((row) => row.attempts === 0)).toBe(true);
    expect(r.paused()).toBeNull();
    for (const name of NAMES) expect(fake.additions.get(name.toLowerCase())).toBe(SCRIPTS.length);
  });

  it('an expired session cookie pauses the queue without counting a failure, shows why, and resumes once the cookie works', async () => {
    const userIds = await Promise.all(NAMES.map((name) => payingMember(name)));
    // the cookie is checked again at every pass here (every 30 s by default)
    const r = reconciler({ sessionProbeMs: 0 });
    for (const userId of userIds) await r.syncUser(userId);
    fake.sessionExpired = '401';

    await r.runOnce();
    expect(r.paused()).toMatchObject({
      reason: 'session_expired',
      until: null,
    });
    expect(r.paused()!.detail).toContain('401');
    // the console's grant queue says so, and no grant counted a failure
    const shown = await consoleQueue(r);
    expect(shown.paused).toMatchObject({ reason: 'session_expired', until: null });
    expect(shown.grants.map((grant) => [grant.status, grant.attempts])).toEqual(userIds.map(() => ['pending', 0]));
    // one call met the expired cookie; the other grants were not tried
    expect(fake.requests).toHaveLength(1);
    expect(await rowsOf(userIds)).toEqual(
      expect.arrayContaining(
        userIds.map(() =>
          expect.objectContaining({
            status: 'pending',
            attempts: 0,
            failingSince: null,
          }),
        ),
      ),
    );

    // still expired: a pass only checks the cookie (one list of a single user), no grant is tried
    await r.runOnce();
    expect(r.paused()).toMatchObject({ reason: 'session_expired' });
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.path).toContain('limit=1');
    expect((await rowsOf(userIds)).every((row) => row.attempts === 0)).toBe(true);

    // the vendor signs in again: the next check finds the cookie working and the queue resumes
    fake.sessionExpired = null;
    await passUntilGranted(r, userIds);
    expect((await rowsOf(userIds)).every((row) => row.attempts === 0)).toBe(true);
    for (const name of NAMES) expect(held(name)).toBe(SCRIPTS.length);
    expect((await consoleQueue(r)).paused).toBeNull();
  });
});

describe('several instances on one database', () => {
  /** Two instances' reconcilers on the one database, the members' grants queued by the first. */
  async function twoInstances(options: Parameters<typeof reconciler>[0]) {
    const userIds = await Promise.all(NAMES.map((name) => payingMember(name)));
    const first = reconciler(options);
    const second = reconciler(options);
    for (const userId of userIds) await first.syncUser(userId);
    return { userIds, first, second };
  }

  it("one instance's expired session holds the other's queue too: it makes no call, its console says why, and both go on once the cookie works", async () => {
    const { userIds, first, second } = await twoInstances({ sessionProbeMs: 60_000 });
    fake.sessionExpired = '401';

    await first.runOnce();
    expect(first.paused()).toMatchObject({ reason: 'session_expired' });
    const calls = fake.requests.length;
    await second.runOnce();
    expect(fake.requests).toHaveLength(calls);
    expect(second.paused()).toMatchObject({ reason: 'session_expired', since: first.paused()!.since });
    expect((await consoleQueue(second)).paused).toMatchObject({ reason: 'session_expired', until: null });
    expect((await rowsOf(userIds)).every((row) => row.status === 'pending' && row.attempts === 0)).toBe(true);

    // the cookie works again: the next check (of either instance) ends the pause for both
    fake.sessionExpired = null;
    const probeLater = reconciler({ sessionProbeMs: 0 });
    await probeLater.runOnce();
    expect(probeLater.paused()).toBeNull();
    expect(await database.db.select().from(tradingviewQueuePause)).toEqual([]);
    await passUntilGranted(probeLater, userIds);
    for (const name of NAMES) expect(held(name)).toBe(SCRIPTS.length);
  });

  it("one instance's 429 holds the other until its Retry-After, then both go on by themselves", async () => {
    const { userIds, first, second } = await twoInstances({ throttleWaitInRowMs: 0 });
    fake.callsPerSecond = 1;
    fake.retryAfterSeconds = 2;

    await vi.waitFor(async () => {
      await first.runOnce();
      expect(first.paused()).toMatchObject({ reason: 'throttled' });
    });
    const calls = fake.requests.length;
    await second.runOnce();
    expect(fake.requests).toHaveLength(calls);
    expect(second.paused()).toMatchObject({ reason: 'throttled', until: first.paused()!.until });

    fake.callsPerSecond = null;
    await passUntilGranted(second, userIds);
    expect(second.paused()).toBeNull();
    expect(await database.db.select().from(tradingviewQueuePause)).toEqual([]);
    expect((await rowsOf(userIds)).every((row) => row.attempts === 0)).toBe(true);
  });
});

describe('the audit beside the grant queue', () => {
  it('lets new grants go first: a purchase made while the audit lists is granted before the audit ends', async () => {
    // a listing of many pages, and a grant that arrives while it runs
    const holders = new Map<string, string | null>();
    for (let i = 0; i < 3000; i += 1) holders.set(`holder_${i}`, null);
    for (const script of SCRIPTS) fake.access.set(script, new Map(holders));
    const client = createTradingViewClient({
      baseUrl: fake.baseUrl,
      credentials: FAKE_SESSION,
      scriptIds: SCRIPTS,
      timeoutMs: 5_000,
    });
    // the audit's listing waits at its first page until the purchase is queued
    let queued = () => {};
    const gate = new Promise<void>((resolve) => (queued = resolve));
    const port = {
      ...client,
      listUsers: (scriptId: string, username?: string, options?: ListOptions) =>
        client.listUsers(scriptId, username, {
          beforePage: async () => {
            await gate;
            await options?.beforePage?.();
          },
        }),
    };
    const r = reconciler({ port });
    fake.delayMs = 5;
    let auditDone = false;
    const audit = r.audit().then(() => (auditDone = true));
    const userId = await payingMember('Trader_Joe');
    await r.syncUser(userId);
    queued();
    await vi.waitFor(
      async () => {
        await r.runOnce();
        expect((await rowsOf([userId]))[0]?.status).toBe('granted');
      },
      { timeout: 30_000, interval: 50 },
    );
    expect(auditDone).toBe(false);
    const pagesWhenGranted = fake.requests.filter((request) => request.path.startsWith('/pine_perm/list_users/') && !request.form.username).length;
    await audit;
    const pagesInAll = fake.requests.filter((request) => request.path.startsWith('/pine_perm/list_users/') && !request.form.username).length;
    expect(pagesWhenGranted).toBeLessThan(pagesInAll);
    expect(pagesInAll).toBeGreaterThanOrEqual(SCRIPTS.length * 100);
    // the grant settled after the listing began: the audit does not requeue it as missing
    expect((await rowsOf([userId]))[0]).toMatchObject({ status: 'granted' });
  });
});

describe('what a grant costs on TradingView', () => {
  const permissionCalls = () => fake.requests.filter((request) => request.path.startsWith('/pine_perm/'));

  it("a new member's bundle of three scripts is three calls: one add each, TradingView's ok confirming it", async () => {
    const userId = await payingMember('Trader_Joe');
    const r = reconciler();
    await r.syncUser(userId);
    await passUntilGranted(r, [userId]);
    expect(permissionCalls().map((request) => [request.path, request.form.pine_id])).toEqual(SCRIPTS.map((script) => ['/pine_perm/add/', script]));
    expect(held('Trader_Joe')).toBe(SCRIPTS.length);
  });

  it('an "exists" answer never shortens access the vendor gave by hand, nor records it as the shop\'s', async () => {
    const later = new Date(EXPIRES.getTime() + 90 * 24 * 60 * 60_000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
    fake.access.set(SCRIPTS[0]!, new Map([['Trader_Joe', null]]));
    fake.access.set(SCRIPTS[1]!, new Map([['Trader_Joe', later]]));
    const userId = await payingMember('Trader_Joe');
    const r = reconciler();
    await r.syncUser(userId);
    await passUntilGranted(r, [userId]);
    expect(fake.requests.some((request) => request.path.startsWith('/pine_perm/modify_user_expiration/'))).toBe(false);
    expect(fake.access.get(SCRIPTS[0]!)?.get('Trader_Joe')).toBeNull();
    expect(fake.access.get(SCRIPTS[1]!)?.get('Trader_Joe')).toBe(later);
    expect(fake.additions.get('trader_joe')).toBe(1);
    expect((await database.db.select().from(tradingviewShopAccess)).map((row) => row.scriptId)).toEqual([SCRIPTS[2]]);
  });

  it('the audit requeues a grant whose add TradingView answered ok but did not make, and the next pass adds it', async () => {
    const userId = await payingMember('Trader_Joe');
    const r = reconciler();
    await r.syncUser(userId);
    fake.loseAdds = 1;
    await passUntilGranted(r, [userId]);
    expect(held('Trader_Joe')).toBe(SCRIPTS.length - 1);

    expect(await r.audit()).toEqual({ requeued: 1 });
    await passUntilGranted(r, [userId]);
    expect(held('Trader_Joe')).toBe(SCRIPTS.length);
    expect(await r.audit()).toEqual({ requeued: 0 });
  });
});

describe('lifetime access, whose answer was lost', () => {
  it('is the shop’s own on the retry, so a refund takes it back; a hand-given one stays', async () => {
    const buyer = await payingMember('Trader_Joe', 'lifetime');
    const handGiven = await payingMember('bob', 'lifetime');
    fake.access.set(SCRIPTS[0]!, new Map([['bob', null]]));
    const r = reconciler();
    await r.syncUser(buyer);
    await r.syncUser(handGiven);
    // the first add is made on TradingView but its answer never comes back: the retry meets "exists"
    fake.loseAddAnswers = 1;
    await passUntilGranted(r, [buyer, handGiven]);
    expect(held('Trader_Joe')).toBe(SCRIPTS.length);
    expect(fake.additions.get('trader_joe')).toBe(SCRIPTS.length);

    // both refunded: the shop takes back all it gave, and nothing the vendor gave by hand
    await database.db.update(userSubscriptions).set({ status: 'refunded', isActive: false });
    await r.syncUser(buyer);
    await r.syncUser(handGiven);
    await passUntilGranted(r, [buyer, handGiven], 'revoked');
    expect(held('Trader_Joe')).toBe(0);
    expect(fake.access.get(SCRIPTS[0]!)?.get('bob')).toBeNull();
    expect(held('bob')).toBe(1);
    expect(await database.db.select().from(tradingviewShopAccess)).toEqual([]);
  });
});

describe('rows written before bundles', () => {
  it('a sweep of an unchanged member whose row has no scripts costs no TradingView call', async () => {
    const userId = await payingMember('Trader_Joe');
    const r = reconciler();
    await r.syncUser(userId);
    await r.runOnce();
    await database.db.update(tradingviewGrants).set({ desiredScripts: null }).where(eq(tradingviewGrants.userId, userId));
    const calls = fake.requests.length;
    await r.syncUser(userId);
    await r.runOnce();
    expect(fake.requests.length).toBe(calls);
    expect(await rowsOf([userId])).toMatchObject([{ status: 'granted', desiredScripts: null }]);
  });
});
