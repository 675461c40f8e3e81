import { describe, expect, it } from 'vitest';
import {
  dailyTotals,
  dayKey,
  lastDays,
  membersPerDayOfRuns,
  monthlyRecurringRevenue,
  monthlyValue,
  periodStart,
  reportPlan,
  revenueByPeriod,
} from './admin-reports';

const NOW = new Date('2026-03-01T08:30:00Z');

describe('monthlyValue', () => {
  it.each([
    ['monthly', 'sandbox', 3600, 3600],
    ['euMonthly', 'stripe', 2999, 2999],
    ['quarterly', 'stripe', 7200, 2400],
    ['euQuarterly', 'stripe', 5999, 5999 / 3],
    ['yearly', 'stripe', 20400, 1700],
    ['lifetime', 'stripe', 54999, null],
    ['monthly', 'comp', 0, null],
    ['weekly', 'stripe', 100, null],
  ])('%s from %s at %i is %s a month', (planType, provider, amount, expected) => {
    expect(monthlyValue({ planType, provider, amount })).toBe(expected);
  });
});

describe('monthlyRecurringRevenue', () => {
  it('sums per currency and rounds once', () => {
    const rows = [
      { planType: 'euQuarterly', provider: 'stripe', amount: 5999, currency: 'eur' },
      { planType: 'euQuarterly', provider: 'stripe', amount: 5999, currency: 'eur' },
      { planType: 'yearly', provider: 'stripe', amount: 20400, currency: 'usd' },
      { planType: 'lifetime', provider: 'stripe', amount: 54999, currency: 'usd' },
      { planType: 'monthly', provider: 'comp', amount: 3600, currency: 'usd' },
    ];
    expect(monthlyRecurringRevenue(rows)).toEqual({ eur: 3999, usd: 1700 });
  });
});

describe('periods and days', () => {
  it('reports comp as its own plan', () => {
    expect(reportPlan({ planType: 'monthly', provider: 'comp' })).toBe('comp');
    expect(reportPlan({ planType: 'monthly', provider: 'stripe' })).toBe('monthly');
  });

  it('starts today at midnight UTC and counts today as the first of 7 and 30 days', () => {
    expect(periodStart(NOW, 'today').toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(periodStart(NOW, 'days7').toISOString()).toBe('2026-02-23T00:00:00.000Z');
    expect(periodStart(NOW, 'days30').toISOString()).toBe('2026-01-31T00:00:00.000Z');
  });

  it('lists the last days oldest first, ending today', () => {
    expect(lastDays(NOW, 3)).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
    expect(dayKey(new Date('2026-02-28T23:59:59Z'))).toBe('2026-02-28');
  });

  it('sums amounts per day and currency, leaving out days outside the range', () => {
    const totals = dailyTotals(['2026-02-28', '2026-03-01'], [
      { day: '2026-02-28', amount: 100, currency: 'usd' },
      { day: '2026-02-28', amount: 50, currency: 'usd' },
      { day: '2026-02-28', amount: 70, currency: 'eur' },
      { day: '2026-02-01', amount: 999, currency: 'usd' },
    ]);
    expect(totals).toEqual([
      { day: '2026-02-28', totals: { usd: 150, eur: 70 } },
      { day: '2026-03-01', totals: {} },
    ]);
  });
});

describe('revenueByPeriod', () => {
  const paid = (day: string, plan: string, currency: string, amount: number, orders = 1) => ({ day, plan, currency, amount, orders });

  it('sums each plan and currency over the days of each period, today counting in all three', () => {
    const revenue = revenueByPeriod(
      [
        paid('2026-03-01', 'monthly', 'usd', 4900),
        paid('2026-03-01', 'euMonthly', 'eur', 3900),
        paid('2026-02-24', 'monthly', 'usd', 9800, 2),
        paid('2026-02-23', 'monthly', 'usd', 4900),
        paid('2026-01-31', 'yearly', 'usd', 29900),
        paid('2026-01-30', 'yearly', 'usd', 29900),
      ],
      NOW,
    );
    expect(revenue.today).toEqual([
      { plan: 'euMonthly', currency: 'eur', amount: 3900, orders: 1 },
      { plan: 'monthly', currency: 'usd', amount: 4900, orders: 1 },
    ]);
    // seven days ending today start on 2026-02-23
    expect(revenue.days7).toEqual([
      { plan: 'euMonthly', currency: 'eur', amount: 3900, orders: 1 },
      { plan: 'monthly', currency: 'usd', amount: 19600, orders: 4 },
    ]);
    // thirty days ending today start on 2026-01-31
    expect(revenue.days30).toEqual([
      { plan: 'euMonthly', currency: 'eur', amount: 3900, orders: 1 },
      { plan: 'monthly', currency: 'usd', amount: 19600, orders: 4 },
      { plan: 'yearly', currency: 'usd', amount: 29900, orders: 1 },
    ]);
  });

  it('keeps currencies of one plan apart', () => {
    const revenue = revenueByPeriod([paid('2026-03-01', 'monthly', 'usd', 4900), paid('2026-03-01', 'monthly', 'eur', 4500)], NOW);
    expect(revenue.today.map((line) => line.currency)).toEqual(['eur', 'usd']);
  });
});

describe('membersPerDayOfRuns', () => {
  it('counts each group of members on the days of its runs, an end being the first day without', () => {
    const groups = [
      { starts: [0], ends: [3], members: 2 },
      { starts: [1, 4], ends: [2, 5], members: 1 },
      { starts: [], ends: [], members: 7 },
    ];
    expect(membersPerDayOfRuns(5, groups)).toEqual([2, 3, 2, 0, 1]);
  });
});
