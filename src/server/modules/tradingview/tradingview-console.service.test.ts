// The console's TradingView page on seeded data through the real app: queue, outage, retry,
// reconciliation in both directions and its fixes (hand-given access is never touched).
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { GrantQueue, Reconciliation, TradingViewHealth } from '@shared/admin-ops-contract';
import { userSubscriptions } from '../../db/schema';
import type { TestApp } from '../../test-support/test-app';
import { addSandboxAccess, listSandboxAccess } from './tradingview.repository';
import { consoleSuite, seedMember } from '../../test-support/admin-test-kit';
import { tradingViewOf } from './tradingview.integration';

let t: TestApp;
let operator: string;

consoleSuite((suite) => ({ t, operator } = suite));

const db = () => t.deps.database.db;
const scripts = () => t.deps.config.integrations.tradingview.scriptIds;
const get = async <T>(path: string): Promise<T> => {
  const response = await t.request(`/api/admin${path}`, { cookie: operator });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as T;
};
const post = (path: string, body: unknown = {}) => t.request(`/api/admin${path}`, { body, cookie: operator });
const queued = async (username: string) => (await get<GrantQueue>('/tradingview/queue')).grants.filter((grant) => grant.username === username);
const recent = async (username: string) => (await get<GrantQueue>('/tradingview/queue')).recent.filter((grant) => grant.username === username);
const listedOn = async (username: string) => {
  const found = [];
  for (const scriptId of scripts()) if ((await listSandboxAccess(db(), scriptId, username, new Date())).some((entry) => entry.username === username)) found.push(scriptId);
  return found;
};

describe('TradingView health and the grant queue', () => {
  it('shows a grant failing in an outage with its error, and granted after the outage ends and a retry', async () => {
    const buyer = await seedMember(db(), { username: 'queue_trader' });
    await tradingViewOf(t.integrations).reconciler.syncUser(buyer.userId);
    expect(await queued('queue_trader')).toMatchObject([{ status: 'pending', email: buyer.email, attempts: 0, failingSince: null }]);

    expect((await post('/sandbox/tradingview-outage', { down: true })).status).toBe(200);
    await tradingViewOf(t.integrations).reconciler.runOnce();
    const [failed] = await queued('queue_trader');
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, lastError: "network: TradingView's access endpoints are down (simulated outage)" });
    expect(failed!.failingSince).not.toBeNull();
    const down = await get<TradingViewHealth>('/tradingview/health');
    expect(down).toMatchObject({ adapter: 'sandbox', ok: false, account: null, outage: true, error: "network: TradingView's access endpoints are down (simulated outage)" });
    expect(down.scripts.map((script) => script.users)).toEqual(scripts().map(() => null));

    expect((await post('/sandbox/tradingview-outage', { down: false })).status).toBe(200);
    // the failed row waits out its back-off: only "retry all failed" makes it due now
    await tradingViewOf(t.integrations).reconciler.runOnce();
    expect(await queued('queue_trader')).toMatchObject([{ status: 'failed' }]);
    const retry = await post('/tradingview/retry-failed');
    expect(await retry.json()).toEqual({ retried: 1 });
    await tradingViewOf(t.integrations).reconciler.runOnce();
    expect(await queued('queue_trader')).toEqual([]);
    expect(await recent('queue_trader')).toMatchObject([{ status: 'granted', attempts: 0, lastError: null, failingSince: null }]);
    expect(await listedOn('queue_trader')).toEqual([...scripts()]);
    const up = await get<TradingViewHealth>('/tradingview/health');
    expect(up).toMatchObject({ ok: true, account: 'sandbox_vendor', outage: false, error: null });
    expect(up.scripts.every((script) => (script.users ?? 0) >= 1)).toBe(true);
  });
});

describe('the reconciliation report', () => {
  it('lists a paying member missing on TradingView and fixes it with one click', async () => {
    const payer = await seedMember(db(), { username: 'missing_trader' });
    const before = await get<Reconciliation>('/tradingview/reconciliation');
    expect(before.missing.filter((entry) => entry.userId === payer.userId)).toEqual([{ userId: payer.userId, email: payer.email, username: 'missing_trader', scripts: [...scripts()] }]);

    const fix = await post('/tradingview/reconciliation/grant', { userId: payer.userId });
    expect(fix.status).toBe(200);
    await tradingViewOf(t.integrations).reconciler.runOnce();
    expect(await listedOn('missing_trader')).toEqual([...scripts()]);
    const after = await get<Reconciliation>('/tradingview/reconciliation');
    expect(after.missing.some((entry) => entry.userId === payer.userId)).toBe(false);
  });

  it('lists access the shop gave to a username nobody pays for, removes it, and leaves hand-given access alone', async () => {
    const lapsed = await seedMember(db(), { username: 'lapsed_trader' });
    await tradingViewOf(t.integrations).reconciler.syncUser(lapsed.userId);
    await tradingViewOf(t.integrations).reconciler.runOnce();
    expect(await listedOn('lapsed_trader')).toEqual([...scripts()]);
    // the payment ended without billing telling the reconciler (the case the report exists for)
    await db().update(userSubscriptions).set({ isActive: false, status: 'canceled' }).where(eq(userSubscriptions.id, lapsed.subscriptionId));
    // the vendor gave a friend access by hand: never the shop's to report or remove
    for (const scriptId of scripts()) await addSandboxAccess(db(), scriptId, 'vendor_friend', null, new Date());

    const report = await get<Reconciliation>('/tradingview/reconciliation');
    expect(report.unpaid.filter((entry) => entry.username === 'lapsed_trader')).toEqual([
      { username: 'lapsed_trader', scripts: [...scripts()], members: [{ userId: lapsed.userId, email: lapsed.email }] },
    ]);
    expect(report.unpaid.some((entry) => entry.username === 'vendor_friend')).toBe(false);

    const fix = await post('/tradingview/reconciliation/revoke', { username: 'lapsed_trader' });
    expect(await fix.json()).toEqual({ done: `Removed lapsed_trader from ${scripts().length} scripts.` });
    expect(await listedOn('lapsed_trader')).toEqual([]);
    expect(await listedOn('vendor_friend')).toEqual([...scripts()]);
    // the member's row now wants the revoke too, so no later pass grants it back
    await tradingViewOf(t.integrations).reconciler.runOnce();
    expect(await listedOn('lapsed_trader')).toEqual([]);
    expect((await get<Reconciliation>('/tradingview/reconciliation')).unpaid.some((entry) => entry.username === 'lapsed_trader')).toBe(false);
  });

  it('refuses to remove the access of a username someone pays for', async () => {
    const payer = await seedMember(db(), { username: 'paying_trader' });
    await tradingViewOf(t.integrations).reconciler.syncUser(payer.userId);
    await tradingViewOf(t.integrations).reconciler.runOnce();
    const refused = await post('/tradingview/reconciliation/revoke', { username: 'Paying_Trader' });
    expect(refused.status).toBe(409);
    expect(await listedOn('paying_trader')).toEqual([...scripts()]);
  });

  it('refuses the one-click grant for a member without paid access', async () => {
    const lapsed = await seedMember(db(), { username: 'never_paid', isActive: false, status: 'canceled' });
    expect((await post('/tradingview/reconciliation/grant', { userId: lapsed.userId })).status).toBe(409);
  });
});
