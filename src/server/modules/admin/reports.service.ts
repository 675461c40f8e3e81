import { dailyTotals, dayKey, lastDays, monthlyRecurringRevenue, periodStart, revenueByPeriod, startOfDay } from '@shared/admin-reports';
import type { Overview } from '@shared/admin-contract';
import { nextPeriodAmount } from '@shared/promotions';
import { isPlanType, PLAN_CURRENCY, type PlanPrices } from '@shared/plans';
import type { Db } from '../../db/client';
import { memberCounts } from './member-counts.repository';
import { paidDays } from './paid-days.repository';
import { attentionCounts, reversedOrders } from './reports.repository';
import { activeMembersByPlan, renewingSubscriptions } from '../entitlements/entitlement-reads';

const CHART_DAYS = 90;

const moneyList = (totals: Record<string, number>) => Object.entries(totals).map(([currency, amount]) => ({ currency, amount }));

export function createReportsService(deps: { db: Db; clock: () => Date; prices: PlanPrices }) {
  const { db, clock, prices } = deps;
  return {
    async overview(): Promise<Overview> {
      const now = clock();
      // new members and churn are counted over the last 30 days, as the 30-day revenue
      const days30 = periodStart(now, 'days30');
      const chartStart = startOfDay(now, CHART_DAYS - 1);
      const [paid, active, renewing, counts, reversed, attention] = await Promise.all([
        paidDays(db, { since: chartStart, today: startOfDay(now) }),
        activeMembersByPlan(db, now),
        renewingSubscriptions(db, now),
        memberCounts(db, { chartStart, days: CHART_DAYS, since: days30, now }),
        reversedOrders(db),
        attentionCounts(db),
      ]);
      // A subscription whose order is missing is valued at today's list price of its plan. A
      // discounted one at what its next period charges: a forever code lowers MRR, a once code not.
      const mrr = monthlyRecurringRevenue(
        renewing.map((row) => {
          const currency = row.currency ?? PLAN_CURRENCY;
          const listAmount = row.amount === null ? (isPlanType(row.planType) ? (prices[row.planType] ?? 0) : 0) : row.amount + (row.discount?.amount ?? 0);
          return { ...row, amount: nextPeriodAmount(listAmount, currency, row.discount, row.discount?.since ?? null, row.renewsAt), currency };
        }),
      );
      const days = lastDays(now, CHART_DAYS);
      const reversal = (status: string) => {
        const rows = reversed.filter((row) => row.status === status);
        return { count: rows.reduce((sum, row) => sum + row.orders, 0), amounts: rows.map((row) => ({ currency: row.currency, amount: row.amount })) };
      };
      return {
        revenue: revenueByPeriod(paid, now),
        activeMembers: active,
        mrr: moneyList(mrr),
        newMembers: { count: counts.newMembers, since: dayKey(days30) },
        churnedMembers: counts.churned,
        refunds: reversal('refunded'),
        disputes: reversal('disputed'),
        attention,
        chart: dailyTotals(days, paid).map((point, index) => ({ day: point.day, revenue: point.totals, members: counts.members[index] ?? 0 })),
      };
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
