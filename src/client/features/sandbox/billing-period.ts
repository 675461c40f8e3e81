import { billingPeriodWords, wholeMonths } from '@shared/catalogue';
import { planPeriod, type PlanType } from '@shared/plans';

/** 'per month', 'every 3 months', 'per year', or 'one-time payment' (no billing period). */
export function billingPeriod(intervalMonths: number | null): string {
  if (intervalMonths === null) return 'one-time payment';
  if (intervalMonths === 1) return 'per month';
  if (intervalMonths === 12) return 'per year';
  return `every ${intervalMonths} months`;
}

/** How often a checkout or subscription charges: its plan's period in the catalogue ('per week'), else its months. */
export function billingOf(item: { planType: PlanType; intervalMonths: number | null; mode?: string }): string {
  if (item.mode === 'payment' || item.intervalMonths === null) return billingPeriod(null);
  const period = planPeriod(item.planType);
  if (period === null || wholeMonths(period) !== null) return billingPeriod(item.intervalMonths);
  return billingPeriodWords(period);
}
