// The overview's raw numbers, read from the orders and from entitlements' reads (subscription rows
// are entitlements' own); the rules that turn them into reports live in src/shared/admin-reports.ts.
// Read-only.
import { sql, type SQL } from 'drizzle-orm';
import { dayKey, type PaidDay } from '@shared/admin-reports';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/query';
import { accessSpans, failedRenewalsCount } from '../entitlements/entitlement-reads';
import { duplicateCounts } from '../provider-records/checkout-session-reads';

/**
 * Paid orders (refunded and disputed ones left out) from `since` (a UTC midnight) until `until`
 * (one too, or none), summed per UTC day, plan and currency: a range of orders_created_idx that
 * returns a few hundred rows. Grouped by the date itself, which the planner hashes; grouped by its
 * text it sorted the range's 71,000 rows on disk (126 → 63 ms at 100,000 members).
 */
export async function paidOrdersByDay(db: Db, since: Date, until?: Date): Promise<PaidDay[]> {
  const rows = await queryRows<{ day: string; plan: string; currency: string; amount: string | number; orders: string | number }>(
    db,
    sql`SELECT day::text, plan, currency, amount, orders FROM (
          SELECT (created_at AT TIME ZONE 'UTC')::date AS day, plan_type AS plan, currency, sum(amount) AS amount, count(*) AS orders
          FROM orders WHERE status = 'paid' AND created_at >= ${since} ${until ? sql`AND created_at < ${until}` : sql``} GROUP BY 1, 2, 3) paid_days`,
  );
  // sums and counts arrive as bigint strings from pg
  return rows.map((row) => ({ day: row.day, plan: row.plan, currency: row.currency, amount: Number(row.amount), orders: Number(row.orders) }));
}





/** One group of members with the same days of access on the chart, and how many of them moved in the last 30 days. */
export type AccessRuns = { starts: number[]; ends: number[]; members: number; newMembers: number; churned: number };

/**
 * Each row's stretch of access (`accessSpans`), counted in the database so that 100,000 spans
 * never reach Node. Only the spans still open at the chart's first day (`chartStart`, a UTC midnight) count, for movement too. Per member: the chart's days
 * with access as index runs `[start, end)` (day 0: `chartStart`'s; a span covers the days whose
 * end is after its start and not after its end, its runs merged by range_agg), whether the member
 * first got access since `since` (new), and whether they had it at `since` and not at `now`
 * (churned). Members with the same runs arrive as one group: a few hundred rows.
 */
export async function accessRuns(db: Db, range: { chartStart: Date; days: number; since: Date; now: Date }): Promise<AccessRuns[]> {
  const { chartStart, days, since, now } = range;
  const day = (at: SQL) => sql`((${at}) AT TIME ZONE 'UTC')::date - ${dayKey(chartStart)}::date`;
  const covers = (at: Date) => sql`("from" <= ${at}::timestamptz AND ("until" IS NULL OR "until" > ${at}::timestamptz))`;
  const rows = await queryRows<{ starts: number[]; ends: number[]; members: string | number; newMembers: string | number; churned: string | number }>(
    db,
    sql`SELECT array(SELECT lower(r) FROM unnest(runs) r ORDER BY 1) AS starts, array(SELECT upper(r) FROM unnest(runs) r ORDER BY 1) AS ends,
          count(*) AS members, count(*) FILTER (WHERE first_from >= ${since}::timestamptz) AS "newMembers", count(*) FILTER (WHERE was AND NOT has) AS churned
        FROM (
          SELECT min("from") AS first_from, bool_or(${covers(since)}) AS was, bool_or(${covers(now)}) AS has,
            range_agg(CASE WHEN first_day < end_day THEN int4range(first_day, end_day) END) AS runs
          FROM (
            SELECT user_id, "from", "until", greatest(0, ${day(sql`"from"`)}) AS first_day,
              CASE WHEN "until" IS NULL THEN ${days}::int ELSE least(${days}::int, ${day(sql`"until"`)}) END AS end_day
            FROM ${accessSpans} spans WHERE "until" IS NULL OR "until" >= ${chartStart}::timestamptz
          ) kept GROUP BY user_id
        ) members GROUP BY runs`,
  );
  // counts arrive as bigint strings from pg
  return rows.map((row) => ({ starts: row.starts, ends: row.ends, members: Number(row.members), newMembers: Number(row.newMembers), churned: Number(row.churned) }));
}

/** Orders per status among refunded and disputed ones, with their amounts per currency. */
export async function reversedOrders(db: Db): Promise<{ status: string; currency: string; orders: number; amount: number }[]> {
  const rows = await queryRows<{ status: string; currency: string; orders: string | number; amount: string | number }>(
    db,
    sql`SELECT status, currency, count(*) AS orders, sum(amount) AS amount FROM orders
        WHERE status IN ('refunded', 'disputed') GROUP BY status, currency ORDER BY status, currency`,
  );
  return rows.map((row) => ({ status: row.status, currency: row.currency, orders: Number(row.orders), amount: Number(row.amount) }));
}

export async function attentionCounts(db: Db): Promise<{ duplicatesRefunded: number; duplicatesPending: number; failedRenewals: number }> {
  const [row] = await queryRows<Record<string, string | number>>(
    db,
    sql`SELECT
          ${duplicateCounts.refunded} AS "duplicatesRefunded",
          ${duplicateCounts.pending} AS "duplicatesPending",
          ${failedRenewalsCount} AS "failedRenewals"`,
  );
  return {
    duplicatesRefunded: Number(row?.duplicatesRefunded ?? 0),
    duplicatesPending: Number(row?.duplicatesPending ?? 0),
    failedRenewals: Number(row?.failedRenewals ?? 0),
  };
}
