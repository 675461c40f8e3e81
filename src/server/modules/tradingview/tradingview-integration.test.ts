// TradingView as an integration of the registry (decision 064): built first, so its subscriber
// hears of access changes before the others, and its card on the console's overview counts the
// members with a username and the grants still to do or failing.
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../../test-support/test-app';
import { consoleSuite, seedMember } from '../../test-support/admin-test-kit';
import { tradingViewOf } from './tradingview.integration';

let t: TestApp;
let operator: string;

consoleSuite((suite) => ({ t, operator } = suite));

const db = () => t.deps.database.db;

async function cards(): Promise<{ name: string }[]> {
  const response = await t.request('/api/admin/integrations', { cookie: operator });
  expect(response.status).toBe(200);
  return ((await response.json()) as { integrations: { name: string }[] }).integrations;
}

describe('TradingView as an integration', () => {
  it('is the first integration built, whose subscriber follows every access change', () => {
    expect(t.integrations.map((integration) => integration.name)).toEqual(['tradingview', 'discord', 'telegram', 'mail']);
    const tradingView = tradingViewOf(t.integrations);
    expect(tradingView.subscriber.name).toBe('tradingview');
    expect(tradingView.sandbox).toBe(true);
    // the reconciler (its queue, audit and session checks) and the start's script naming
    expect(tradingView.loops).toContain(tradingView.reconciler);
  });

  it("is the overview's first card: members with a username, grants pending and failing", async () => {
    const tradingView = tradingViewOf(t.integrations);
    const card = async () => (await cards()).find((each) => each.name === 'tradingview');
    expect((await cards())[0]).toEqual({ name: 'tradingview', title: 'TradingView', path: '/admin/tradingview', sandbox: true, linked: 0, pending: 0, failing: 0 });

    const first = await seedMember(db(), { username: 'card_trader' });
    const second = await seedMember(db(), { username: 'card_other_trader' });
    await seedMember(db(), { username: null });
    await tradingView.reconciler.syncUser(first.userId);
    await tradingView.reconciler.syncUser(second.userId);
    expect(await card()).toMatchObject({ linked: 2, pending: 2, failing: 0 });

    await tradingView.port.sandbox!.setOutage(true);
    await tradingView.reconciler.runOnce();
    expect(await card()).toMatchObject({ linked: 2, pending: 0, failing: 2 });

    await tradingView.port.sandbox!.setOutage(false);
    expect((await t.request('/api/admin/tradingview/retry-failed', { body: {}, cookie: operator })).status).toBe(200);
    await tradingView.reconciler.runOnce();
    expect(await card()).toMatchObject({ linked: 2, pending: 0, failing: 0 });
  });
});
