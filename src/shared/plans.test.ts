import { describe, expect, it } from 'vitest';
import {
  ADVERTISED_PRICES,
  DEFAULT_CARDS,
  EU_CARDS,
  FALLBACK_PRICES,
  PLAN_FEATURES,
  PLAN_TYPES,
  addMonthsUtc,
  applyPriceOverrides,
  basePlan,
  checkoutCategory,
  formatCardPrice,
  PLAN_CURRENCY,
  formatMoney,
  isPlanType,
  isEuPlan,
  isRecurring,
  neverExpires,
  perPlan,
  planDisplayName,
  planPeriodEnd,
  planPeriodInterval,
  savingsLabel,
  toEuPlan,
} from './plans';
import type { PlanType } from './plans';

describe('plan types', () => {
  it('lists the six plan types in order', () => {
    expect(PLAN_TYPES).toEqual(['monthly', 'quarterly', 'yearly', 'lifetime', 'euMonthly', 'euQuarterly']);
  });

  it.each([
    ['monthly', true],
    ['euQuarterly', true],
    ['Monthly', false],
    ['weekly', false],
    ['', false],
    [null, false],
    [3, false],
  ])('isPlanType(%j) → %s', (value, expected) => {
    expect(isPlanType(value)).toBe(expected);
  });

  it.each<[PlanType, string, boolean, { months: number } | null, PlanType, string]>([
    ['monthly', 'Monthly', true, { months: 1 }, 'monthly', 'subscription'],
    ['quarterly', 'Quarterly', true, { months: 3 }, 'quarterly', 'subscription'],
    ['yearly', 'Yearly', true, { months: 12 }, 'yearly', 'subscription'],
    ['lifetime', 'Lifetime', false, null, 'lifetime', 'one-time'],
    ['euMonthly', 'Monthly', true, { months: 1 }, 'monthly', 'subscription'],
    ['euQuarterly', 'Quarterly', true, { months: 3 }, 'quarterly', 'subscription'],
  ])('%s: name %s, recurring %s, interval %j, base %s, category %s', (plan, name, recurring, interval, base, category) => {
    expect(planDisplayName(plan)).toBe(name);
    expect(isRecurring(plan)).toBe(recurring);
    expect(planPeriodInterval(plan)).toEqual(interval);
    expect(basePlan(plan)).toBe(base);
    expect(checkoutCategory(plan)).toBe(category);
  });
});

describe('plan rules', () => {
  it('lifetime is the one plan that never expires; every other plan recurs', () => {
    expect(PLAN_TYPES.filter(neverExpires)).toEqual(['lifetime']);
    expect(PLAN_TYPES.filter(isRecurring)).toEqual(['monthly', 'quarterly', 'yearly', 'euMonthly', 'euQuarterly']);
  });

  it.each(PLAN_TYPES)('%s recurs exactly when it has a billing period', (plan) => {
    expect(isRecurring(plan)).toBe(planPeriodInterval(plan) !== null);
    expect(neverExpires(plan)).toBe(!isRecurring(plan));
  });

  it('the EU variants are euMonthly and euQuarterly, each bought from the EU page for its base plan', () => {
    const euPlans = PLAN_TYPES.filter(isEuPlan);
    expect(euPlans).toEqual(['euMonthly', 'euQuarterly']);
    for (const plan of euPlans) {
      expect(toEuPlan(basePlan(plan), '/eu')).toBe(plan);
      expect(planPeriodInterval(plan)).toEqual(planPeriodInterval(basePlan(plan)));
    }
  });

  it('perPlan maps each plan it is given, and only those', () => {
    expect(perPlan(['monthly', 'lifetime'], planDisplayName)).toEqual({ monthly: 'Monthly', lifetime: 'Lifetime' });
    expect(Object.keys(perPlan(PLAN_TYPES, isRecurring))).toEqual([...PLAN_TYPES]);
  });
});

describe('toEuPlan', () => {
  it.each<[PlanType, string, PlanType]>([
    ['monthly', '/eu', 'euMonthly'],
    ['quarterly', '/eu', 'euQuarterly'],
    ['yearly', '/eu', 'yearly'],
    ['lifetime', '/eu', 'lifetime'],
    ['euMonthly', '/eu', 'euMonthly'],
    ['monthly', '/', 'monthly'],
    ['quarterly', '/', 'quarterly'],
    ['monthly', '/eu/', 'monthly'],
    ['monthly', '', 'monthly'],
  ])('toEuPlan(%s, %j) → %s', (plan, origin, expected) => {
    expect(toEuPlan(plan, origin)).toBe(expected);
  });
});

describe('prices', () => {
  it.each<[PlanType, number, number]>([
    ['monthly', 4999, 3600],
    ['quarterly', 8999, 7200],
    ['yearly', 20400, 20400],
    ['lifetime', 54999, 54999],
    ['euMonthly', 2999, 2999],
    ['euQuarterly', 5999, 5999],
  ])('%s: fallback %i, advertised %i', (plan, fallback, advertised) => {
    expect(FALLBACK_PRICES[plan]).toBe(fallback);
    expect(ADVERTISED_PRICES[plan]).toBe(advertised);
  });

  it.each([
    [4999, 'usd', '$49.99'],
    [4999, 'USD', '$49.99'],
    [54999, 'usd', '$549.99'],
    [169999, 'usd', '$1,699.99'],
    [3600, 'usd', '$36.00'],
    [0, 'usd', '$0.00'],
    [5, 'usd', '$0.05'],
    [2999, 'eur', '€29.99'],
    [500, 'jpy', '¥500'],
  ])('formatMoney(%i, %s) → %s', (minor, currency, expected) => {
    expect(formatMoney(minor, currency)).toBe(expected);
  });

  it.each([
    [3600, '$36'],
    [2999, '$29.99'],
    [169999, '$1,699.99'],
    [8997, '$89.97'],
  ])('formatCardPrice(%i) → %s', (minor, expected) => {
    expect(formatCardPrice(minor)).toBe(expected);
  });

  it('formatCardPrice writes what Intl writes for the plans\' currency', () => {
    const intl = (minor: number) =>
      new Intl.NumberFormat('en-US', { style: 'currency', currency: PLAN_CURRENCY, ...(minor % 100 === 0 ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {}) }).format(minor / 100);
    for (const minor of [0, 5, 99, 100, 3600, 2999, 8997, 99_999, 100_000, 169_999, 123_456_789, 100_000_000]) expect(formatCardPrice(minor)).toBe(intl(minor));
  });

  it.each([
    [3600, 4700, 'Save 23%'],
    [2400, 4700, 'Save 49%'],
    [1700, 4700, 'Save 64%'],
    [5999, 8997, 'Save 33%'],
    [4700, 4700, undefined],
    [5000, 4700, undefined],
  ])('savingsLabel(%i, %i) → %s', (price, original, expected) => {
    expect(savingsLabel(price, original)).toBe(expected);
  });
});

describe('billing periods', () => {
  it.each<[PlanType, string, string | null]>([
    ['monthly', '2025-01-15T10:00:00.000Z', '2025-02-15T10:00:00.000Z'],
    ['monthly', '2025-01-31T00:00:00.000Z', '2025-02-28T00:00:00.000Z'],
    ['monthly', '2024-01-31T00:00:00.000Z', '2024-02-29T00:00:00.000Z'],
    ['euMonthly', '2025-12-31T23:59:59.000Z', '2026-01-31T23:59:59.000Z'],
    ['quarterly', '2025-11-30T00:00:00.000Z', '2026-02-28T00:00:00.000Z'],
    ['euQuarterly', '2025-03-31T00:00:00.000Z', '2025-06-30T00:00:00.000Z'],
    ['yearly', '2024-02-29T00:00:00.000Z', '2025-02-28T00:00:00.000Z'],
    ['lifetime', '2025-01-01T00:00:00.000Z', null],
  ])('%s starting %s ends %s', (plan, start, end) => {
    expect(planPeriodEnd(plan, new Date(start))?.toISOString() ?? null).toBe(end);
  });

  it('does not mutate its input', () => {
    const start = new Date('2025-01-31T00:00:00.000Z');
    addMonthsUtc(start, 1);
    expect(start.toISOString()).toBe('2025-01-31T00:00:00.000Z');
  });
});

describe('cards', () => {
  it('lists the seven features of the pricing cards in order', () => {
    expect(PLAN_FEATURES).toEqual([
      'Premium Indicators',
      'Community Access',
      'Strategies & Update Guides',
      'Active Product Updates',
      'Trading Setups & Ideas',
      '24/7 Support',
      'VIP Discord',
    ]);
  });

  it.each([
    [0, 'Monthly', 'monthly', '$36', '/month', '$47', 'Save 23%', false, 'Black Friday'],
    [1, 'Quarterly', 'quarterly', '$24', '/month', '$47', 'Save 49%', true, 'Black Friday'],
    [2, 'Yearly', 'yearly', '$17', '/month', '$47', 'Save 64%', false, 'Black Friday'],
  ])('default card %i: %s %s %s%s was %s, %s, popular %s, %s', (i, name, planType, price, period, original, savings, popular, label) => {
    const card = DEFAULT_CARDS[i]!;
    expect(card).toMatchObject({ name, planType, price, period, originalPrice: original, savings, isPopular: popular, label });
    expect(card.buttonText).toBeUndefined();
    expect(card.features).toEqual(PLAN_FEATURES);
  });

  it.each([
    [0, 'Monthly', 'monthly', '$29.99', '/Month', undefined, undefined, false],
    [1, 'Quarterly', 'quarterly', '$59.99', 'per 3 months', '$89.97', 'Save 33%', true],
    [2, 'Lifetime', 'lifetime', '$549.99', 'one time', '$1,699.99', 'Save 70%', false],
  ])('EU card %i: %s %s %s %s was %s, %s, popular %s', (i, name, planType, price, period, original, savings, popular) => {
    const card = EU_CARDS[i]!;
    expect(card).toMatchObject({ name, planType, price, period, isPopular: popular });
    expect(card.originalPrice).toBe(original);
    expect(card.savings).toBe(savings);
    expect(card.label).toBeUndefined();
    expect(card.features).toEqual(PLAN_FEATURES);
  });

  it.each([
    ['/eu', { euMonthly: 3499 }, 0, '$34.99', undefined],
    ['/eu', { euQuarterly: 4999 }, 1, '$49.99', 'Save 44%'],
    ['/eu', { lifetime: 49999 }, 2, '$499.99', 'Save 71%'],
    ['/eu', { ...ADVERTISED_PRICES }, 0, '$29.99', undefined],
  ] as const)('on %s override %j re-prices card %i to %s (%s)', (origin, overrides, index, price, savings) => {
    const cards = applyPriceOverrides(EU_CARDS, overrides, origin);
    expect(cards[index]!.price).toBe(price);
    expect(cards[index]!.savings).toBe(savings);
    cards.forEach((card, i) => {
      if (i !== index) expect(card).toEqual(EU_CARDS[i]);
    });
  });

  it('an EU override does not touch the default page, where monthly is not euMonthly', () => {
    expect(applyPriceOverrides(DEFAULT_CARDS, { euMonthly: 1000 }, '/')).toEqual(DEFAULT_CARDS);
  });
});
