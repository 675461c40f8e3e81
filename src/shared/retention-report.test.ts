import { describe, expect, it } from 'vitest';
import { addMonths, churnKind, monthsBetween, mrrMovement, percent, reportRange, retentionReport, type RetentionSnapshot } from './retention-report';

const NOW = new Date('2026-11-29T04:00:00Z');

describe('reportRange', () => {
  it.each([
    [{}, { from: '2025-12', to: '2026-11' }],
    [{ to: '2026-06' }, { from: '2025-07', to: '2026-06' }],
    [{ from: '2026-01', to: '2026-03' }, { from: '2026-01', to: '2026-03' }],
    [{ from: '2024-12' }, { from: '2024-12', to: '2026-11' }],
    [{ to: '2025-01' }, { from: '2024-12', to: '2025-01' }],
  ])('reads %j as %j', (query, expected) => {
    expect(reportRange(query, NOW)).toEqual(expected);
  });

  it.each([
    [{ to: '2026-12' }, 'The range cannot end after the current month (2026-11).'],
    [{ from: '2026-05', to: '2026-04' }, 'The range starts (2026-05) after it ends (2026-04).'],
    [{ from: '2024-11' }, 'The range reaches back at most 24 months: start at 2024-12 or later.'],
  ])('refuses %j: %s', (query, error) => {
    expect(reportRange(query, NOW)).toEqual({ error });
  });
});

describe('months', () => {
  it.each([
    ['2026-01', -1, '2025-12'],
    ['2026-11', 2, '2027-01'],
    ['2026-03', 0, '2026-03'],
  ])('%s plus %i months is %s', (month, count, expected) => {
    expect(addMonths(month, count)).toBe(expected);
  });

  it('lists the months of a range, both ends included', () => {
    expect(monthsBetween('2025-11', '2026-02')).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
  });
});

describe('churnKind', () => {
  const row = { status: 'canceled', cancelAtPeriodEnd: false, revokedReason: null, canceledByMember: false };
  it.each([
    [{ ...row, cancelAtPeriodEnd: true }, 'voluntary'],
    [{ ...row, canceledByMember: true }, 'voluntary'],
    [{ ...row, status: 'active' }, 'voluntary'],
    [row, 'involuntary'],
    [{ ...row, status: 'past_due' }, 'involuntary'],
    [{ ...row, status: 'unpaid' }, 'involuntary'],
    [{ ...row, revokedReason: 'refunded', cancelAtPeriodEnd: true }, 'reversed'],
    [{ ...row, revokedReason: 'disputed' }, 'reversed'],
    [{ ...row, revokedReason: 'operator' }, 'operator'],
    [{ ...row, revokedReason: 'banned' }, 'operator'],
  ] as const)('%j ended as %s', (ended, kind) => {
    expect(churnKind(ended)).toBe(kind);
  });
});

describe('mrrMovement', () => {
  it.each([
    [0, 2900, false, { kind: 'new', amount: 2900 }],
    [0, 2900, true, { kind: 'reactivation', amount: 2900 }],
    [2900, 0, true, { kind: 'churn', amount: -2900 }],
    [2900, 3300, true, { kind: 'expansion', amount: 400 }],
    [3300, 2900, true, { kind: 'contraction', amount: -400 }],
    [2900, 2900, true, null],
    [0, 0, false, null],
  ] as const)('%i → %i (paid before: %s) is %j', (before, after, paidBefore, expected) => {
    expect(mrrMovement(before, after, paidBefore)).toEqual(expected);
  });
});

describe('percent', () => {
  it.each([
    [1, 3, 33.3],
    [2, 3, 66.7],
    [0, 5, 0],
    [5, 0, null],
  ])('%i of %i is %j %', (part, whole, expected) => {
    expect(percent(part, whole)).toBe(expected);
  });
});

describe('retentionReport', () => {
  const snapshot: RetentionSnapshot = {
    version: 1,
    computedAt: NOW.toISOString(),
    firstMonth: '2024-12',
    cohortSizes: [
      { cohort: '2026-08', members: 4 },
      { cohort: '2026-10', members: 2 },
      { cohort: '2025-01', members: 9 },
    ],
    cohorts: [
      { cohort: '2026-08', after: 2, eligible: 4, retained: 2 },
      { cohort: '2026-08', after: 1, eligible: 4, retained: 3 },
      { cohort: '2026-08', after: 3, eligible: 3, retained: 1 },
      { cohort: '2026-10', after: 1, eligible: 1, retained: 1 },
    ],
    churned: [
      { month: '2026-10', status: 'canceled', cancelAtPeriodEnd: true, revokedReason: null, canceledByMember: true, members: 2 },
      { month: '2026-10', status: 'canceled', cancelAtPeriodEnd: false, revokedReason: null, canceledByMember: false, members: 1 },
      { month: '2026-10', status: 'active', cancelAtPeriodEnd: false, revokedReason: 'refunded', canceledByMember: false, members: 1 },
      { month: '2026-09', status: 'past_due', cancelAtPeriodEnd: false, revokedReason: null, canceledByMember: false, members: 3 },
    ],
    payingAtStart: [
      { month: '2026-10', members: 20 },
      { month: '2026-09', members: 0 },
    ],
    mrr: [
      { month: '2026-10', currency: 'usd', before: 0, after: 2900, paidBefore: false, members: 2 },
      { month: '2026-10', currency: 'usd', before: 0, after: 2900, paidBefore: true, members: 1 },
      { month: '2026-10', currency: 'usd', before: 2900, after: 0, paidBefore: true, members: 1 },
      { month: '2026-10', currency: 'usd', before: 2900, after: 3300, paidBefore: true, members: 1 },
      { month: '2026-10', currency: 'usd', before: 2900, after: 2900, paidBefore: true, members: 5 },
      { month: '2026-10', currency: 'eur', before: 0, after: 1999, paidBefore: false, members: 1 },
    ],
    cancellations: [
      { month: '2026-10', reason: 'not_trading', outcome: 'pause', count: 2 },
      { month: '2026-10', reason: 'not_trading', outcome: 'declined', count: 1 },
      { month: '2026-11', reason: 'too_expensive', outcome: 'discount', count: 1 },
      { month: '2025-05', reason: 'other', outcome: 'declined', count: 7 },
    ],
    lifetimeValue: [
      { plan: 'yearly', currency: 'usd', members: 2, revenue: 59800 },
      { plan: 'monthly', currency: 'usd', members: 3, revenue: 17400 },
    ],
    trials: [
      { month: '2026-10', outcome: 'converted', count: 3 },
      { month: '2026-10', outcome: 'canceled', count: 1 },
    ],
    orders: [
      { month: '2026-10', status: 'paid', currency: 'usd', count: 17, amount: 49300 },
      { month: '2026-10', status: 'refunded', currency: 'usd', count: 2, amount: 5800 },
      { month: '2026-10', status: 'disputed', currency: 'eur', count: 1, amount: 1999 },
    ],
    promotions: [
      { month: '2026-09', code: 'SPRING', currency: 'usd', orders: 1, revenue: 1450, discount: 1450 },
      { month: '2026-10', code: 'SPRING', currency: 'usd', orders: 2, revenue: 2900, discount: 2900 },
      { month: '2026-10', code: 'BIG', currency: 'usd', orders: 1, revenue: 9000, discount: 1000 },
      { month: '2025-01', code: 'OLD', currency: 'usd', orders: 1, revenue: 100, discount: 1 },
    ],
    affiliates: [{ month: '2026-10', code: 'alice', currency: 'usd', orders: 2, revenue: 5800 }],
  };
  const report = retentionReport(snapshot, { from: '2026-09', to: '2026-11' });

  it('keeps the cohorts of the range that have members, their months after in order with shares', () => {
    expect(report.cohorts).toEqual([
      {
        cohort: '2026-10',
        members: 2,
        after: [{ after: 1, eligible: 1, retained: 1, share: 100 }],
      },
    ]);
    expect(retentionReport(snapshot, { from: '2026-08', to: '2026-08' }).cohorts[0]!.after.map((cell) => [cell.after, cell.share])).toEqual([
      [1, 75],
      [2, 50],
      [3, 33.3],
    ]);
  });

  it('splits churn by kind per month, with the rate of those paying at the start', () => {
    expect(report.churn).toEqual([
      { month: '2026-09', payingAtStart: 0, voluntary: 0, involuntary: 3, reversed: 0, operator: 0, rate: null },
      { month: '2026-10', payingAtStart: 20, voluntary: 2, involuntary: 1, reversed: 1, operator: 0, rate: 20 },
      { month: '2026-11', payingAtStart: 0, voluntary: 0, involuntary: 0, reversed: 0, operator: 0, rate: null },
    ]);
  });

  it('counts the reasons and outcomes of the range only', () => {
    expect(report.reasons.find((row) => row.reason === 'not_trading')).toEqual({ reason: 'not_trading', total: 3, declined: 1, discount: 0, pause: 2 });
    expect(report.reasons.find((row) => row.reason === 'too_expensive')?.total).toBe(1);
    expect(report.reasons.find((row) => row.reason === 'other')?.total).toBe(0);
  });

  it('moves MRR per currency and month: new, reactivation, churn, expansion, contraction', () => {
    expect(report.mrr.find((row) => row.month === '2026-10' && row.currency === 'usd')).toEqual({
      month: '2026-10',
      currency: 'usd',
      start: 2900 * 7,
      end: 2900 * 3 + 3300 + 2900 * 5,
      new: 5800,
      reactivation: 2900,
      churn: -2900,
      expansion: 400,
      contraction: 0,
    });
    expect(report.mrr.find((row) => row.month === '2026-10' && row.currency === 'eur')?.new).toBe(1999);
    expect(report.mrr.filter((row) => row.month === '2026-09').every((row) => row.start === 0 && row.end === 0)).toBe(true);
  });

  it('gives each plan its value per member, trial conversion, refund and dispute rates', () => {
    expect(report.lifetimeValue).toEqual([
      { plan: 'monthly', currency: 'usd', members: 3, revenue: 17400, perMember: 5800 },
      { plan: 'yearly', currency: 'usd', members: 2, revenue: 59800, perMember: 29900 },
    ]);
    expect(report.trials.find((row) => row.month === '2026-10')).toEqual({ month: '2026-10', converted: 3, canceled: 1, rate: 75 });
    expect(report.reversals.find((row) => row.month === '2026-10')).toEqual({ month: '2026-10', orders: 20, refunded: 2, disputed: 1, refundRate: 10, disputeRate: 5 });
    expect(report.reversals.find((row) => row.month === '2026-11')).toEqual({ month: '2026-11', orders: 0, refunded: 0, disputed: 0, refundRate: null, disputeRate: null });
  });

  it('sums revenue per promotion code and affiliate over the range, the largest first', () => {
    expect(report.promotions).toEqual([
      { code: 'BIG', currency: 'usd', orders: 1, revenue: 9000, discount: 1000 },
      { code: 'SPRING', currency: 'usd', orders: 3, revenue: 4350, discount: 4350 },
    ]);
    expect(report.affiliates).toEqual([{ code: 'alice', currency: 'usd', orders: 2, revenue: 5800 }]);
  });
});
