// Rules behind the operator console's numbers: what counts as comp, how a plan's price
// becomes monthly recurring revenue, and the UTC day buckets of reports and charts. Pure.
import { isPlanType, planPeriodInterval } from './plans';

/** The provider of complimentary access an operator gives: no payment, no provider behind it. */
export const COMP_PROVIDER = 'comp';

/** A plan as reports show it: comp access is its own line whatever plan_type the row carries. */
export function reportPlan(row: { planType: string; provider: string }): string {
  return row.provider === COMP_PROVIDER ? 'comp' : row.planType;
}

/**
 * What one period's price is worth per month, in minor units (not rounded: a sum of many is
 * rounded once). Lifetime, comp and unknown plans bring no recurring revenue: null.
 */
export function monthlyValue(row: { planType: string; provider: string; amount: number }): number | null {
  if (row.provider === COMP_PROVIDER || !isPlanType(row.planType)) return null;
  const interval = planPeriodInterval(row.planType);
  return interval ? row.amount / interval.months : null;
}

/**
 * Monthly recurring revenue per currency (minor units) of the subscriptions that renew; a row
 * with `count` stands for that many subscriptions with the same figures.
 */
export function monthlyRecurringRevenue(rows: readonly { planType: string; provider: string; amount: number; currency: string; count?: number }[]): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const row of rows) {
    const value = monthlyValue(row);
    if (value !== null) totals[row.currency] = (totals[row.currency] ?? 0) + value * (row.count ?? 1);
  }
  return Object.fromEntries(Object.entries(totals).map(([currency, total]) => [currency, Math.round(total)]));
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC calendar day of an instant, as YYYY-MM-DD. */
export function dayKey(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** Midnight UTC of the day `daysBack` days before `now`'s day (0: today). */
export function startOfDay(now: Date, daysBack = 0): Date {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(midnight - daysBack * DAY_MS);
}

export const REPORT_PERIODS = { today: 1, days7: 7, days30: 30 } as const;
export type ReportPeriod = keyof typeof REPORT_PERIODS;

/** Where a period of `days` calendar days ending today starts: today counts as the first. */
export function periodStart(now: Date, period: ReportPeriod): Date {
  return startOfDay(now, REPORT_PERIODS[period] - 1);
}

/** The last `days` UTC days, oldest first, ending today. */
export function lastDays(now: Date, days: number): string[] {
  return Array.from({ length: days }, (_, index) => dayKey(startOfDay(now, days - 1 - index)));
}

/** Sums amounts per day (YYYY-MM-DD) and currency over the days given; amounts outside them are left out. */
export function dailyTotals(days: readonly string[], rows: readonly { day: string; amount: number; currency: string }[]): { day: string; totals: Record<string, number> }[] {
  const byDay = new Map(days.map((day) => [day, {} as Record<string, number>]));
  for (const row of rows) {
    const totals = byDay.get(row.day);
    if (totals) totals[row.currency] = (totals[row.currency] ?? 0) + row.amount;
  }
  return days.map((day) => ({ day, totals: byDay.get(day) ?? {} }));
}

/** Paid orders of one UTC day (YYYY-MM-DD), plan and currency: their sum and how many. */
export type PaidDay = { day: string; plan: string; currency: string; amount: number; orders: number };

/** One line of a period's revenue: a plan's paid orders in one currency. */
export type RevenueLine = { plan: string; currency: string; amount: number; orders: number };

/**
 * Each period's revenue by plan and currency (sorted by both) from the paid orders' daily totals:
 * a day counts in every period that starts on it or before it.
 */
export function revenueByPeriod(days: readonly PaidDay[], now: Date): Record<ReportPeriod, RevenueLine[]> {
  const linesSince = (period: ReportPeriod) => {
    const first = dayKey(periodStart(now, period));
    const lines = new Map<string, RevenueLine>();
    for (const { day, plan, currency, amount, orders } of days) {
      if (day < first) continue;
      const key = `${plan} ${currency}`;
      const line = lines.get(key) ?? { plan, currency, amount: 0, orders: 0 };
      line.amount += amount;
      line.orders += orders;
      lines.set(key, line);
    }
    return [...lines.values()].sort((a, b) => (a.plan === b.plan ? (a.currency < b.currency ? -1 : 1) : a.plan < b.plan ? -1 : 1));
  };
  return { today: linesSince('today'), days7: linesSince('days7'), days30: linesSince('days30') };
}

/**
 * Members with access on each of `dayCount` days from runs of day indexes `[start, end)`: each
 * group stands for `members` members with those runs (a member's runs do not overlap).
 */
export function membersPerDayOfRuns(dayCount: number, groups: readonly { starts: readonly number[]; ends: readonly number[]; members: number }[]): number[] {
  const change = new Array<number>(dayCount + 1).fill(0);
  for (const { starts, ends, members } of groups) {
    starts.forEach((start, index) => {
      change[Math.max(0, start)]! += members;
      change[Math.min(dayCount, ends[index]!)]! -= members;
    });
  }
  let running = 0;
  return change.slice(0, dayCount).map((delta) => (running += delta));
}
