// Runs on PGlite by default and on Postgres with TEST_DATABASE_URL (where the concurrency
// test uses real parallel connections).
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { PlanType } from '@shared/plans';
import type { Database } from '../../db/client';
import { sandboxTradingviewAccess, tradingviewGrants, user, userSubscriptions } from '../../db/schema';
import { createLogger } from '../../logger';
import { composeEntitlements } from '../../composition';
import { followsAccess } from '@shared/access-changes';
import { DEFAULT_LEASE_MS, createGrantReconciler, type GrantReconciler } from './grant-reconciler';
import type { SandboxOperation } from './sandbox-tradingview';
import { claimNextDue, finishClaim, findShopAccess, linkUsername, recordShopAccess, usernameHistory } from './tradingview.repository';
import { TradingViewError, type TradingViewPort } from './tradingview.port';
import { sandboxTradingViewSuite } from '../../test-support/tradingview-test-kit';

const SCRIPTS = ['PUB;pro-v2', 'PUB;smc', 'PUB;volatility'];
const START = new Date('2030-06-01T00:00:00.000Z');
const JULY = new Date('2030-07-01T00:00:00.000Z');
const AUGUST = new Date('2030-08-01T00:00:00.000Z');
const LEASE_MS = DEFAULT_LEASE_MS;

let database: Database;
let now: Date;
let operations: SandboxOperation[];
let sandbox: TradingViewPort;

sandboxTradingViewSuite({ truncate: sql`TRUNCATE tradingview_grants, tradingview_shop_access, tradingview_scripts, sandbox_tradingview_access, user_subscriptions, access_changes, access_change_deliveries, access_expiry_watch, "user" CASCADE`, missingUsernames: [], clock: () => now }, (bench) => {
  ({ database, operations, sandbox } = bench);
  now = START;
});

const clock = () => now;
const advance = (ms: number) => {
  now = new Date(now.getTime() + ms);
};

function reconciler(port: TradingViewPort = sandbox): GrantReconciler {
  return createGrantReconciler({ db: database.db, port, scriptIds: SCRIPTS, logger: createLogger('silent'), clock, intervalMs: 60_000, leaseMs: LEASE_MS, transientDelayMs: 1 });
}

type MemberInput = { planType?: PlanType; expiresAt?: Date | null; isActive?: boolean; username?: string | null; cancelAtPeriodEnd?: boolean };

async function member(input: MemberInput = {}): Promise<{ userId: string; subscriptionId: string }> {
  const userId = randomUUID();
  await database.db.insert(user).values({ id: userId, name: 'member', email: `${userId}@example.com` });
  const [subscription] = await database.db
    .insert(userSubscriptions)
    .values({
      userId,
      planType: input.planType ?? 'monthly',
      status: 'active',
      isActive: input.isActive ?? true,
      expiresAt: input.expiresAt === undefined ? JULY : input.expiresAt,
      cancelAtPeriodEnd: input.cancelAtPeriodEnd ?? false,
      provider: 'sandbox',
    })
    .returning({ id: userSubscriptions.id });
  const username = input.username === undefined ? 'Trader_Joe' : input.username;
  if (username !== null) await linkUsername(database.db, userId, username, now);
  return { userId, subscriptionId: subscription!.id };
}

async function updateSubscription(id: string, values: Partial<typeof userSubscriptions.$inferInsert>) {
  await database.db.update(userSubscriptions).set(values).where(eq(userSubscriptions.id, id));
}

async function grants(userId: string) {
  return database.db.select().from(tradingviewGrants).where(eq(tradingviewGrants.userId, userId)).orderBy(tradingviewGrants.createdAt);
}

async function onTradingView(username: string) {
  const rows = await database.db.select().from(sandboxTradingviewAccess).where(eq(sandboxTradingviewAccess.username, username));
  return rows
    .filter((row) => row.expiration === null || row.expiration > now)
    .map((row) => ({ script: row.scriptId, expiration: row.expiration }))
    .sort((a, b) => a.script.localeCompare(b.script));
}

const everyScript = (expiration: Date | null) => [...SCRIPTS].sort().map((script) => ({ script, expiration }));
const count = (op: SandboxOperation['op']) => operations.filter((operation) => operation.op === op).length;

/** The sandbox, except that every grant and revoke fails while `down` is true. */
function flaky(state: { down: boolean }): TradingViewPort {
  const fail = () => Promise.reject(new TradingViewError('network', 'POST /pine_perm/add/ timed out after 15000 ms'));
  return {
    ...sandbox,
    grant: (...args) => (state.down ? fail() : sandbox.grant(...args)),
    revoke: (...args) => (state.down ? fail() : sandbox.revoke(...args)),
  };
}

/**
 * The sandbox, with every grant after the first `passing` calls held until release(); `inFlight`
 * lists the usernames whose grant is being called, `mostAtOnce` the most rows called at once.
 */
function heldAfter(passing: number) {
  let calls = 0;
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const inFlight: string[] = [];
  const state = { inFlight, mostAtOnce: 0, release };
  const port: TradingViewPort = {
    ...sandbox,
    grant: async (scriptId, username, expiresAt, shop) => {
      calls += 1;
      inFlight.push(username);
      state.mostAtOnce = Math.max(state.mostAtOnce, new Set(inFlight).size);
      try {
        if (calls > passing) await released;
        return await sandbox.grant(scriptId, username, expiresAt, shop);
      } finally {
        inFlight.splice(inFlight.indexOf(username), 1);
      }
    },
  };
  return { port, state };
}

describe('grant reconciler', () => {
  it('grants a new member access to every script until the subscription expires', async () => {
    const { userId } = await member({ expiresAt: JULY });
    const r = reconciler();
    await r.syncUser(userId);
    expect(await grants(userId)).toMatchObject([{ username: 'Trader_Joe', desired: 'grant', desiredExpiresAt: JULY, status: 'pending' }]);

    const summary = await r.runOnce();

    expect(summary).toMatchObject({ processed: 1, succeeded: 1, failed: 0 });
    expect(await onTradingView('Trader_Joe')).toEqual(everyScript(JULY));
    expect(await grants(userId)).toMatchObject([{ status: 'granted', grantedExpiresAt: JULY, attempts: 0, lastError: null }]);
    expect(count('add')).toBe(3);
  });

  it('grants lifetime access with no expiry', async () => {
    const { userId } = await member({ planType: 'lifetime', expiresAt: null });
    const r = reconciler();
    await r.syncUser(userId);
    await r.runOnce();
    expect(await onTradingView('Trader_Joe')).toEqual(everyScript(null));
    expect(await grants(userId)).toMatchObject([{ status: 'granted', desiredExpiresAt: null }]);
  });

  it('extends access on renewal with modify_user_expiration, never add', async () => {
    const { userId, subscriptionId } = await member({ expiresAt: JULY });
    const r = reconciler();
    await r.syncUser(userId);
    await r.runOnce();
    operations.length = 0;

    await updateSubscription(subscriptionId, { expiresAt: AUGUST });
    await r.syncUser(userId);
    await r.runOnce();

    expect(count('modify')).toBe(3);
    expect(count('add')).toBe(0);
    expect(await onTradingView('Trader_Joe')).toEqual(everyScript(AUGUST));
    expect(await grants(userId)).toMatchObject([{ status: 'granted', desiredExpiresAt: AUGUST, grantedExpiresAt: AUGUST }]);
  });

  it('a script added to TRADINGVIEW_SCRIPT_IDS later joins every plan, and the next sync asks for it', async () => {
    const { userId } = await member({ expiresAt: JULY });
    await reconciler().syncUser(userId);
    const added = 'PUB;added-later';
    const widened = createGrantReconciler({ db: database.db, port: sandbox, scriptIds: [...SCRIPTS, added], logger: createLogger('silent'), clock, intervalMs: 60_000 });

    await widened.syncUser(userId);

    expect(await grants(userId)).toMatchObject([{ desired: 'grant', desiredExpiresAt: JULY, desiredScripts: [...SCRIPTS, added].sort(), status: 'pending' }]);
  });

  it('revokes on time once a canceled subscription reaches its expiry, with no call from billing', async () => {
    const { userId } = await member({ expiresAt: JULY, cancelAtPeriodEnd: true });
    const r = reconciler();
    // the period's end reaches TradingView as the core's `ended` access change, as in the composition
    const { accessChanges } = composeEntitlements({ db: database.db, clock, logger: createLogger('silent'), subscribers: [followsAccess('tradingview', r.syncUser)] });
    const pass = async () => {
      await accessChanges.runOnce();
      await r.runOnce();
    };
    await r.syncUser(userId);
    await pass();
    advance(JULY.getTime() - START.getTime() - 60_000);
    await pass();
    expect(await grants(userId)).toMatchObject([{ desired: 'grant', status: 'granted' }]);

    advance(60_000);
    await pass();

    expect(await grants(userId)).toMatchObject([{ desired: 'revoke', status: 'revoked', grantedExpiresAt: null }]);
    // TradingView ended the access at the expiry the shop set: the revoke finds nothing left to remove
    expect(count('remove')).toBe(0);
    expect(await onTradingView('Trader_Joe')).toEqual([]);
  });

  it.each([
    ['a refund (is_active false)', (id: string) => updateSubscription(id, { isActive: false, status: 'canceled' })],
    ['a deleted subscription', (id: string) => database.db.delete(userSubscriptions).where(eq(userSubscriptions.id, id)).then(() => undefined)],
  ])('revokes after %s', async (_name, endAccess) => {
    const { userId, subscriptionId } = await member({ planType: 'lifetime', expiresAt: null });
    const r = reconciler();
    await r.syncUser(userId);
    await r.runOnce();
    expect(await onTradingView('Trader_Joe')).toEqual(everyScript(null));

    await endAccess(subscriptionId);
    await r.syncUser(userId);
    await r.runOnce();

    expect(await onTradingView('Trader_Joe')).toEqual([]);
    expect(await grants(userId)).toMatchObject([{ desired: 'revoke', status: 'revoked' }]);
  });

  it('retries a TradingView outage with exponential back-off and never revokes because of it', async () => {
    const state = { down: false };
    const { userId, subscriptionId } = await member({ expiresAt: JULY });
    const r = reconciler(flaky(state));
    await r.syncUser(userId);
    await r.runOnce();
    operations.length = 0;

    // renewal arrives while TradingView is down
    state.down = true;
    await updateSubscription(subscriptionId, { expiresAt: AUGUST });
    await r.syncUser(userId);
    expect(await r.runOnce()).toMatchObject({ processed: 1, failed: 1 });
    let [row] = await grants(userId);
    expect(row).toMatchObject({ desired: 'grant', status: 'failed', attempts: 1, lastError: expect.stringMatching(/^network: /) });
    expect(row!.nextAttemptAt).toEqual(new Date(now.getTime() + 30_000));

    // not due yet: nothing is tried
    advance(29_000);
    expect(await r.runOnce()).toMatchObject({ processed: 0 });

    advance(1_000);
    expect(await r.runOnce()).toMatchObject({ processed: 1, failed: 1 });
    [row] = await grants(userId);
    expect(row).toMatchObject({ status: 'failed', attempts: 2 });
    expect(row!.nextAttemptAt).toEqual(new Date(now.getTime() + 60_000));

    // a long outage is retried at most hourly
    for (let i = 0; i < 10; i += 1) {
      advance(60 * 60_000);
      await r.runOnce();
    }
    [row] = await grants(userId);
    expect(row).toMatchObject({ desired: 'grant', status: 'failed', attempts: 12 });
    expect(row!.nextAttemptAt).toEqual(new Date(now.getTime() + 60 * 60_000));

    // the member kept their access throughout: nothing was removed
    expect(count('remove')).toBe(0);
    expect(await onTradingView('Trader_Joe')).toEqual(everyScript(JULY));

    state.down = false;
    advance(60 * 60_000);
    await r.runOnce();
    expect(await grants(userId)).toMatchObject([{ status: 'granted', attempts: 0, lastError: null, grantedExpiresAt: AUGUST }]);
    expect(await onTradingView('Trader_Joe')).toEqual(everyScript(AUGUST));
  });

  it('picks up a row whose reconciler crashed mid-run once the lease ends, without granting twice', async () => {
    const { userId } = await member({ expiresAt: JULY });
    const r = reconciler();
    await r.syncUser(userId);

    // Another instance claims the row, calls TradingView, and dies before recording the result.
    const claimed = await claimNextDue(database.db, now, LEASE_MS);
    expect(claimed).toMatchObject({ status: 'processing' });
    for (const script of SCRIPTS) await sandbox.grant(script, 'Trader_Joe', JULY, null);
    expect(count('add')).toBe(3);

    // still leased: left alone
    advance(LEASE_MS - 1_000);
    expect(await r.runOnce()).toMatchObject({ processed: 0 });

    advance(2_000);
    operations.length = 0;
    expect(await r.runOnce()).toMatchObject({ processed: 1, succeeded: 1 });
    // each script's add answers "exists" (nothing granted twice), and the list shows our expiry: no change
    expect(operations.map((operation) => operation.op)).toEqual(SCRIPTS.flatMap(() => ['add', 'list']));
    expect(await onTradingView('Trader_Joe')).toEqual(everyScript(JULY));
    expect(await grants(userId)).toMatchObject([{ status: 'granted', grantedExpiresAt: JULY }]);

    // the crashed run's late result (lease lost) does not overwrite anything
    expect(await finishClaim(database.db, claimed!, { ok: false, lastError: 'network: late', retryAt: () => now }, now)).toBe(false);
    expect(await grants(userId)).toMatchObject([{ status: 'granted', lastError: null }]);
  });

  // a crash mid-grant once waited out a 5-minute lease
  it('grants within a minute of a crash mid-grant', async () => {
    const { userId } = await member({ expiresAt: JULY });
    const r = createGrantReconciler({ db: database.db, port: sandbox, scriptIds: SCRIPTS, logger: createLogger('silent'), clock, intervalMs: 15_000 });
    await r.syncUser(userId);
    expect(await claimNextDue(database.db, now, DEFAULT_LEASE_MS)).toMatchObject({ status: 'processing' });
    advance(60_000);
    expect(await r.runOnce()).toMatchObject({ processed: 1, succeeded: 1 });
    expect(await onTradingView('Trader_Joe')).toEqual(everyScript(JULY));
  });

  it('renews its lease while TradingView calls take longer than the lease', async () => {
    const WAIT = { timeout: 30_000, interval: 20 };
    const { userId } = await member({ expiresAt: JULY });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow: TradingViewPort = {
      ...sandbox,
      grant: async (...args) => {
        await released;
        return sandbox.grant(...args);
      },
    };
    const r = createGrantReconciler({ db: database.db, port: slow, scriptIds: SCRIPTS, logger: createLogger('silent'), clock, intervalMs: 60_000, leaseMs: 1_000, renewEveryMs: 5 });
    await r.syncUser(userId);
    const running = r.runOnce();
    const leaseAt = async () => {
      const [row] = await grants(userId);
      return row?.status === 'processing' ? row.nextAttemptAt : undefined;
    };
    // the first lease ends at now + 1 s; move the clock on and wait until a renewal moved it too
    const firstLease = await vi.waitFor(async () => {
      const at = await leaseAt();
      if (!at) throw new Error('not claimed yet');
      return at;
      // a bound for a busy machine, not a speed: the claim is a database round trip or two
    }, WAIT);
    advance(10_000);
    const renewedTo = await vi.waitFor(async () => {
      const at = await leaseAt();
      if (!at || at.getTime() <= firstLease.getTime()) throw new Error('not renewed yet');
      return at;
    }, WAIT);
    // another reconciler finds nothing due although the first lease has long ended
    expect(await reconciler().runOnce()).toMatchObject({ processed: 0 });
    release();
    expect(await running).toMatchObject({ processed: 1, succeeded: 1 });
    expect(renewedTo.getTime()).toBeGreaterThan(now.getTime());
    expect(await grants(userId)).toMatchObject([{ status: 'granted' }]);
  });

  it('requeues a row whose target changed while TradingView was being called', async () => {
    const { userId, subscriptionId } = await member({ expiresAt: JULY });
    const r = reconciler();
    await r.syncUser(userId);
    const claimed = await claimNextDue(database.db, now, LEASE_MS);

    await updateSubscription(subscriptionId, { expiresAt: AUGUST });
    await r.syncUser(userId);
    // the lease holder's row is not handed to anyone else meanwhile
    expect(await grants(userId)).toMatchObject([{ status: 'processing', desiredExpiresAt: AUGUST }]);

    for (const script of SCRIPTS) await sandbox.grant(script, 'Trader_Joe', JULY, null);
    await finishClaim(database.db, claimed!, { ok: true, applied: { desired: 'grant', expiresAt: JULY, scripts: [...SCRIPTS].sort() } }, now);
    expect(await grants(userId)).toMatchObject([{ status: 'pending', grantedExpiresAt: JULY }]);

    await r.runOnce();
    expect(await onTradingView('Trader_Joe')).toEqual(everyScript(AUGUST));
    expect(await grants(userId)).toMatchObject([{ status: 'granted', grantedExpiresAt: AUGUST }]);
  });

  it('two reconcilers running at once grant each member exactly once', async () => {
    const members = await Promise.all(Array.from({ length: 6 }, (_, i) => member({ username: `concurrent_${i}` })));
    // slow TradingView calls widen the window in which both reconcilers are busy
    const slow: TradingViewPort = {
      ...sandbox,
      grant: async (...args) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return sandbox.grant(...args);
      },
    };
    const first = reconciler(slow);
    const second = reconciler(slow);
    for (const { userId } of members) await first.syncUser(userId);

    const [a, b] = await Promise.all([first.runOnce(), second.runOnce()]);

    expect(a.processed + b.processed).toBe(6);
    expect(count('add')).toBe(6 * SCRIPTS.length);
    expect(count('modify')).toBe(0);
    for (let i = 0; i < 6; i += 1) expect(await onTradingView(`concurrent_${i}`)).toEqual(everyScript(JULY));
    expect(await database.db.select({ status: tradingviewGrants.status }).from(tradingviewGrants)).toEqual(Array(6).fill({ status: 'granted' }));
  });

  it('moves access to a corrected username and revokes the old one', async () => {
    const { userId } = await member({ username: 'Trader_Jo' });
    const r = reconciler();
    await r.syncUser(userId);
    await r.runOnce();

    await linkUsername(database.db, userId, 'Trader_Joe', now);
    await r.syncUser(userId);
    await r.runOnce();

    expect(await grants(userId)).toMatchObject([
      { username: 'Trader_Jo', desired: 'revoke', status: 'revoked' },
      { username: 'Trader_Joe', desired: 'grant', status: 'granted' },
    ]);
    expect(await onTradingView('Trader_Jo')).toEqual([]);
    expect(await onTradingView('Trader_Joe')).toEqual(everyScript(JULY));
  });

  it('revokes the old name and grants the new one in the same sync and the same pass', async () => {
    const { userId } = await member({ username: 'Old_Name', planType: 'lifetime', expiresAt: null });
    const r = reconciler();
    await r.syncUser(userId);
    await r.runOnce();
    expect(await onTradingView('Old_Name')).toEqual(everyScript(null));

    advance(60_000);
    await linkUsername(database.db, userId, 'New_Name', now);
    await r.syncUser(userId);
    // one sync wrote both targets: no moment where the old name is still wanted beside the new one
    expect(await grants(userId)).toMatchObject([
      { username: 'Old_Name', desired: 'revoke', status: 'pending' },
      { username: 'New_Name', desired: 'grant', desiredExpiresAt: null, status: 'pending' },
    ]);

    expect(await r.runOnce()).toMatchObject({ processed: 2, succeeded: 2, failed: 0 });
    expect(await grants(userId)).toMatchObject([
      { username: 'Old_Name', desired: 'revoke', status: 'revoked' },
      { username: 'New_Name', desired: 'grant', status: 'granted' },
    ]);
    expect(await onTradingView('Old_Name')).toEqual([]);
    expect(await onTradingView('New_Name')).toEqual(everyScript(null));
    expect(await usernameHistory(database.db, userId)).toEqual([
      { username: 'New_Name', linkedAt: now, replacedAt: null },
      { username: 'Old_Name', linkedAt: START, replacedAt: now },
    ]);
  });

  it("keeps a TradingView account's access while another member still pays for it", async () => {
    const refunded = await member({ username: 'shared_account', expiresAt: JULY });
    const paying = await member({ username: null, expiresAt: AUGUST });
    const r = reconciler();
    await r.syncUser(refunded.userId);
    await r.runOnce();
    // one member holds a name at a time (decision 048): an operator moved the account to the
    // paying member; the refunded member's row still names it
    await linkUsername(database.db, paying.userId, 'shared_account', now, { by: 'transfer', transfer: true });
    await r.syncUser(refunded.userId);
    await r.syncUser(paying.userId);
    await r.runOnce();
    expect(await onTradingView('shared_account')).toEqual(everyScript(AUGUST));

    await updateSubscription(refunded.subscriptionId, { isActive: false });
    await r.syncUser(refunded.userId);
    await r.runOnce();

    expect(await grants(refunded.userId)).toMatchObject([{ desired: 'revoke', status: 'revoked' }]);
    expect(await onTradingView('shared_account')).toEqual(everyScript(AUGUST));
    expect(count('remove')).toBe(0);
  });

  it('finds members billing never synced, on its periodic sweep', async () => {
    const { userId } = await member({ expiresAt: JULY });
    await reconciler().runOnce();
    expect(await grants(userId)).toMatchObject([{ status: 'granted' }]);
    expect(await onTradingView('Trader_Joe')).toEqual(everyScript(JULY));
  });

  it('a sweep finds the members that differ from a few reads per slice: unchanged members cost no sync of their own', async () => {
    const members = [];
    for (let i = 0; i < 12; i += 1) members.push(await member({ expiresAt: JULY, username: `member_${i}` }));
    await reconciler().runOnce();
    const renewed = members[4]!;
    const joined = await member({ expiresAt: JULY, username: 'never_synced' });
    await updateSubscription(renewed.subscriptionId, { expiresAt: AUGUST });
    operations.length = 0;

    const transaction = vi.spyOn(database.db, 'transaction');
    const summary = await createGrantReconciler({ db: database.db, port: sandbox, scriptIds: SCRIPTS, logger: createLogger('silent'), clock, intervalMs: 60_000, batchSize: 0 }).runOnce();
    // one locked sync per member that differs, none for the twelve unchanged
    expect(transaction).toHaveBeenCalledTimes(2);
    transaction.mockRestore();
    expect(summary).toMatchObject({ resynced: 13, processed: 0 });
    expect(await grants(renewed.userId)).toMatchObject([{ status: 'pending', desiredExpiresAt: AUGUST }]);
    expect(await grants(joined.userId)).toMatchObject([{ status: 'pending', desiredExpiresAt: JULY }]);
    expect((await grants(members[0]!.userId))[0]).toMatchObject({ status: 'granted' });
    expect(operations).toEqual([]);
  });

  it('does nothing for a member without a TradingView username', async () => {
    const { userId } = await member({ username: null });
    const r = reconciler();
    await r.syncUser(userId);
    expect(await r.runOnce()).toMatchObject({ processed: 0 });
    expect(await grants(userId)).toEqual([]);
  });

  it('audit requeues access removed by hand on TradingView and a revoke that did not stick, and leaves strangers alone', async () => {
    const kept = await member({ username: 'removed_by_hand' });
    const gone = await member({ username: 'came_back', isActive: false });
    const r = reconciler();
    await r.syncUser(kept.userId);
    await database.db.insert(tradingviewGrants).values({ userId: gone.userId, username: 'came_back', desired: 'revoke', status: 'revoked' });
    await r.runOnce();
    await database.db.delete(sandboxTradingviewAccess).where(eq(sandboxTradingviewAccess.username, 'removed_by_hand'));
    // the shop had granted came_back before (its revoke did not stick); vendor_friend is the vendor's
    for (const script of SCRIPTS) await sandbox.grant(script, 'came_back', null, null);
    for (const script of SCRIPTS) await recordShopAccess(database.db, script, 'came_back', null, now);
    await sandbox.grant(SCRIPTS[0]!, 'vendor_friend', null, null);

    expect(await r.audit()).toEqual({ requeued: 2 });
    await r.runOnce();

    expect(await onTradingView('removed_by_hand')).toEqual(everyScript(JULY));
    expect(await onTradingView('came_back')).toEqual([]);
    expect(await onTradingView('vendor_friend')).toHaveLength(1);
    expect(await r.audit()).toEqual({ requeued: 0 });
  });

  it('never shortens nor removes access the vendor gave by hand with no expiry, and records what the shop gave', async () => {
    for (const script of SCRIPTS) await sandbox.grant(script, 'Trader_Joe', null, null); // the vendor, by hand
    await sandbox.grant(SCRIPTS[0]!, 'Alice_Charts', null, null);
    const joe = await member({ expiresAt: JULY });
    const alice = await member({ username: 'Alice_Charts', expiresAt: JULY });
    const r = reconciler();
    await r.syncUser(joe.userId);
    await r.syncUser(alice.userId);
    await r.runOnce();
    expect(await onTradingView('Trader_Joe')).toEqual(everyScript(null));
    expect(await grants(joe.userId)).toMatchObject([{ status: 'granted' }]);
    // Alice had hand access to one script only: the shop gave her the other two, and records just those
    expect(await findShopAccess(database.db, SCRIPTS[0]!, 'alice_charts')).toBeNull();
    expect(await findShopAccess(database.db, SCRIPTS[1]!, 'Alice_Charts')).toEqual({ expiresAt: JULY });

    await updateSubscription(joe.subscriptionId, { isActive: false });
    await updateSubscription(alice.subscriptionId, { isActive: false });
    await r.syncUser(joe.userId);
    await r.syncUser(alice.userId);
    await r.runOnce();
    expect(count('modify')).toBe(0);
    expect(await onTradingView('Trader_Joe')).toEqual(everyScript(null));
    expect(await onTradingView('Alice_Charts')).toEqual([{ script: SCRIPTS[0], expiration: null }]);
    expect(await grants(alice.userId)).toMatchObject([{ desired: 'revoke', status: 'revoked' }]);
    expect(await r.audit()).toEqual({ requeued: 0 });
  });

  it('audit changes nothing when TradingView cannot be listed', async () => {
    const { userId } = await member();
    const r = reconciler();
    await r.syncUser(userId);
    await r.runOnce();
    const broken: TradingViewPort = { ...sandbox, listUsers: () => Promise.reject(new TradingViewError('session_expired', '401')) };
    await expect(reconciler(broken).audit()).rejects.toThrow(TradingViewError);
    expect(await grants(userId)).toMatchObject([{ status: 'granted' }]);
  });

  it('works on several members at once, never more than its lanes, once the first grant of the pass went through', async () => {
    const members = await Promise.all(Array.from({ length: 8 }, (_, i) => member({ username: `lane_${i}` })));
    // the first member's three scripts go through; every later call waits
    const { port, state } = heldAfter(SCRIPTS.length);
    const r = createGrantReconciler({ db: database.db, port, scriptIds: SCRIPTS, logger: createLogger('silent'), clock, intervalMs: 60_000, lanes: 3 });
    for (const { userId } of members) await r.syncUser(userId);

    const running = r.runOnce();
    await vi.waitFor(() => expect(new Set(state.inFlight).size).toBe(3), { timeout: 20_000, interval: 20 });
    state.release();

    expect(await running).toMatchObject({ processed: 8, succeeded: 8, failed: 0 });
    expect(state.mostAtOnce).toBe(3);
    expect(count('add')).toBe(8 * SCRIPTS.length);
    for (let i = 0; i < 8; i += 1) expect(await onTradingView(`lane_${i}`)).toEqual(everyScript(JULY));
  });

  it('a database failure in some lanes while another works: the pass fails with it once every lane is done, and no rejection is left unhandled (it would end the server)', async () => {
    const members = [];
    for (let i = 0; i < 6; i += 1) members.push(await member({ username: `lane_${i}` }));
    // a Postgres restart, as the chaos bench makes it: every query fails from the moment one lane's grant is held
    let down = false;
    let refused = 0;
    const db = new Proxy(database.db, {
      get(target, property, receiver) {
        if (down && ['select', 'insert', 'update', 'delete', 'execute', 'transaction'].includes(String(property))) {
          refused += 1;
          throw new Error('connect ECONNREFUSED (the database restarts)');
        }
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
    let calls = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    const port: TradingViewPort = {
      ...sandbox,
      grant: async (scriptId, username, expiresAt, shop) => {
        calls += 1;
        // the first member's grants go through and open the lanes; the next call is held, and the database goes away
        if (calls > SCRIPTS.length && !held) {
          held = true;
          down = true;
          await released;
        }
        return sandbox.grant(scriptId, username, expiresAt, shop);
      },
    };
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const r = createGrantReconciler({ db, port, scriptIds: SCRIPTS, logger: createLogger('silent'), clock, intervalMs: 60_000, lanes: 3 });
      for (const { userId } of members) await r.syncUser(userId);
      const pass = r.runOnce();
      const outcome = pass.then(() => 'done', (error: unknown) => (error instanceof Error ? error.message : String(error)));
      await vi.waitFor(() => expect(held).toBe(true), { timeout: 20_000, interval: 10 });
      // the two other lanes meet the database's absence while the held one still works
      await vi.waitFor(() => expect(refused).toBeGreaterThanOrEqual(2), { timeout: 20_000, interval: 10 });
      await new Promise((resolve) => setImmediate(resolve));
      release();
      expect(await outcome).toMatch(/ECONNREFUSED/);
      expect(unhandled).toEqual([]);
    } finally {
      down = false;
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('never works on two rows for the same TradingView account at once', async () => {
    const first = await member({ username: 'lane_first' });
    const sharing = [await member({ username: 'shared_account', expiresAt: JULY }), await member({ username: null, expiresAt: AUGUST })];
    const others = [await member({ username: 'lane_a' }), await member({ username: 'lane_b' })];
    const { port, state } = heldAfter(SCRIPTS.length);
    const r = createGrantReconciler({ db: database.db, port, scriptIds: SCRIPTS, logger: createLogger('silent'), clock, intervalMs: 60_000, lanes: 4 });
    await r.syncUser(sharing[0]!.userId);
    // one member holds a name at a time (decision 048): the account moved before its first grant
    // ran, which leaves two open rows for it (the first member's revoke, the second's grant)
    await linkUsername(database.db, sharing[1]!.userId, 'Shared_Account', now, { by: 'transfer', transfer: true });
    for (const { userId } of [first, ...sharing, ...others]) await r.syncUser(userId);

    const running = r.runOnce();
    // three lanes hold a row each; the fourth finds the shared account's other row taken
    await vi.waitFor(() => expect(new Set(state.inFlight).size).toBe(3), { timeout: 20_000, interval: 20 });
    expect(new Set(state.inFlight.map((username) => username.toLowerCase()))).toEqual(new Set(['shared_account', 'lane_a', 'lane_b']));
    state.release();
    await running;
    await r.runOnce();

    expect(await grants(sharing[0]!.userId)).toMatchObject([{ desired: 'revoke', status: 'revoked' }]);
    expect(await grants(sharing[1]!.userId)).toMatchObject([{ desired: 'grant', status: 'granted' }]);
    expect(await onTradingView('shared_account')).toEqual(everyScript(AUGUST));
  });

  it('the started loop grants right after syncUser, without waiting for its interval, and stop() waits for it', async () => {
    const r = createGrantReconciler({ db: database.db, port: sandbox, scriptIds: SCRIPTS, logger: createLogger('silent'), clock, intervalMs: 60 * 60_000 });
    let userId = '';
    r.start();
    try {
      // let the first pass (at start) finish with nothing to do; the next is an hour away
      await new Promise((resolve) => setTimeout(resolve, 500));
      const { userId: later } = await member();
      userId = later;
      await r.syncUser(userId);
      // waits on the grant itself: a busy machine may take seconds, the interval is an hour
      await vi.waitFor(async () => expect((await grants(userId))[0]?.status).toBe('granted'), { timeout: 20_000, interval: 50 });
    } finally {
      await r.stop();
    }
    expect(await grants(userId)).toMatchObject([{ status: 'granted' }]);
    expect(await onTradingView('Trader_Joe')).toEqual(everyScript(JULY));
  });
});
