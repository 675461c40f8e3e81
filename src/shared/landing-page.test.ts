import { describe, expect, it } from 'vitest';
import { isEuLocation, landingKind } from './landing-page';

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
