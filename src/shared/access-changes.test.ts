import { describe, expect, it } from 'vitest';
import { accessChangeOf, CALLBACK_OF_KIND, entitlementOf, followsAccess, type AccessChange, type Entitlement, type EntitlementRow } from './access-changes';

const NOW = new Date('2026-06-15T12:00:00.000Z');
const SOON = new Date('2026-07-15T12:00:00.000Z');
const LATER = new Date('2026-08-15T12:00:00.000Z');
const PAST = new Date('2026-06-01T00:00:00.000Z');

const row = (overrides: Partial<EntitlementRow> = {}): EntitlementRow => ({
  planType: 'monthly',
  status: 'active',
  isActive: true,
  expiresAt: SOON,
  cancelAtPeriodEnd: false,
  provider: 'sandbox',
  ...overrides,
});

const paid = (overrides: Partial<Entitlement> = {}): Entitlement => ({ planType: 'monthly', status: 'active', expiresAt: SOON, cancelAtPeriodEnd: false, complimentary: false, ...overrides });

describe('entitlementOf', () => {
  it('is null without a row that grants access now', () => {
    expect(entitlementOf([], NOW)).toBeNull();
    expect(entitlementOf([row({ expiresAt: PAST }), row({ isActive: false })], NOW)).toBeNull();
  });

  it('is the row that lasts longest, lifetime before any expiry', () => {
    expect(entitlementOf([row(), row({ planType: 'yearly', expiresAt: LATER })], NOW)?.planType).toBe('yearly');
    expect(entitlementOf([row({ expiresAt: LATER }), row({ planType: 'lifetime', expiresAt: null })], NOW)?.planType).toBe('lifetime');
  });

  it('says whether the access is complimentary; a paid row wins a tie with comp', () => {
    expect(entitlementOf([row({ provider: 'comp' })], NOW)?.complimentary).toBe(true);
    expect(entitlementOf([row({ provider: 'comp' }), row()], NOW)?.complimentary).toBe(false);
  });
});

describe('accessChangeOf: the name of each change of a member’s entitlement', () => {
  const cases: [string, Entitlement | null, Entitlement | null, Parameters<typeof accessChangeOf>[2], ReturnType<typeof accessChangeOf>][] = [
    ['nothing before or after', null, null, null, null],
    ['a purchase', null, paid(), null, 'bought'],
    ['complimentary access given', null, paid({ complimentary: true }), 'comp_given', 'comp_given'],
    ['comp on top of a paid plan', paid(), paid(), 'comp_given', 'comp_given'],
    ['a paid plan bought while on comp', paid({ complimentary: true }), paid(), null, 'bought'],
    ['a dispute won gives access back', null, paid(), 'restored', 'restored'],
    ['a renewal moves the expiry on', paid(), paid({ expiresAt: LATER }), null, 'renewed'],
    ['a plan change', paid(), paid({ planType: 'yearly', expiresAt: LATER }), null, 'plan_changed'],
    ['a renewal that failed', paid(), paid({ status: 'past_due' }), null, 'past_due'],
    ['a past-due plan paid at last', paid({ status: 'past_due' }), paid({ expiresAt: LATER }), null, 'renewed'],
    ['canceled at period end', paid(), paid({ cancelAtPeriodEnd: true }), null, 'canceled'],
    ['canceled, still paid up', paid(), paid({ status: 'canceled' }), null, 'canceled'],
    ['a cancellation taken back', paid({ cancelAtPeriodEnd: true }), paid(), null, 'resumed'],
    ['access ran out', paid(), null, null, 'ended'],
    ['a refund', paid(), null, 'refunded', 'refunded'],
    ['a dispute', paid(), null, 'disputed', 'disputed'],
    ['an operator revokes a paid plan', paid(), null, 'revoked', 'revoked'],
    ['an operator revokes comp', paid({ complimentary: true }), null, 'revoked', 'comp_taken'],
    ['comp ran out', paid({ complimentary: true }), null, null, 'ended'],
    ['the same snapshot again', paid(), paid(), null, null],
    ['an older expiry read late changes nothing a member would notice', paid({ expiresAt: LATER }), paid(), null, null],
  ];
  it.each(cases)('%s', (_name, before, after, cause, kind) => {
    expect(accessChangeOf(before, after, cause)).toBe(kind);
  });
});

describe('followsAccess', () => {
  it('answers every lifecycle callback with a sync of the member', async () => {
    const synced: string[] = [];
    const subscriber = followsAccess('tradingview', async (userId) => void synced.push(userId));
    const callbacks = [...new Set(Object.values(CALLBACK_OF_KIND))];
    for (const callback of callbacks) await subscriber[callback]!({ userId: callback } as AccessChange);
    expect(synced).toEqual(callbacks);
  });
});
