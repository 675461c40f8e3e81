import { describe, expect, it } from 'vitest';
import { DEFAULT_REGULAR_PRICES, DEFAULT_SALE_LABEL } from './campaign';
import { archivePlan, type Catalogue, type Edit } from './catalogue';
import { boughtOnList, chargedPrice, planChangeList, planChangePrice, priceLookupKey, sameBilling, wantedPrices } from './catalogue-publishing';
import { ADVERTISED_PRICES, seedCatalogue } from './plans';
import { savePriceList } from './price-lists';

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

  it('a plan change charges the plan on the list the member bought on, in their currency; else the first list selling it in that currency', () => {
    const lists = edited(savePriceList(SEED, { slug: 'partners', currency: 'eur', header: null, entries: [{ plan: 'monthly', price: 2900 }, { plan: 'quarterly', price: 6000 }] }, true));
    const partner = { list: 'partners', currency: 'eur' };
    expect(planChangePrice(lists, 'quarterly', partner, AFTER, 'exclusive')).toMatchObject({ list: 'partners', amount: 6000, currency: 'eur' });
    // no list sells Yearly in euros
    expect(planChangePrice(lists, 'yearly', partner, AFTER, 'exclusive')).toBeNull();
    // the default page's members: its sale price while it runs, its price after
    expect(planChangePrice(lists, 'quarterly', { list: '/', currency: 'usd' }, DURING, 'exclusive')).toMatchObject({ list: '/', amount: ADVERTISED_PRICES.quarterly });
    expect(planChangePrice(lists, 'quarterly', { list: null, currency: 'usd' }, AFTER, 'exclusive')).toMatchObject({ list: '/', amount: DEFAULT_REGULAR_PRICES.quarterly });
    // a list that does not sell the plan: the first one selling it in the member's currency
    expect(planChangePrice(lists, 'euQuarterly', { list: 'partners', currency: 'usd' }, AFTER, 'exclusive')).toMatchObject({ list: 'eu', currency: 'usd' });
  });

  it("a subscription was bought on the list its price names, else on the first list selling its plan in its currency", () => {
    const lists = edited(savePriceList(SEED, { slug: 'vip', currency: 'usd', header: null, entries: [{ plan: 'monthly', price: 3000 }] }, true));
    expect(boughtOnList(lists, 'monthly', { list: 'vip', currency: 'usd' })?.slug).toBe('vip');
    expect(boughtOnList(lists, 'monthly', { list: null, currency: 'usd' })?.slug).toBe('/');
    expect(boughtOnList(lists, 'monthly', { list: 'gone', currency: 'usd' })?.slug).toBe('/');
    expect(boughtOnList(lists, 'monthly', { list: null, currency: 'eur' })).toBeNull();
  });

  it("the plan-change card shows the list a change charges from: the member's own in their currency, else the default page's or their plan's in it", () => {
    const lists = edited(savePriceList(SEED, { slug: 'partners', currency: 'eur', header: null, entries: [{ plan: 'monthly', price: 2900 }, { plan: 'quarterly', price: 6000 }] }, true));
    const slug = (plan: string | null, bought: Parameters<typeof planChangeList>[2]) => planChangeList(lists, plan, bought)?.slug;
    expect(slug('monthly', { list: 'partners', currency: 'eur' })).toBe('partners');
    // their list sells no longer the plan they hold: still their list, whose prices a change charges
    expect(slug('yearly', { list: 'partners', currency: 'eur' })).toBe('partners');
    // a list whose currency is not the one they are billed in is not theirs to change on
    expect(slug('monthly', { list: 'partners', currency: 'usd' })).toBe('/');
    expect(slug('monthly', { list: 'gone', currency: 'eur' })).toBe('partners');
    expect(slug('euMonthly', { list: 'eu', currency: 'usd' })).toBe('eu');
    // no list named (a configured price, an import): the EU variants their list, others the default page
    expect(slug('euMonthly', { list: null, currency: 'usd' })).toBe('eu');
    expect(slug('lifetime', { list: null, currency: 'usd' })).toBe('/');
    expect(slug('quarterly', { list: null, currency: 'eur' })).toBe('partners');
    // no subscription: the default page
    expect(slug(null, null)).toBe('/');
    expect(slug('monthly', null)).toBe('/');
  });

  it('a year and twelve months bill the same; a week is not seven days', () => {
    expect(sameBilling({ unit: 'month', count: 12 }, { unit: 'year', count: 1 })).toBe(true);
    expect(sameBilling({ unit: 'day', count: 7 }, { unit: 'week', count: 1 })).toBe(false);
    expect(sameBilling(null, null)).toBe(true);
  });
});
