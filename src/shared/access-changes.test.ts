import { describe, expect, it } from 'vitest';
import {
  accessChangeOf,
  CALLBACK_OF_KIND,
  entitlementOf,
  followsAccess,
  followsPlan,
  rowFacts,
  rowsEndingSoon,
  SAME_PLAN_KINDS,
  type AccessChange,
  type AccessChangeCause,
  type AccessChangeKind,
  type Entitlement,
  type EntitlementRow,
} from './access-changes';

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
  it('answers every lifecycle callback of a change of access with a sync of the member', async () => {
    const synced: string[] = [];
    const subscriber = followsAccess('tradingview', async (userId) => void synced.push(userId));
    const callbacks = [...new Set(Object.values(CALLBACK_OF_KIND))].filter((callback) => callback !== 'onAccessEnding');
    for (const callback of callbacks) await subscriber[callback]!({ userId: callback } as AccessChange);
    expect(synced).toEqual(callbacks);
  });

  it('leaves the notice that access ends soon alone: nothing changed to bring in line', () => {
    expect(followsAccess('tradingview', async () => undefined).onAccessEnding).toBeUndefined();
  });
});

describe('rowsEndingSoon: the canceled rows whose last three days began', () => {
  const IN_TWO_DAYS = new Date(NOW.getTime() + 2 * 24 * 60 * 60 * 1000);
  const IN_FOUR_DAYS = new Date(NOW.getTime() + 4 * 24 * 60 * 60 * 1000);
  it.each<[string, Partial<EntitlementRow>, boolean]>([
    ['canceled at period end, ending in two days', { cancelAtPeriodEnd: true, expiresAt: IN_TWO_DAYS }, true],
    ['canceled, ending in two days', { status: 'canceled', expiresAt: IN_TWO_DAYS }, true],
    ['comp access ending in two days', { provider: 'comp', status: 'canceled', cancelAtPeriodEnd: true, expiresAt: IN_TWO_DAYS }, true],
    ['canceled, ending in four days', { cancelAtPeriodEnd: true, expiresAt: IN_FOUR_DAYS }, false],
    ['renewing, ending in two days', { expiresAt: IN_TWO_DAYS }, false],
    ['canceled, already ended', { cancelAtPeriodEnd: true, expiresAt: PAST }, false],
    ['canceled, switched off', { cancelAtPeriodEnd: true, expiresAt: IN_TWO_DAYS, isActive: false }, false],
    ['a one-time plan, which never ends', { planType: 'lifetime', status: 'canceled', expiresAt: IN_TWO_DAYS }, false],
  ])('%s', (_name, overrides, ending) => {
    expect(rowsEndingSoon([row(overrides)], NOW)).toHaveLength(ending ? 1 : 0);
  });
});

describe('rowFacts: what a change records of its row', () => {
  it('names the row, whether it will renew, whether it is comp, and its period end', () => {
    expect(rowFacts({ ...row({ cancelAtPeriodEnd: true }), id: 'row-1' })).toEqual({ rowId: 'row-1', canceled: true, complimentary: false, periodEnd: SOON });
    expect(rowFacts({ ...row({ provider: 'comp', status: 'canceled' }), id: 'row-2' })).toEqual({ rowId: 'row-2', canceled: true, complimentary: true, periodEnd: SOON });
    expect(rowFacts({ ...row(), id: 'row-3' })).toMatchObject({ canceled: false });
    expect(rowFacts({ ...row({ planType: 'lifetime', expiresAt: null }), id: 'row-4' }).periodEnd).toBeNull();
  });
});

describe('followsPlan', () => {
  const samePlan: readonly AccessChangeKind[] = SAME_PLAN_KINDS;

  it('syncs the member on every change but those that keep their plan and access', async () => {
    const synced: string[] = [];
    const subscriber = followsPlan('discord', async (userId) => void synced.push(userId));
    const kinds = (Object.keys(CALLBACK_OF_KIND) as AccessChangeKind[]).filter((kind) => kind !== 'ending_soon');
    for (const kind of kinds) await subscriber[CALLBACK_OF_KIND[kind]]?.({ userId: kind } as AccessChange);
    expect(synced).toEqual(kinds.filter((kind) => !samePlan.includes(kind)));
    expect(synced).toEqual(expect.arrayContaining(['bought', 'plan_changed', 'ended', 'refunded', 'revoked', 'restored', 'comp_given', 'comp_taken']));
    expect(subscriber.onSubscriptionRenewed).toBeUndefined();
    expect(subscriber.onAccessEnding).toBeUndefined();
  });

  it('is left out only of changes named between two entitlements of one plan, both with access', () => {
    // every pair of a spread of entitlements, with every cause: what followsPlan skips never moves a plan or access
    const variants: (Entitlement | null)[] = [null];
    for (const planType of ['monthly', 'yearly', 'lifetime'] as const)
      for (const status of ['active', 'past_due', 'canceled'])
        for (const expiresAt of [SOON, LATER, null])
          for (const cancelAtPeriodEnd of [false, true]) for (const complimentary of [false, true]) variants.push(paid({ planType, status, expiresAt, cancelAtPeriodEnd, complimentary }));
    const causes: (AccessChangeCause | null)[] = [null, 'refunded', 'disputed', 'restored', 'comp_given', 'revoked'];
    let skipped = 0;
    for (const before of variants)
      for (const after of variants)
        for (const cause of causes) {
          const kind = accessChangeOf(before, after, cause);
          if (!kind || !samePlan.includes(kind)) continue;
          skipped += 1;
          expect(before && after && before.planType === after.planType && before.complimentary === after.complimentary).toBe(true);
        }
    expect(skipped).toBeGreaterThan(0);
  });
});
