import { describe, expect, it } from 'vitest';
import { ACCESS_CHANGE_KINDS, type AccessChangeKind } from './access-changes';
import { accessChangeLabel, lastDayOf, type AccessHistoryChange } from './access-history';

const change = (kind: AccessChangeKind, overrides: Partial<AccessHistoryChange> = {}): AccessHistoryChange => ({
  kind,
  planType: 'monthly',
  previousPlanType: null,
  expiresAt: '2026-03-01T14:30:00.000Z',
  ...overrides,
});

describe('accessChangeLabel', () => {
  it.each<[AccessHistoryChange, string]>([
    [change('bought', { planType: 'quarterly' }), 'Bought Quarterly'],
    [change('bought', { planType: 'lifetime', expiresAt: null }), 'Bought Lifetime'],
    [change('renewed'), 'Renewed (access until Mar 1, 2026)'],
    [change('plan_changed', { previousPlanType: 'monthly', planType: 'quarterly' }), 'Plan changed: Monthly → Quarterly'],
    [change('plan_changed', { planType: 'yearly' }), 'Plan changed to Yearly'],
    [change('past_due'), 'Payment failed (past due)'],
    [change('canceled'), 'Canceled (access until Mar 1, 2026)'],
    [change('canceled', { expiresAt: null }), 'Canceled'],
    [change('resumed'), 'Cancellation undone'],
    [change('ended'), 'Ended'],
    [change('refunded'), 'Refunded'],
    [change('disputed'), 'Payment disputed'],
    [change('restored'), 'Access restored'],
    // comp access "until Mar 1" ends at the next midnight (UTC): the label shows the day it covers
    [change('comp_given', { expiresAt: new Date('2026-03-02T00:00:00.000Z') }), 'Complimentary access given (until Mar 1, 2026)'],
    [change('comp_taken'), 'Complimentary access taken away'],
    [change('revoked'), 'Access revoked by an operator'],
    [change('ending_soon'), 'Ending soon (access until Mar 1, 2026)'],
  ])('%o → %s', (input, label) => {
    expect(accessChangeLabel(input)).toBe(label);
  });

  it('names EU plans as buyers see them (plans.ts display names)', () => {
    expect(accessChangeLabel(change('plan_changed', { previousPlanType: 'euMonthly', planType: 'euQuarterly' }))).toBe('Plan changed: Monthly → Quarterly');
  });

  it('has a label for every kind', () => {
    for (const kind of ACCESS_CHANGE_KINDS) expect(accessChangeLabel(change(kind))).toMatch(/\w/);
  });

  it('writes days with the formatter given', () => {
    expect(accessChangeLabel(change('canceled'), (at) => at.toISOString().slice(0, 10))).toBe('Canceled (access until 2026-03-01)');
  });
});

describe('lastDayOf', () => {
  it('is the day of the last instant of access', () => {
    expect(lastDayOf('2026-03-02T00:00:00.000Z')).toBe('Mar 1, 2026');
    expect(lastDayOf('2026-03-02T00:00:00.001Z')).toBe('Mar 2, 2026');
  });
});
