import { describe, expect, it } from 'vitest';
import { subscriptionViewDtoSchema } from './api-contract';
import { FALLBACK_PRICES } from './plans';
import {
  EMPTY_SUBSCRIPTION_VIEW,
  activeSubscriptionRows,
  buildSubscriptionDto,
  buildSubscriptionView,
  formatDisplayDate,
  isListedActive,
  latestPlanForPremiumRequired,
  needsForcedSync,
  recentSubscriptionRows,
  selectSubscriptionRow,
  subscriptionLabel,
  subscriptionPeriodRow,
  subscriptionViewFromDto,
} from './subscription-view';
import type { OrderSummary, SubscriptionViewRow } from './subscription-view';

const NOW = new Date('2025-06-15T12:00:00.000Z');
const day = (n: number) => new Date(Date.UTC(2025, 5, n, 12));

type TestRow = SubscriptionViewRow & { id: string };

function row(id: string, overrides: Partial<TestRow> = {}): TestRow {
  return {
    id,
    planType: 'monthly',
    status: 'active',
    isActive: true,
    expiresAt: day(30),
    cancelAtPeriodEnd: false,
    createdAt: day(1),
    updatedAt: day(1),
    tradingviewUsername: 'trader_1',
    ...overrides,
  };
}

const ids = (rows: readonly TestRow[]) => rows.map((r) => r.id);

describe('isListedActive', () => {
  it.each<[Partial<TestRow>, boolean]>([
    [{}, true],
    [{ status: 'trialing' }, true],
    [{ status: 'canceled' }, true],
    [{ status: 'past_due' }, false],
    [{ status: 'incomplete' }, false],
    [{ isActive: false }, false],
    [{ isActive: false, status: 'canceled' }, false],
  ])('%j → %s', (overrides, expected) => {
    expect(isListedActive(row('x', overrides))).toBe(expected);
  });
});

describe('subscription fetch ordering', () => {
  it.each<[string, TestRow[], string[]]>([
    [
      'cancel_at_period_end first, then updated_at desc',
      [
        row('a', { updatedAt: day(5) }),
        row('b', { cancelAtPeriodEnd: true, updatedAt: day(2) }),
        row('c', { updatedAt: day(9) }),
      ],
      ['b', 'c', 'a'],
    ],
    [
      'created_at breaks updated_at ties',
      [
        row('a', { updatedAt: day(5), createdAt: day(1) }),
        row('b', { updatedAt: day(5), createdAt: day(3) }),
        row('c', { updatedAt: day(5), createdAt: day(2) }),
      ],
      ['b', 'c', 'a'],
    ],
    [
      'inactive and non-listed statuses are left out',
      [row('a', { isActive: false }), row('b', { status: 'past_due' }), row('c', { status: 'canceled' })],
      ['c'],
    ],
    [
      'at most 5',
      [1, 2, 3, 4, 5, 6, 7].map((n) => row(`r${n}`, { updatedAt: day(n) })),
      ['r7', 'r6', 'r5', 'r4', 'r3'],
    ],
  ])('active rows: %s', (_name, rows, expected) => {
    expect(ids(activeSubscriptionRows(rows))).toEqual(expected);
  });

  it('recent rows: 10 newest by created_at of any kind', () => {
    const rows = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((n) =>
      row(`r${n}`, { createdAt: day(n), isActive: n % 2 === 0 }),
    );
    expect(ids(recentSubscriptionRows(rows))).toEqual(['r12', 'r11', 'r10', 'r9', 'r8', 'r7', 'r6', 'r5', 'r4', 'r3']);
  });

  it.each<[string, TestRow[], TestRow[] | undefined, string | null]>([
    ['no rows', [], [], null],
    ['active row wins over a newer inactive one', [row('old', { createdAt: day(1) }), row('new', { createdAt: day(9), isActive: false })], undefined, 'old'],
    ['falls back to the newest row of any kind', [row('a', { isActive: false, createdAt: day(2) }), row('b', { isActive: false, createdAt: day(4) })], undefined, 'b'],
    ['pending cancellation outranks a more recently updated active row', [row('live', { updatedAt: day(10) }), row('leaving', { cancelAtPeriodEnd: true, updatedAt: day(3) })], undefined, 'leaving'],
    ['separate lists: empty active list uses the all-rows list', [], [row('x', { isActive: false })], 'x'],
    ['separate lists: active list is re-filtered', [row('inactive', { isActive: false })], [row('y', { isActive: false })], 'y'],
  ])('selectSubscriptionRow: %s', (_name, active, all, expected) => {
    expect(selectSubscriptionRow(active, all)?.id ?? null).toBe(expected);
  });

  it.each<[string, TestRow | null, boolean]>([
    ['no row', null, false],
    ['active monthly without expiry', row('a', { expiresAt: null }), true],
    ['active monthly with expiry', row('a'), false],
    ['active lifetime without expiry', row('a', { planType: 'lifetime', expiresAt: null }), false],
    ['inactive monthly without expiry', row('a', { isActive: false, expiresAt: null }), false],
  ])('needsForcedSync: %s → %s', (_name, r, expected) => {
    expect(needsForcedSync(r)).toBe(expected);
  });
});

describe('buildSubscriptionView', () => {
  const order: OrderSummary = { amount: 3600, currency: 'USD', createdAt: day(2) };

  it('is empty without a row', () => {
    expect(buildSubscriptionView(null, order, NOW)).toEqual(EMPTY_SUBSCRIPTION_VIEW);
  });

  it.each<[string, Partial<TestRow>, OrderSummary | null, Record<string, unknown>]>([
    ['order present', {}, order, { amount: 3600, currency: 'usd', purchaseDate: day(2), isActive: true, isCanceled: false }],
    ['order missing: list price and row date', {}, null, { amount: 4999, currency: 'usd', purchaseDate: day(1) }],
    ['order without price', { planType: 'quarterly' }, { amount: null, currency: 'eur', createdAt: day(3) }, { amount: 8999, currency: 'usd', purchaseDate: day(3) }],
    ['order without currency', {}, { amount: 2999, currency: null, createdAt: day(3) }, { amount: 2999, currency: 'usd' }],
    ['euMonthly fallback', { planType: 'euMonthly' }, null, { amount: 2999, planType: 'euMonthly' }],
    ['lifetime fallback', { planType: 'lifetime', expiresAt: null }, null, { amount: 54999, isActive: true }],
    ['yearly fallback', { planType: 'yearly' }, null, { amount: 20400 }],
    ['canceled keeps access until expiry', { cancelAtPeriodEnd: true }, order, { isActive: true, isCanceled: true, expiresAt: day(30) }],
    ['expired', { expiresAt: day(14) }, order, { isActive: false, isCanceled: false, status: 'active' }],
    ['status canceled', { status: 'canceled' }, order, { isCanceled: true }],
    ['username carried', { tradingviewUsername: 'SomeOne' }, order, { tradingviewUsername: 'SomeOne', isLoading: false, error: null }],
    // regression (#46): a converted trial, or a repeat trial charged at once, showed the trial checkout's $0.00
    ['a free trial checkout: the plan price', {}, { amount: 0, currency: 'usd', createdAt: day(2), amountDiscount: 0 }, { amount: 4999, currency: 'usd', purchaseDate: day(2) }],
    ['a trial checkout while trialing: the plan price', { status: 'trialing', planType: 'yearly' }, { amount: 0, currency: 'usd', createdAt: day(2) }, { amount: 20400 }],
    ['a free first payment by a promotion code stays $0.00', {}, { amount: 0, currency: 'usd', createdAt: day(2), amountDiscount: 3600 }, { amount: 0 }],
    ['a $0.00 lifetime order stays $0.00', { planType: 'lifetime', expiresAt: null }, { amount: 0, currency: 'usd', createdAt: day(2) }, { amount: 0 }],
  ])('%s', (_name, overrides, o, expected) => {
    expect(buildSubscriptionView(row('a', overrides), o, NOW)).toMatchObject(expected);
  });

  it('uses overridden list prices', () => {
    expect(buildSubscriptionView(row('a'), null, NOW, { ...FALLBACK_PRICES, monthly: 1234 }).amount).toBe(1234);
  });
});

describe('subscription DTO', () => {
  it.each<[string, TestRow[], OrderSummary | null, Record<string, unknown>]>([
    ['no history', [], null, { planType: null, isActive: false, canCancel: false, latestPlanType: null, amount: null, expiresAt: null }],
    [
      'active monthly',
      [row('a')],
      { amount: 3600, currency: 'usd', createdAt: day(2) },
      { planType: 'monthly', isActive: true, canCancel: true, latestPlanType: 'monthly', amount: 3600, expiresAt: '2025-06-30T12:00:00.000Z', purchaseDate: '2025-06-02T12:00:00.000Z' },
    ],
    [
      'lapsed quarterly, newer lapsed yearly is the latest plan',
      [row('q', { planType: 'quarterly', isActive: false, createdAt: day(1) }), row('y', { planType: 'yearly', isActive: false, createdAt: day(5) })],
      null,
      { planType: 'yearly', isActive: false, canCancel: true, latestPlanType: 'yearly' },
    ],
    ['lifetime cannot be canceled', [row('l', { planType: 'lifetime', expiresAt: null })], null, { canCancel: false, isActive: true, expiresAt: null }],
  ])('%s', (_name, rows, order, expected) => {
    const dto = buildSubscriptionDto({ rows, order, now: NOW });
    expect(dto).toMatchObject(expected);
    expect(subscriptionViewDtoSchema.safeParse(dto).success).toBe(true);
  });

  // #43: an import has no checkout here, and no paid order before its first renewal here
  it("names where it was bought: its checkout's page and its newest order's currency, else what the import recorded of its price", () => {
    const bought = (overrides: Partial<SubscriptionViewRow>) => buildSubscriptionDto({ rows: [{ ...row('a'), ...overrides }], order: null, now: NOW }).boughtOn;
    expect(bought({ originPage: '/eu', priceCurrency: 'USD' })).toEqual({ list: 'eu', currency: 'usd' });
    expect(bought({ boughtOnList: 'club', boughtOnCurrency: 'GBP' })).toEqual({ list: 'club', currency: 'gbp' });
    // a renewal paid here since: its order's currency, the same one
    expect(bought({ boughtOnList: 'club', boughtOnCurrency: 'gbp', priceCurrency: 'gbp' })).toEqual({ list: 'club', currency: 'gbp' });
    // nothing recorded (comp access, an import before this was kept): no list, the view's currency
    expect(bought({})).toEqual({ list: null, currency: 'usd' });
  });

  it('round-trips through JSON back to the view', () => {
    const r = row('a', { cancelAtPeriodEnd: true });
    const order = { amount: 7200, currency: 'usd', createdAt: day(2) };
    const dto = JSON.parse(JSON.stringify(buildSubscriptionDto({ rows: [r], order, now: NOW })));
    expect(subscriptionViewFromDto(subscriptionViewDtoSchema.parse(dto))).toEqual(buildSubscriptionView(r, order, NOW));
  });
});

describe('labels and dates', () => {
  it.each([
    ['2025-11-26T23:59:59.000Z', 'UTC', 'November 26, 2025'],
    ['2025-11-26T23:59:59.000Z', 'Asia/Tokyo', 'November 27, 2025'],
    ['2026-01-05T00:00:00.000Z', 'UTC', 'January 5, 2026'],
  ])('formatDisplayDate(%s, %s) → %s', (iso, tz, expected) => {
    expect(formatDisplayDate(new Date(iso), tz)).toBe(expected);
  });

  it.each<[string, { isActive: boolean; isCanceled: boolean; expiresAt: Date | null }, unknown]>([
    ['canceled with expiry', { isActive: true, isCanceled: true, expiresAt: new Date('2025-07-15T12:00:00Z') }, { label: 'Pending Cancellation', accessUntil: 'Access until July 15, 2025', dot: 'grey' }],
    ['canceled without expiry', { isActive: true, isCanceled: true, expiresAt: null }, { label: 'Pending Cancellation', dot: 'grey' }],
    ['active', { isActive: true, isCanceled: false, expiresAt: new Date('2025-07-15T12:00:00Z') }, { label: 'Active', dot: 'green' }],
    ['inactive, not canceled', { isActive: false, isCanceled: false, expiresAt: null }, { label: 'Pending Cancellation', dot: 'grey' }],
    ['inactive and canceled', { isActive: false, isCanceled: true, expiresAt: new Date('2025-06-01T00:00:00Z') }, { label: 'Pending Cancellation', accessUntil: 'Access until June 1, 2025', dot: 'grey' }],
  ])('subscriptionLabel: %s', (_name, view, expected) => {
    expect(subscriptionLabel(view, 'UTC')).toEqual(expected);
  });
});

describe('latestPlanForPremiumRequired', () => {
  it.each<[string, TestRow[], string]>([
    ['empty defaults to lifetime', [], 'lifetime'],
    ['newest created wins', [row('a', { planType: 'monthly', createdAt: day(1) }), row('b', { planType: 'quarterly', createdAt: day(3) }), row('c', { planType: 'yearly', createdAt: day(2) })], 'quarterly'],
    ['ignores updated_at', [row('a', { planType: 'euMonthly', createdAt: day(4), updatedAt: day(4) }), row('b', { planType: 'yearly', createdAt: day(2), updatedAt: day(9) })], 'euMonthly'],
  ])('%s', (_name, rows, expected) => {
    expect(latestPlanForPremiumRequired(rows)).toBe(expected);
  });
});

// Regression: the Subscription card showed no renewal date, nor the end date once canceled.
describe('subscriptionPeriodRow', () => {
  const JULY = new Date('2025-07-15T12:00:00.000Z');
  it.each([
    ['no plan', { planType: null, isActive: false, isCanceled: false, expiresAt: null }, null],
    ['active monthly renews', { planType: 'monthly', isActive: true, isCanceled: false, expiresAt: JULY }, { label: 'Renews On', value: 'July 15, 2025' }],
    ['active EU quarterly renews', { planType: 'euQuarterly', isActive: true, isCanceled: false, expiresAt: JULY }, { label: 'Renews On', value: 'July 15, 2025' }],
    ['canceled, access until the period end', { planType: 'yearly', isActive: true, isCanceled: true, expiresAt: JULY }, { label: 'Ends On', value: 'July 15, 2025' }],
    ['lapsed after the period end', { planType: 'monthly', isActive: false, isCanceled: true, expiresAt: JULY }, { label: 'Ended On', value: 'July 15, 2025' }],
    ['lapsed without cancellation (payment failed)', { planType: 'quarterly', isActive: false, isCanceled: false, expiresAt: JULY }, { label: 'Ended On', value: 'July 15, 2025' }],
    ['recurring plan with no known period end', { planType: 'monthly', isActive: true, isCanceled: false, expiresAt: null }, null],
    ['lifetime never renews', { planType: 'lifetime', isActive: true, isCanceled: false, expiresAt: null }, { label: 'Renewal', value: 'None – lifetime access' }],
  ] as const)('%s', (_name, view, expected) => {
    expect(subscriptionPeriodRow(view, 'UTC')).toEqual(expected);
  });
});
