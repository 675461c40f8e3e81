import { describe, expect, it } from 'vitest';
import { landingCards, campaignOf, cardBilled, currentPrices } from './campaign';
import { addPlan, saveSale, type Catalogue, type Edit } from './catalogue';
import { ADVERTISED_PRICES, DEFAULT_REGULAR_PRICES, seedCatalogue } from './plans';
import { currencyProblem, formatListPrice, isPriceListPage, listSlugProblem, ownListCharge, ownListSale, parsePriceText, priceInputText, savePriceList } from './price-lists';

const SEED = seedCatalogue({ prices: ADVERTISED_PRICES, regularPrices: DEFAULT_REGULAR_PRICES, saleEndsAt: '2025-11-26T23:59:59.000Z', saleLabel: 'Black Friday' });
const DURING = new Date('2025-11-20T12:00:00Z');

function edited(edit: Edit): Catalogue {
  if ('problem' in edit) throw new Error(edit.problem);
  return edit.catalogue;
}
const problemOf = (edit: Edit) => ('problem' in edit ? edit.problem : null);

const partners = (catalogue: Catalogue = SEED) =>
  edited(savePriceList(catalogue, { slug: 'partners', currency: 'EUR', header: '  Partner prices, this month only  ', entries: [{ plan: 'monthly', price: 2900 }, { plan: 'lifetime', price: 49900 }] }, true));

describe("a vendor's price list at /{slug}", () => {
  it('is a page of the catalogue with its own currency, header and plans; the seed has none', () => {
    expect(isPriceListPage(SEED, '/partners')).toBe(false);
    const catalogue = partners();
    expect(isPriceListPage(catalogue, '/partners')).toBe(true);
    expect(isPriceListPage(catalogue, '/partners/')).toBe(true);
    expect(isPriceListPage(catalogue, '/partners/more')).toBe(false);
    // /eu stays the app's own route, the default list is /
    expect(isPriceListPage(catalogue, '/eu')).toBe(false);
    expect(isPriceListPage(catalogue, '/')).toBe(false);
    expect(catalogue.priceLists.at(-1)).toEqual({ slug: 'partners', currency: 'eur', header: 'Partner prices, this month only', countdown: false, entries: [{ plan: 'monthly', price: 2900 }, { plan: 'lifetime', price: 49900 }] });
  });

  it("shows only the plans it sells, in its currency, with no sale wording of the default page's sale", () => {
    const catalogue = partners();
    const campaign = campaignOf(catalogue, DURING);
    const cards = landingCards(campaign, '/partners', true);
    expect(cards.map((card) => [card.name, card.price, card.period, card.label ?? null])).toEqual([
      ['Monthly', '€29', '/month', null],
      ['Lifetime', '€499', 'one time', null],
    ]);
    // the default page and /eu are unchanged
    expect(landingCards(campaign, '/', true).map((card) => card.price)).toEqual(['$36', '$24', '$17']);
    expect(landingCards(campaign, '/eu', true).map((card) => card.price)).toEqual(['$29.99', '$59.99', '$549.99']);
  });

  it("charges its own price in its currency for a checkout from its page, the campaign's elsewhere", () => {
    const catalogue = partners();
    expect(ownListCharge(catalogue, 'monthly', '/partners', DURING)).toEqual({ amount: 2900, currency: 'eur' });
    expect(ownListCharge(catalogue, 'monthly', '/', DURING)).toBeNull();
    expect(ownListCharge(catalogue, 'monthly', '/eu', DURING)).toBeNull();
    expect(ownListCharge(catalogue, 'yearly', '/partners', DURING)).toBeNull();
  });

  it('shows and charges the sale price while a sale on its own list runs, the list price before and after', () => {
    const sale = { id: 'spring', label: 'Spring', startsAt: '2026-03-01T00:00:00.000Z', endsAt: '2026-03-08T00:00:00.000Z', countdown: true, list: 'partners', prices: [{ plan: 'monthly', price: 1900 }] };
    const catalogue = edited(saveSale(partners(), sale));
    const at = (iso: string) => new Date(iso);
    const cards = (now: Date) => landingCards(campaignOf(catalogue, now), '/partners', false, now).map((card) => [card.name, card.price, card.originalPrice ?? null, card.savings ?? null, card.label ?? null]);
    expect(cards(at('2026-02-28T23:59:59Z'))).toEqual([
      ['Monthly', '€29', null, null, null],
      ['Lifetime', '€499', '€1,699.99', 'Save 70%', null],
    ]);
    expect(cards(at('2026-03-04T00:00:00Z'))).toEqual([
      ['Monthly', '€19', '€29', 'Save 34%', 'Spring'],
      ['Lifetime', '€499', '€1,699.99', 'Save 70%', null],
    ]);
    expect(cards(at('2026-03-08T00:00:00Z'))[0]).toEqual(['Monthly', '€29', null, null, null]);
    expect(ownListCharge(catalogue, 'monthly', '/partners', at('2026-03-04T00:00:00Z'))).toEqual({ amount: 1900, currency: 'eur' });
    expect(ownListCharge(catalogue, 'monthly', '/partners', at('2026-03-08T00:00:00Z'))).toEqual({ amount: 2900, currency: 'eur' });
    expect(ownListSale(catalogue, catalogue.priceLists.at(-1)!, at('2026-03-04T00:00:00Z'))).toMatchObject({ id: 'spring', countdown: true });
    // the default page's cards and charges are not the vendor list's sale's
    expect(landingCards(campaignOf(catalogue, at('2026-03-04T00:00:00Z')), '/', false, at('2026-03-04T00:00:00Z')).map((card) => card.price)).toEqual(['$47', '$47', '$47']);
  });

  it('says what a longer period bills in its currency', () => {
    const catalogue = edited(savePriceList(SEED, { slug: 'partners', currency: 'gbp', header: null, entries: [{ plan: 'quarterly', price: 6000 }] }, true));
    const campaign = campaignOf(catalogue, DURING);
    const [card] = landingCards(campaign, '/partners', true);
    expect(card!.price).toBe('£20');
    expect(cardBilled(card!, '/partners', currentPrices(campaign, true), catalogue)).toBe('£60 billed every 3 months');
  });

  it('changes an existing list: its header, currency and plans', () => {
    const catalogue = edited(savePriceList(partners(), { slug: 'partners', currency: 'usd', header: '', entries: [{ plan: 'yearly', price: 19900 }] }, false));
    expect(catalogue.priceLists.find((list) => list.slug === 'partners')).toMatchObject({ currency: 'usd', header: null, entries: [{ plan: 'yearly', price: 19900 }] });
    // a plan added later can be sold on it
    const weekly = edited(addPlan(catalogue, { slug: 'weekly', name: 'Weekly', price: 1500, period: { unit: 'week', count: 1 }, list: 'partners' }));
    expect(landingCards(campaignOf(weekly, DURING), '/partners', true).map((card) => `${card.name} ${card.price}${card.period}`)).toEqual(['Yearly $16.58/month', 'Weekly $15/week']);
  });
});

describe('bad price lists: the reason, nothing changed', () => {
  const entries = [{ plan: 'monthly', price: 2900 }];
  it.each([
    ['eu', 'A price list at /eu exists already.'],
    ['admin', '/admin is a page of the shop already: choose another address.'],
    ['api', '/api is a page of the shop already: choose another address.'],
    ['auth', '/auth is a page of the shop already: choose another address.'],
    ['terms-of-service', '/terms-of-service is a page of the shop already: choose another address.'],
    ['default', '/default is a page of the shop already: choose another address.'],
    ['Partners', 'A price list\'s address is lower-case: use "partners".'],
    ['p', "A price list's address is 2 to 40 characters long; \"p\" has 1."],
    ['x'.repeat(41), `A price list's address is 2 to 40 characters long; "${'x'.repeat(41)}" has 41.`],
    ['-partners', '"-partners" is not a usable address: use lower-case letters, digits and hyphens (not first or last).'],
    ['part ners', '"part ners" is not a usable address: use lower-case letters, digits and hyphens (not first or last).'],
    ['part/ners', '"part/ners" is not a usable address: use lower-case letters, digits and hyphens (not first or last).'],
  ])('a new list at /%s', (slug, problem) => {
    expect(listSlugProblem(slug, SEED.priceLists.map((list) => list.slug))).toBe(problem);
    expect(problemOf(savePriceList(SEED, { slug, currency: 'usd', header: null, entries }, true))).toBe(problem);
  });

  it.each([
    ['euro', '"euro" is not a currency: use its three-letter ISO code, e.g. USD or EUR.'],
    ['xyz', 'XYZ is not a currency we know: use its three-letter ISO code, e.g. USD or EUR.'],
    ['', '"" is not a currency: use its three-letter ISO code, e.g. USD or EUR.'],
  ])('a list in currency %j', (currency, problem) => {
    expect(currencyProblem(currency)).toBe(problem);
    expect(problemOf(savePriceList(SEED, { slug: 'partners', currency, header: null, entries }, true))).toBe(problem);
  });

  it('refuses a list with no plan, an unknown or doubled plan, a bad price, a long header, an unknown list and another currency on the default page', () => {
    const save = (input: Partial<Parameters<typeof savePriceList>[1]>, isNew = true) => problemOf(savePriceList(SEED, { slug: 'partners', currency: 'usd', header: null, entries, ...input }, isNew));
    expect(save({ entries: [] })).toBe('A price list sells at least one plan.');
    expect(save({ entries: [{ plan: 'daily', price: 100 }] })).toBe('Unknown plan "daily".');
    expect(save({ entries: [...entries, ...entries] })).toBe('Monthly is on the list twice.');
    expect(save({ entries: [{ plan: 'monthly', price: 0 }] })).toBe('Monthly ($0): A price must be more than 0.');
    expect(save({ header: 'x'.repeat(201) })).toBe('The header is at most 200 characters.');
    expect(save({ slug: 'nowhere' }, false)).toBe('Unknown price list "nowhere".');
    expect(save({ slug: '/', currency: 'eur' }, false)).toBe("The default page charges in the shop's currency, USD.");
  });
});

describe('a price as the operator types it', () => {
  it.each([
    ['29', 'usd', 2900],
    ['29.00', 'usd', 2900],
    ['$29.00', 'usd', 2900],
    [' $ 29.5 ', 'usd', 2950],
    ['1,299.50', 'usd', 129950],
    ['USD 29', 'usd', 2900],
    ['€29', 'eur', 2900],
    ['29 €', 'eur', 2900],
    ['eur 29.99', 'eur', 2999],
    ['¥2900', 'jpy', 2900],
    ['£12', 'gbp', 1200],
  ])('%j in %s is %i', (text, currency, minor) => {
    expect(parsePriceText(text, currency)).toBe(minor);
  });

  it.each([
    ['', 'usd', 'Enter a price, e.g. 29 or 29.00.'],
    ['€29', 'usd', '"€29" is not in USD: this price list charges in USD (USD, $).'],
    ['GBP 29', 'eur', '"GBP 29" is not in EUR: this price list charges in EUR (EUR, €).'],
    ['twenty', 'usd', '"twenty" is not a price: write it as 29 or 29.00.'],
    ['29.999', 'usd', 'USD has 2 decimals at most: "29.999" has 3.'],
    ['29.5', 'jpy', 'JPY has no decimals: write 29.'],
    ['0', 'usd', 'A price must be more than 0.'],
    ['-5', 'usd', 'A price must be more than 0.'],
    ['1,000,000.01', 'usd', 'A price may be at most 1,000,000.00.'],
    ['1,00', 'usd', '"1,00" is not a price: write it as 29 or 29.00.'],
  ])('%j in %s: %s', (text, currency, problem) => {
    expect(parsePriceText(text, currency)).toBe(problem);
  });

  it('shows a stored price for editing in its currency', () => {
    expect(priceInputText(2900, 'usd')).toBe('29.00');
    expect(priceInputText(2900, 'jpy')).toBe('2900');
  });

  it('writes card prices in the list currency', () => {
    expect(formatListPrice(2999, 'usd')).toBe('$29.99');
    expect(formatListPrice(2900, 'eur')).toBe('€29');
    expect(formatListPrice(2950, 'eur')).toBe('€29.50');
    expect(formatListPrice(2900, 'jpy')).toBe('¥2,900');
  });
});
