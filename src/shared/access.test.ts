import { describe, expect, it } from 'vitest';
import { canCancel, grantsAccess, hasPremiumAccess, isCanceled, isCurrentlyActive } from './access';
import type { SubscriptionRow } from './access';

const NOW = new Date('2025-06-15T12:00:00.000Z');
const PAST = new Date('2025-06-15T11:59:59.999Z');
const FUTURE = new Date('2025-07-15T12:00:00.000Z');

function row(overrides: Partial<SubscriptionRow> = {}): SubscriptionRow {
  return {
    planType: 'monthly',
    status: 'active',
    isActive: true,
    expiresAt: FUTURE,
    cancelAtPeriodEnd: false,
    createdAt: new Date('2025-05-15T12:00:00.000Z'),
    updatedAt: new Date('2025-05-15T12:00:00.000Z'),
    ...overrides,
  };
}

describe('grantsAccess', () => {
  it.each<[string, Partial<SubscriptionRow>, boolean]>([
    ['active monthly with future expiry', {}, true],
    ['active monthly with no expiry', { expiresAt: null }, true],
    ['active monthly expired a millisecond ago', { expiresAt: PAST }, false],
    ['active monthly expiring exactly now', { expiresAt: NOW }, false],
    ['inactive monthly with future expiry', { isActive: false }, false],
    ['canceled quarterly before expiry', { planType: 'quarterly', status: 'canceled', cancelAtPeriodEnd: true }, true],
    ['canceled yearly after expiry', { planType: 'yearly', status: 'canceled', expiresAt: PAST }, false],
    ['active lifetime with past expiry', { planType: 'lifetime', expiresAt: PAST }, true],
    ['active lifetime with no expiry', { planType: 'lifetime', expiresAt: null }, true],
    ['inactive lifetime', { planType: 'lifetime', isActive: false, expiresAt: null }, false],
    ['active euMonthly expired', { planType: 'euMonthly', expiresAt: PAST }, false],
    ['past_due euQuarterly still flagged active', { planType: 'euQuarterly', status: 'past_due' }, true],
  ])('%s → %s', (_name, overrides, expected) => {
    expect(grantsAccess(row(overrides), NOW)).toBe(expected);
  });
});

describe('cancellation', () => {
  it.each<[string, Partial<SubscriptionRow>, boolean, boolean, boolean]>([
    // name, row, isCanceled, isCurrentlyActive, canCancel
    ['active monthly', {}, false, true, true],
    ['trialing quarterly', { planType: 'quarterly', status: 'trialing' }, false, true, true],
    ['cancel at period end', { cancelAtPeriodEnd: true }, true, false, false],
    ['status canceled', { status: 'canceled' }, true, false, false],
    ['active lifetime', { planType: 'lifetime', expiresAt: null }, false, true, false],
    ['expired active monthly', { expiresAt: PAST }, false, false, true],
    ['inactive monthly', { isActive: false }, false, false, true],
    ['past_due monthly', { status: 'past_due' }, false, true, false],
    ['incomplete yearly', { planType: 'yearly', status: 'incomplete' }, false, true, false],
  ])('%s: canceled %s, currently active %s, can cancel %s', (_name, overrides, canceled, current, cancellable) => {
    const r = row(overrides);
    expect(isCanceled(r)).toBe(canceled);
    expect(isCurrentlyActive(r, NOW)).toBe(current);
    expect(canCancel(r)).toBe(cancellable);
  });
});

describe('hasPremiumAccess', () => {
  it.each<[string, Partial<SubscriptionRow>[], boolean]>([
    ['no rows', [], false],
    ['one expired row', [{ expiresAt: PAST }], false],
    ['expired and inactive rows', [{ expiresAt: PAST }, { isActive: false }], false],
    ['an expired row and a live one', [{ expiresAt: PAST }, {}], true],
    ['an inactive lifetime and a canceled-but-unexpired monthly', [{ planType: 'lifetime', isActive: false }, { cancelAtPeriodEnd: true }], true],
  ])('%s → %s', (_name, rows, expected) => {
    expect(hasPremiumAccess(rows.map(row), NOW)).toBe(expected);
  });
});
