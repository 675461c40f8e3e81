// The Retention page's raw numbers: grouped counts read from billing's, the trials' and the
// cancellation flow's tables, and the snapshot that keeps them (decision 057). Read-only but for
// the snapshot. Subscription rows are read through entitlements' subscription history (decision
// 059), which takes the first payments and the cancellation flow's outcome from here as SQL.
import { sql, type SQL } from 'drizzle-orm';
import { monthStart, type RetentionSnapshot } from '@shared/retention-report';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/query';
import { retentionReportSnapshots } from '../../db/schema';
import { monthOf, monthsReached } from '../../db/utc-months';
import { accessEndings, mrrAtMonthEdges, payingAtMonthStarts, retainedAfterFirstPayment, type ReportMonths } from '../entitlements/subscription-history';

const asNumber = (value: string | number) => Number(value);

/** Each member's first payment (any order, refunded ones too: the day they became a customer). */
const firstPayments = sql`(SELECT user_id, min(created_at) AS first_paid FROM orders WHERE user_id IS NOT NULL GROUP BY user_id)`;

/**
 * Members per month of first payment since `since`, and for each whole month after it (1 up to
 * `maxAfter`) already reached by `now`: how many had reached it and how many had access then.
 */
export async function cohortCounts(db: Db, range: { since: Date; now: Date; maxAfter: number }) {
  const { since, now, maxAfter } = range;
  const f = sql`f.first_paid`;
  const [eligible, retained, sizes] = await Promise.all([
    queryRows<{ cohort: string; after: number; members: string | number }>(
      db,
      sql`SELECT ${monthOf(f)} AS cohort, k.after, count(*) AS members
          FROM ${firstPayments} f CROSS JOIN LATERAL generate_series(1, least(${monthsReached(f, sql`${now}::timestamptz`)}, ${maxAfter}::int)) AS k(after)
          WHERE f.first_paid >= ${since}::timestamptz GROUP BY 1, 2`,
    ),
    retainedAfterFirstPayment(db, { firstPayments, since, now, maxAfter }),
    queryRows<{ cohort: string; members: string | number }>(
      db,
      sql`SELECT ${monthOf(f)} AS cohort, count(*) AS members FROM ${firstPayments} f WHERE f.first_paid >= ${since}::timestamptz GROUP BY 1`,
    ),
  ]);
  const retainedOf = new Map(retained.map((row) => [`${row.cohort} ${row.after}`, row.members]));
  return {
    cohorts: eligible.map((row) => ({ cohort: row.cohort, after: Number(row.after), eligible: asNumber(row.members), retained: retainedOf.get(`${row.cohort} ${row.after}`) ?? 0 })),
    cohortSizes: sizes.map((row) => ({ cohort: row.cohort, members: asNumber(row.members) })),
  };
}

/** Whether the member went through the cancellation flow for this provider subscription (an SQL column) and turned its offer down. */
const canceledByMember = (subscriptionId: SQL) =>
  sql<boolean>`EXISTS (SELECT 1 FROM cancellations c WHERE c.provider_subscription_id = ${subscriptionId} AND c.state = 'done' AND c.outcome = 'declined')`;

/** Members whose paid access ended since `since` (by `now`), per month and how it ended (entitlements' `accessEndings`). */
export async function churnedCounts(db: Db, range: { since: Date; now: Date }): Promise<RetentionSnapshot['churned']> {
  return accessEndings(db, { ...range, canceledByMember });
}

const reportMonths = (months: readonly string[], now: Date): ReportMonths => ({ firstStart: monthStart(months[0]!), count: months.length, now });

/** Members with paid access at the start of each of `months`. */
export async function payingAtStart(db: Db, months: readonly string[], now: Date): Promise<RetentionSnapshot['payingAtStart']> {
  const rows = await payingAtMonthStarts(db, reportMonths(months, now));
  return rows.map((row) => ({ month: months[row.point]!, members: row.members }));
}

/**
 * Each member's monthly recurring revenue at the start and at the end of each of `months` (its
 * end: the next month's start, or now for the last), grouped by those two figures, with whether
 * the member had paid before the month began.
 */
export async function mrrPairs(db: Db, months: readonly string[], now: Date, planMonths: readonly { plan: string; months: number }[]): Promise<RetentionSnapshot['mrr']> {
  if (months.length === 0) return [];
  const rows = await mrrAtMonthEdges(db, reportMonths(months, now), planMonths, firstPayments);
  return rows.map(({ point, ...row }) => ({ month: months[point]!, ...row }));
}

/** Cancellation-flow choices since `since` per month, reason and outcome. */
export async function cancellationCounts(db: Db, since: Date): Promise<RetentionSnapshot['cancellations']> {
  const rows = await queryRows<RetentionSnapshot['cancellations'][number] & { count: string | number }>(
    db,
    sql`SELECT ${monthOf(sql`created_at`)} AS month, reason, outcome, count(*) AS count FROM cancellations
        WHERE state = 'done' AND created_at >= ${since}::timestamptz GROUP BY 1, 2, 3`,
  );
  return rows.map((row) => ({ ...row, count: asNumber(row.count) }));
}

/** Per plan of each member's first order and currency: members and what their paid orders came to (all time). */
export async function lifetimeValues(db: Db): Promise<RetentionSnapshot['lifetimeValue']> {
  const rows = await queryRows<{ plan: string; currency: string; members: string | number; revenue: string | number }>(
    db,
    sql`SELECT plan, currency, count(*) AS members, sum(paid) AS revenue FROM (
          SELECT user_id, currency, (array_agg(plan_type ORDER BY created_at))[1] AS plan, coalesce(sum(amount) FILTER (WHERE status = 'paid'), 0) AS paid
          FROM orders WHERE user_id IS NOT NULL GROUP BY user_id, currency) members
        GROUP BY 1, 2`,
  );
  return rows.map((row) => ({ plan: row.plan, currency: row.currency, members: asNumber(row.members), revenue: asNumber(row.revenue) }));
}

/** Trials that converted or were canceled since `since`, per month they ended. */
export async function trialOutcomes(db: Db, since: Date): Promise<RetentionSnapshot['trials']> {
  const rows = await queryRows<{ month: string; outcome: string; count: string | number }>(
    db,
    sql`SELECT ${monthOf(sql`outcome_at`)} AS month, outcome, count(*) AS count FROM trials
        WHERE outcome IN ('converted', 'canceled') AND outcome_at >= ${since}::timestamptz GROUP BY 1, 2`,
  );
  return rows.map((row) => ({ ...row, count: asNumber(row.count) }));
}

/** Orders since `since` per month, status and currency: how many and their sum. */
export async function orderCounts(db: Db, since: Date): Promise<RetentionSnapshot['orders']> {
  const rows = await queryRows<{ month: string; status: string; currency: string; count: string | number; amount: string | number }>(
    db,
    sql`SELECT ${monthOf(sql`created_at`)} AS month, status, currency, count(*) AS count, sum(amount) AS amount FROM orders
        WHERE created_at >= ${since}::timestamptz GROUP BY 1, 2, 3`,
  );
  return rows.map((row) => ({ ...row, count: asNumber(row.count), amount: asNumber(row.amount) }));
}

/** Paid orders since `since` with a promotion code, per month, code and currency. */
export async function promotionRevenue(db: Db, since: Date): Promise<RetentionSnapshot['promotions']> {
  const rows = await queryRows<{ month: string; code: string; currency: string; orders: string | number; revenue: string | number; discount: string | number }>(
    db,
    sql`SELECT ${monthOf(sql`created_at`)} AS month, promotion_code AS code, currency, count(*) AS orders, sum(amount) AS revenue, sum(amount_discount) AS discount
        FROM orders WHERE status = 'paid' AND promotion_code IS NOT NULL AND created_at >= ${since}::timestamptz GROUP BY 1, 2, 3`,
  );
  return rows.map((row) => ({ month: row.month, code: row.code, currency: row.currency, orders: asNumber(row.orders), revenue: asNumber(row.revenue), discount: asNumber(row.discount) }));
}

/** Paid orders since `since` of members an affiliate brought (their later payments too), per month, affiliate code and currency. */
export async function affiliateRevenue(db: Db, since: Date): Promise<RetentionSnapshot['affiliates']> {
  const rows = await queryRows<{ month: string; code: string; currency: string; orders: string | number; revenue: string | number }>(
    db,
    sql`SELECT ${monthOf(sql`o.created_at`)} AS month, af.code, o.currency, count(*) AS orders, sum(o.amount) AS revenue
        FROM orders o JOIN "user" u ON u.id = o.user_id
        JOIN affiliate_attributions a ON a.email = lower(u.email) JOIN affiliates af ON af.id = a.affiliate_id
        WHERE o.status = 'paid' AND o.created_at >= ${since}::timestamptz GROUP BY 1, 2, 3`,
  );
  return rows.map((row) => ({ month: row.month, code: row.code, currency: row.currency, orders: asNumber(row.orders), revenue: asNumber(row.revenue) }));
}

export async function readSnapshot(db: Db): Promise<RetentionSnapshot | null> {
  const [row] = await db.select({ snapshot: retentionReportSnapshots.snapshot }).from(retentionReportSnapshots).limit(1);
  return row?.snapshot ?? null;
}

export async function saveSnapshot(db: Db, snapshot: RetentionSnapshot): Promise<void> {
  const computedAt = new Date(snapshot.computedAt);
  await db.insert(retentionReportSnapshots).values({ id: 1, snapshot, computedAt }).onConflictDoUpdate({ target: retentionReportSnapshots.id, set: { snapshot, computedAt } });
}
