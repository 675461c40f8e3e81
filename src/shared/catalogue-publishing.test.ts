import { describe, expect, it } from 'vitest';
import { DEFAULT_REGULAR_PRICES, DEFAULT_SALE_LABEL } from './campaign';
import { archivePlan, type Catalogue, type Edit } from './catalogue';
import { chargedPrice, priceLookupKey, sameBilling, wantedPrices } from './catalogue-publishing';
import { ADVERTISED_PRICES, seedCatalogue } from './plans';

const SEED = seedCatalogue({ prices: ADVERTISED_PRICES, regularPrices: DEFAULT_REGULAR_PRICES, saleEndsAt: '2025-11-26T23:59:59.000Z', saleLabel: DEFAULT_SALE_LABEL });
const DURING = new Date('2025-11-20T12:00:00Z');
const AFTER = new Date('2025-12-01T12:00:00Z');

function edited(edit: Edit): Catalogue {
  if ('problem' in edit) throw new Error(edit.problem);
  return edit.catalogue;
}

describe('the Prices the catalogue sells at Stripe', () => {
  it('a lookup key holds everything a Price charges', () => {
    expect(priceLookupKey({ plan: 'weekly', list: '/', amount: 1500, currency: 'usd', period: { unit: 'week', count: 1 }, taxBehavior: 'exclusive' })).toBe('cw_default_weekly_1500_usd_1week_exclusive');
    expect(priceLookupKey({ plan: 'lifetime', list: 'eu', amount: 54999, currency: 'usd', period: null, taxBehavior: 'inclusive' })).toBe('cw_eu_lifetime_54999_usd_once_inclusive');
  });

  it("are each list's prices and each sale's, once each; an archived plan's are gone", () => {
    const keys = wantedPrices(SEED, 'exclusive').map((price) => `${price.plan}@${price.list}:${price.amount}`);
    expect(keys).toEqual(expect.arrayContaining(['monthly@/:4700', 'monthly@/:3600', 'euMonthly@eu:2999', 'lifetime@eu:54999']));
    expect(new Set(keys).size).toBe(keys.length);
    expect(wantedPrices(edited(archivePlan(SEED, 'yearly')), 'exclusive').some((price) => price.plan === 'yearly')).toBe(false);
  });

  it("a checkout charges its page's list, the running sale's price while it runs, the list's after", () => {
    expect(chargedPrice(SEED, 'monthly', '/', DURING, 'exclusive')).toMatchObject({ list: '/', amount: ADVERTISED_PRICES.monthly });
    expect(chargedPrice(SEED, 'monthly', '/', AFTER, 'exclusive')).toMatchObject({ list: '/', amount: DEFAULT_REGULAR_PRICES.monthly });
    // a plan its page does not sell is charged at its first list
    expect(chargedPrice(SEED, 'euMonthly', '/', AFTER, 'exclusive')).toMatchObject({ list: 'eu', amount: ADVERTISED_PRICES.euMonthly });
    expect(chargedPrice(SEED, 'nope', '/', AFTER, 'exclusive')).toBeNull();
  });

  it('a year and twelve months bill the same; a week is not seven days', () => {
    expect(sameBilling({ unit: 'month', count: 12 }, { unit: 'year', count: 1 })).toBe(true);
    expect(sameBilling({ unit: 'day', count: 7 }, { unit: 'week', count: 1 })).toBe(false);
    expect(sameBilling(null, null)).toBe(true);
  });
});
