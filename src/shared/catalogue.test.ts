import { afterEach, describe, expect, it } from 'vitest';
import { campaignOf, cardBilled, currentPrices, DEFAULT_REGULAR_PRICES, DEFAULT_SALE_LABEL, isSaleRunning, landingCards, type Campaign } from './campaign';
import {
  addPeriod,
  addPlan,
  archivePlan,
  billingPeriodWords,
  billedEveryText,
  catalogueProblem,
  parseEvery,
  perMonthAmount,
  saveSale,
  setActiveCatalogue,
  setPrice,
  stripeRecurring,
  type Catalogue,
  type Edit,
  type Sale,
} from './catalogue';
import { ADVERTISED_PRICES, DEFAULT_CARDS, EU_CARDS, isPlanType, isRecurring, planPeriodEnd, seedCatalogue, toEuPlan } from './plans';
import { planTypeSchema } from './api-contract';

const SPEC: Campaign = { saleEndsAt: '2025-11-26T23:59:59.000Z', saleLabel: DEFAULT_SALE_LABEL, prices: ADVERTISED_PRICES, regularPrices: DEFAULT_REGULAR_PRICES };
const SEED = seedCatalogue({ prices: ADVERTISED_PRICES, regularPrices: DEFAULT_REGULAR_PRICES, saleEndsAt: SPEC.saleEndsAt, saleLabel: DEFAULT_SALE_LABEL });
const DURING = new Date('2025-11-20T12:00:00Z');
const AFTER = new Date('2025-12-01T12:00:00Z');

function edited(edit: Edit): Catalogue {
  if ('problem' in edit) throw new Error(edit.problem);
  return edit.catalogue;
}

const problemOf = (edit: Edit) => ('problem' in edit ? edit.problem : null);

afterEach(() => setActiveCatalogue(null));

describe('the period arithmetic, one place for every period', () => {
  it.each([
    [{ unit: 'week', count: 1 } as const, 'Billed every week'],
    [{ unit: 'week', count: 2 } as const, 'Billed every 2 weeks'],
    [{ unit: 'day', count: 10 } as const, 'Billed every 10 days'],
    [{ unit: 'month', count: 1 } as const, 'Billed every month'],
    [{ unit: 'month', count: 3 } as const, 'Billed every 3 months'],
    [{ unit: 'year', count: 1 } as const, 'Billed every year'],
    [null, 'One-time payment'],
  ])("says how a member's plan is billed: %o → %s", (period, text) => {
    expect(billedEveryText(period)).toBe(text);
  });

  it.each([
    [{ unit: 'day', count: 14 } as const, '2026-01-31T10:00:00.000Z', '2026-02-14T10:00:00.000Z'],
    [{ unit: 'week', count: 1 } as const, '2026-01-31T10:00:00.000Z', '2026-02-07T10:00:00.000Z'],
    [{ unit: 'month', count: 1 } as const, '2026-01-31T10:00:00.000Z', '2026-02-28T10:00:00.000Z'],
    [{ unit: 'month', count: 3 } as const, '2026-01-15T10:00:00.000Z', '2026-04-15T10:00:00.000Z'],
    [{ unit: 'year', count: 1 } as const, '2024-02-29T10:00:00.000Z', '2025-02-28T10:00:00.000Z'],
  ])('addPeriod(%j) from %s → %s', (period, start, end) => {
    expect(addPeriod(new Date(start), period).toISOString()).toBe(end);
  });

  it('per-month equivalents and Stripe recurring', () => {
    expect(perMonthAmount(7200, { unit: 'month', count: 3 })).toBe(2400);
    expect(perMonthAmount(20400, { unit: 'year', count: 1 })).toBe(1700);
    expect(perMonthAmount(54999, null)).toBe(54999);
    expect(stripeRecurring({ unit: 'week', count: 2 })).toEqual({ interval: 'week', interval_count: 2 });
    expect(billingPeriodWords({ unit: 'week', count: 1 })).toBe('per week');
    expect(billingPeriodWords({ unit: 'month', count: 3 })).toBe('every 3 months');
  });

  it.each([
    ['1w', { unit: 'week', count: 1 }],
    ['3m', { unit: 'month', count: 3 }],
    ['14d', { unit: 'day', count: 14 }],
    ['1y', { unit: 'year', count: 1 }],
    ['1x', 'Unknown period unit "x": use d, w, m or y.'],
    ['0w', 'The period count must be at least 1.'],
    ['weekly', '--every must be a count and a unit (d, w, m or y), e.g. 1w or 3m; got "weekly".'],
  ])('--every %s', (text, expected) => {
    expect(parseEvery(text)).toEqual(expected);
  });
});

describe("the seed's catalogue is today's shop", () => {
  it('passes every rule', () => {
    expect(catalogueProblem(SEED)).toBeNull();
  });

  it('lays out the spec cards during the sale, the EU cards always, and the regular prices after', () => {
    const during = campaignOf(SEED, DURING);
    expect(isSaleRunning(during, DURING)).toBe(true);
    expect(landingCards(during, '/', true)).toEqual(DEFAULT_CARDS);
    expect(landingCards(during, '/eu', true)).toEqual(EU_CARDS);
    const after = campaignOf(SEED, AFTER);
    expect(isSaleRunning(after, AFTER)).toBe(false);
    expect(landingCards(after, '/', false)).toEqual(landingCards(SPEC, '/', false));
    expect(landingCards(after, '/', false).map((card) => card.price)).toEqual(['$47', '$47', '$47']);
  });

  it('charges what today charges, during and after the sale', () => {
    expect(currentPrices(campaignOf(SEED, DURING), true)).toEqual(expect.objectContaining(currentPrices(SPEC, true)));
    expect(currentPrices(campaignOf(SEED, AFTER), false)).toEqual(expect.objectContaining(currentPrices(SPEC, false)));
  });

  it('keeps the EU variants', () => {
    setActiveCatalogue(SEED);
    expect(toEuPlan('monthly', '/eu')).toBe('euMonthly');
    expect(toEuPlan('lifetime', '/eu')).toBe('lifetime');
    expect(isRecurring('lifetime')).toBe(false);
  });
});

describe('a weekly plan at $15, added as data', () => {
  const weekly = edited(addPlan(SEED, { slug: 'weekly', name: 'Weekly', price: 1500, period: { unit: 'week', count: 1 } }));

  it('is a plan of the catalogue: validated at the edge, a week long, on the default page after the others', () => {
    setActiveCatalogue(weekly);
    expect(isPlanType('weekly')).toBe(true);
    expect(planTypeSchema.safeParse('weekly').success).toBe(true);
    expect(planPeriodEnd('weekly', new Date('2026-03-01T00:00:00Z'))?.toISOString()).toBe('2026-03-08T00:00:00.000Z');
    const campaign = campaignOf(weekly, AFTER);
    const cards = landingCards(campaign, '/', false);
    expect(cards.map((card) => [card.name, card.price, card.period])).toEqual([
      ['Monthly', '$47', '/month'],
      ['Quarterly', '$47', '/month'],
      ['Yearly', '$47', '/month'],
      ['Weekly', '$15', '/week'],
    ]);
    expect(currentPrices(campaign, false).weekly).toBe(1500);
    expect(landingCards(campaign, '/eu', false).map((card) => card.name)).toEqual(['Monthly', 'Quarterly', 'Lifetime']);
  });

  it('an unknown plan stays refused at the edge', () => {
    setActiveCatalogue(SEED);
    expect(planTypeSchema.safeParse('weekly').success).toBe(false);
  });

  it('set-price monthly 4000: shown and charged when no sale runs; the sale price while it runs', () => {
    const repriced = edited(setPrice(weekly, 'monthly', 4000));
    expect(landingCards(campaignOf(repriced, AFTER), '/', false)[0]).toMatchObject({ name: 'Monthly', price: '$40' });
    expect(currentPrices(campaignOf(repriced, AFTER), false).monthly).toBe(4000);
    expect(currentPrices(campaignOf(repriced, DURING), true).monthly).toBe(3600);
  });

  it('"$72 billed every 3 months" under a per-month price', () => {
    const during = campaignOf(SEED, DURING);
    const after = campaignOf(SEED, AFTER);
    expect(cardBilled({ planType: 'quarterly' }, '/', currentPrices(during, true), SEED)).toBe('$72 billed every 3 months');
    expect(cardBilled({ planType: 'yearly' }, '/', currentPrices(during, true), SEED)).toBe('$204 billed every year');
    expect(cardBilled({ planType: 'quarterly' }, '/', currentPrices(after, false), SEED)).toBe('$141 billed every 3 months');
    expect(cardBilled({ planType: 'monthly' }, '/', currentPrices(after, false), SEED)).toBeUndefined();
    expect(cardBilled({ planType: 'quarterly' }, '/eu', currentPrices(after, false), SEED)).toBeUndefined();
  });
});

describe('bad input: the reason, nothing changed', () => {
  const week = { unit: 'week', count: 1 } as const;
  it.each([
    ['a price of 0', { slug: 'weekly', name: 'Weekly', price: 0, period: week }, 'A price must be more than 0.'],
    ['a negative price', { slug: 'weekly', name: 'Weekly', price: -5, period: week }, 'A price must be more than 0.'],
    ['a price over 1,000,000.00', { slug: 'weekly', name: 'Weekly', price: 100_000_001, period: week }, 'A price may be at most 1,000,000.00.'],
    ['an unknown unit', { slug: 'weekly', name: 'Weekly', price: 1500, period: { unit: 'fortnight', count: 1 } }, 'Unknown period unit "fortnight": use day, week, month or year.'],
    ['a count of 0', { slug: 'weekly', name: 'Weekly', price: 1500, period: { unit: 'week', count: 0 } }, 'The period count must be a whole number of at least 1.'],
    ['a slug that exists', { slug: 'monthly', name: 'Monthly', price: 1500, period: week }, 'A plan "monthly" exists already.'],
    ['a slug that is not URL-safe', { slug: 'week ly', name: 'Weekly', price: 1500, period: week }, expect.stringContaining('is not URL-safe')],
  ])('%s', (_, input, reason) => {
    expect(problemOf(addPlan(SEED, input as never))).toEqual(reason);
  });

  it('archiving the last visible plan', () => {
    let catalogue = SEED;
    for (const plan of SEED.plans.slice(0, -1)) catalogue = edited(archivePlan(catalogue, plan.slug));
    expect(problemOf(archivePlan(catalogue, SEED.plans.at(-1)!.slug))).toBe('At least one plan must stay visible: archiving the last one would leave nothing to buy.');
  });

  it('an archived plan stays a plan (members hold it) but leaves the cards', () => {
    const archived = edited(archivePlan(SEED, 'yearly'));
    setActiveCatalogue(archived);
    expect(isPlanType('yearly')).toBe(true);
    expect(landingCards(campaignOf(archived, AFTER), '/', false).map((card) => card.name)).toEqual(['Monthly', 'Quarterly']);
  });

  const sale = (id: string, startsAt: string, endsAt: string): Sale => ({ id, label: id, startsAt, endsAt, countdown: true, list: '/', prices: [{ plan: 'monthly', price: 3000 }] });
  it('a sale whose end is before its start', () => {
    expect(problemOf(saveSale(SEED, sale('cyber', '2026-12-02T00:00:00Z', '2026-12-01T00:00:00Z')))).toBe('Sale cyber ends before it starts.');
  });

  it('two overlapping sales on one list; back to back is fine', () => {
    const one = edited(saveSale({ ...SEED, sales: [] }, sale('bf', '2026-11-27T00:00:00Z', '2026-11-30T00:00:00Z')));
    expect(problemOf(saveSale(one, sale('cyber', '2026-11-29T00:00:00Z', '2026-12-02T00:00:00Z')))).toBe('Sales bf and cyber overlap on /: at most one runs on a list at a time.');
    const two = edited(saveSale(one, sale('cyber', '2026-11-30T00:00:00Z', '2026-12-02T00:00:00Z')));
    const campaign = campaignOf(two, new Date('2026-12-01T00:00:00Z'));
    expect(campaign.saleLabel).toBe('cyber');
    expect(landingCards(campaign, '/', true)[0]).toMatchObject({ price: '$30', originalPrice: '$47', label: 'cyber', savings: 'Save 36%' });
  });

  it('set-price on an unknown list or plan', () => {
    expect(problemOf(setPrice(SEED, 'monthly', 4000, 'de'))).toBe('Unknown price list "de" (lists: /, eu).');
    expect(problemOf(setPrice(SEED, 'weekly', 4000))).toBe('Unknown plan "weekly".');
  });
});
