import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES, countryName, EU_VAT_RATES, formatRate, isCountryCode, taxFor, vatRate } from './vat';

describe('the EU VAT table', () => {
  it('has the 27 member states, each a known country with a standard rate between 17 % and 27 %', () => {
    const states = Object.keys(EU_VAT_RATES);
    expect(states).toHaveLength(27);
    for (const state of states) {
      expect(isCountryCode(state)).toBe(true);
      expect(vatRate(state)).toBeGreaterThanOrEqual(1700);
      expect(vatRate(state)).toBeLessThanOrEqual(2700);
    }
  });

  it.each([
    ['DE', 1900],
    ['FR', 2000],
    ['FI', 2550],
    ['HU', 2700],
    ['LU', 1700],
  ])('%s charges %i basis points', (country, rate) => expect(vatRate(country)).toBe(rate));

  it.each(['US', 'GB', 'CH', 'NO', 'CA'])('%s is outside the EU: no VAT', (country) => expect(vatRate(country)).toBe(0));

  it('knows every assigned ISO code once, and refuses what is not one', () => {
    expect(new Set(COUNTRY_CODES).size).toBe(COUNTRY_CODES.length);
    expect(COUNTRY_CODES.length).toBe(249);
    for (const bad of ['XX', 'us', 'USA', '', 'EU', 42, null]) expect(isCountryCode(bad)).toBe(false);
  });
});

describe('taxFor', () => {
  it('exclusive prices add VAT on top', () => {
    expect(taxFor(3600, 'DE', 'exclusive')).toEqual({ rate: 1900, subtotal: 3600, tax: 684, total: 4284 });
    expect(taxFor(54999, 'FR', 'exclusive')).toEqual({ rate: 2000, subtotal: 54999, tax: 11000, total: 65999 });
  });

  it('inclusive prices hold VAT: the total stays the price and VAT is its part above price / (1 + rate)', () => {
    expect(taxFor(3600, 'DE', 'inclusive')).toEqual({ rate: 1900, subtotal: 3025, tax: 575, total: 3600 });
    expect(taxFor(2999, 'FI', 'inclusive')).toEqual({ rate: 2550, subtotal: 2390, tax: 609, total: 2999 });
  });

  it('rounds half a cent up, as Stripe does', () => {
    // 1 050 × 19 % = 199.5
    expect(taxFor(1050, 'DE', 'exclusive').tax).toBe(200);
  });

  it.each([
    ['US', 'exclusive'],
    ['US', 'inclusive'],
    [null, 'exclusive'],
  ] as const)('no VAT for %s (%s): the total is the price', (country, behavior) => {
    expect(taxFor(3600, country, behavior)).toEqual({ rate: 0, subtotal: 3600, tax: 0, total: 3600 });
  });

  it('credits and free amounts carry no tax', () => {
    expect(taxFor(-500, 'DE', 'exclusive')).toEqual({ rate: 1900, subtotal: -500, tax: 0, total: -500 });
    expect(taxFor(0, 'DE', 'inclusive').tax).toBe(0);
  });
});

describe('display', () => {
  it('formats rates as buyers read them', () => {
    expect(formatRate(2000)).toBe('20%');
    expect(formatRate(2550)).toBe('25.5%');
  });

  it('names countries in English', () => {
    expect(countryName('DE')).toBe('Germany');
    expect(countryName('US')).toBe('United States');
  });
});
