import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanType } from '@shared/plans';
import { createTestApp, type TestApp } from '../../test-support/test-app';
import { buy, DAY_MS, movableClock, ordersOfSession } from '../../test-support/billing-test-kit';

// The sale ended: the shop must charge what the cards say, the sale price only while
// the sale runs and the regular price after SALE_ENDS_AT.
const time = movableClock();
const saleEndsAt = new Date(time.now().getTime() + DAY_MS);
let t: TestApp;
let counter = 0;
beforeAll(async () => {
  t = await createTestApp({ SALE_ENDS_AT: saleEndsAt.toISOString() }, { clock: time.clock });
});
afterAll(async () => {
  await t.close();
});

async function charged(planType: PlanType, originPage: '/' | '/eu' = '/') {
  const sessionId = await buy(t, `campaign-${++counter}@example.com`, { planType, originPage });
  const details = await (await t.request('/api/get-payment-details', { body: { sessionId } })).json();
  const [order] = await ordersOfSession(t, sessionId);
  expect(order?.amount).toBe(details.amountTotal);
  return details.amountTotal as number;
}

const PLANS: [string, PlanType, '/' | '/eu', number, number][] = [
  ['monthly', 'monthly', '/', 3600, 4700],
  ['quarterly', 'quarterly', '/', 7200, 14100],
  ['yearly', 'yearly', '/', 20400, 56400],
  ['EU monthly', 'monthly', '/eu', 2999, 2999],
  ['EU quarterly', 'quarterly', '/eu', 5999, 5999],
  ['lifetime', 'lifetime', '/eu', 54999, 54999],
];

describe('the amount charged', () => {
  it.each(PLANS)('%s while the sale runs: the sale price', async (_, planType, originPage, sale) => {
    expect(await charged(planType, originPage)).toBe(sale);
  });

  it.each(PLANS)('%s after the sale ended: the regular price', async (_, planType, originPage, __, regular) => {
    time.set(new Date(saleEndsAt.getTime() + 1000));
    expect(await charged(planType, originPage)).toBe(regular);
  });

  it('the site settings tell the browser the end and both prices', async () => {
    const settings = await (await t.request('/api/site')).json();
    expect(settings).toMatchObject({ saleEndsAt: saleEndsAt.toISOString(), saleLabel: 'Black Friday', prices: { monthly: 3600 }, regularPrices: { monthly: 4700, quarterly: 14100, yearly: 56400 } });
  });
});
