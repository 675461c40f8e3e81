import { describe, expect, it } from 'vitest';
import { isEuLocation, landingKind, landingPagePath } from './landing-page';
import { seedCatalogue } from './plans';
import { savePriceList } from './price-lists';

describe('landingKind', () => {
  it.each([
    ['/', '', 'default'],
    ['/', '?utm_source=ad', 'default'],
    ['/eu', '', 'eu'],
    ['/eu', '?utm_source=ad', 'eu'],
    ['/', '?from=eu', 'eu'],
    ['/disclaimer', '?from=eu', null],
    ['/dashboard', '', null],
    ['/eu/x', '', null],
  ] as const)('%s%s → %s', (pathname, search, expected) => {
    expect(landingKind(pathname, search)).toBe(expected);
  });

  it('isEuLocation keeps from=eu on every page', () => {
    expect(isEuLocation('/contact', '?from=eu')).toBe(true);
    expect(isEuLocation('/contact', '')).toBe(false);
  });
});

describe('landingPagePath', () => {
  const edit = savePriceList(seedCatalogue(), { slug: 'partners', currency: 'eur', header: null, entries: [{ plan: 'monthly', price: 2900 }] }, true);
  const catalogue = 'catalogue' in edit ? edit.catalogue : undefined;

  it.each([
    ['/', '', '/'],
    ['/', '?from=eu', '/eu'],
    ['/eu', '', '/eu'],
    ['/partners', '', '/partners'],
    ['/partners/', '?utm_source=ad', '/partners'],
    ['/partnerz', '', null],
    ['/dashboard', '', null],
  ] as const)('%s%s → %s', (pathname, search, expected) => {
    expect(landingPagePath(pathname, search, catalogue)).toBe(expected);
  });

  it('knows no vendor list without a catalogue', () => {
    expect(landingPagePath('/partners', '', undefined)).toBeNull();
  });
});
