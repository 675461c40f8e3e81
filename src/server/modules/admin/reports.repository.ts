// The overview's raw numbers, read straight from billing's tables; the rules that turn them into
// reports live in src/shared/admin-reports.ts. Read-only.
import { sql, type SQL } from 'drizzle-orm';
import { COMP_PROVIDER, dayKey, type PaidDay } from '@shared/admin-reports';
import type { PromotionDuration } from '@shared/promotions';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/query';
import { subscriptionGrantsAccessAt } from '../access/access.repository';

const reportPlan = sql`CASE WHEN s.provider = ${COMP_PROVIDER} THEN 'comp' ELSE s.plan_type END`;

/**
 * Paid orders (refunded and disputed ones left out) since `since` (a UTC midnight), summed per UTC
 * day, plan and currency: the revenue of the overview's periods and its 90-day chart, from one
 * range of orders_created_idx that returns a few hundred rows. Grouped by the date itself, which
 * the planner hashes; grouped by its text it sorted the range's 71,000 rows on disk (126 → 63 ms
 * at 100,000 members).
 */
export async function paidOrdersByDay(db: Db, since: Date): Promise<PaidDay[]> {
  const rows = await queryRows<{ day: string; plan: string; currency: string; amount: string | number; orders: string | number }>(
    db,
    sql`SELECT day::text, plan, currency, amount, orders FROM (
          SELECT (created_at AT TIME ZONE 'UTC')::date AS day, plan_type AS plan, currency, sum(amount) AS amount, count(*) AS orders
          FROM orders WHERE status = 'paid' AND created_at >= ${since} GROUP BY 1, 2, 3) paid_days`,
  );
  // sums and counts arrive as bigint strings from pg
  return rows.map((row) => ({ day: row.day, plan: row.plan, currency: row.currency, amount: Number(row.amount), orders: Number(row.orders) }));
}

/** Members with access now per plan (comp its own), each member once a plan: distinct pairs first, which hash in memory. */
export async function activeMembersByPlan(db: Db, now: Date): Promise<{ plan: string; members: number }[]> {
  const rows = await queryRows<{ plan: string; members: string | number }>(
    db,
    sql`SELECT plan, count(*) AS members FROM (
          SELECT DISTINCT ${reportPlan} AS plan, s.user_id
          FROM user_subscriptions s WHERE s.user_id IS NOT NULL AND ${subscriptionGrantsAccessAt('s', now)}
        ) pairs GROUP BY plan ORDER BY plan`,
  );
  return rows.map((row) => ({ plan: row.plan, members: Number(row.members) }));
}

export type RenewingSubscription = {
  planType: string;
  provider: string;
  amount: number | null;
  currency: string | null;
  /** When the next period starts (the row's expiry); only read, so only given, with a discount. */
  renewsAt: Date | null;
  /** The newest order's promotion code: what it took off, its terms and when the subscription first had it. */
  discount: {
    amount: number;
    percentOff: number | null;
    amountOff: number | null;
    currency: string | null;
    duration: PromotionDuration;
    durationInMonths: number | null;
    since: Date;
  } | null;
  /** How many renewing subscriptions have exactly these figures. */
  count: number;
};

/**
 * Subscriptions that will renew, with what their period costs: the newest paid order of the
 * subscription (a plan change charges the new price), else the order that started the row, with
 * the promotion code that order had (a renewal's price depends on how long the code lasts).
 * Read from the price columns migration 0022's triggers keep on each row (decision 034), grouped
 * by identical figures so that 59,000 subscriptions arrive as a handful of rows.
 */
export async function renewingSubscriptions(db: Db, now: Date): Promise<RenewingSubscription[]> {
  const rows = await queryRows<
    Omit<RenewingSubscription, 'discount' | 'renewsAt' | 'count'> & {
      renewsAt: Date | string | null;
      amountDiscount: number | null;
      percentOff: number | null;
      amountOff: number | null;
      couponCurrency: string | null;
      duration: PromotionDuration | null;
      durationInMonths: number | null;
      since: Date | string | null;
      count: string | number;
    }
  >(
    db,
    sql`SELECT s.plan_type AS "planType", s.provider, s.price_amount AS amount, s.price_currency AS currency,
               CASE WHEN s.price_promotion_code IS NOT NULL THEN s.expires_at END AS "renewsAt", s.price_discount AS "amountDiscount",
               p.percent_off AS "percentOff", p.amount_off AS "amountOff", p.currency AS "couponCurrency", p.duration, p.duration_in_months AS "durationInMonths",
               s.price_promotion_since AS since, count(*) AS count
        FROM user_subscriptions s
        LEFT JOIN promotion_codes p ON p.code = s.price_promotion_code
        WHERE ${subscriptionGrantsAccessAt('s', now)} AND s.status IN ('active', 'trialing') AND NOT s.cancel_at_period_end AND s.provider <> ${COMP_PROVIDER}
        GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12`,
  );
  return rows.map(({ amountDiscount, percentOff, amountOff, couponCurrency, duration, durationInMonths, since, renewsAt, count, ...row }) => ({
    ...row,
    renewsAt: renewsAt === null ? null : new Date(renewsAt),
    discount:
      duration && since !== null
        ? { amount: amountDiscount ?? 0, percentOff, amountOff, currency: couponCurrency, duration, durationInMonths, since: new Date(since) }
        : null,
    // a bigint string from pg
    count: Number(count),
  }));
}

/**
 * Each member's row as a stretch of access `[from, until)`: from its start until its expiry, or
 * until it was switched off (updated_at) when that came first; open (null) while it is active with
 * no expiry, and for lifetime. migration 0025's subscription_access_until, which its index and
 * the trigger keeping member_counts_by_day right use too.
 */
export const accessSpans = sql`(SELECT user_id, created_at AS "from", subscription_access_until(is_active, plan_type, expires_at, updated_at) AS "until"
  FROM user_subscriptions WHERE user_id IS NOT NULL)`;

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
          (SELECT count(*) FROM checkout_sessions WHERE duplicate_status = 'refunded') AS "duplicatesRefunded",
          (SELECT count(*) FROM checkout_sessions WHERE duplicate_status = 'refund_pending') AS "duplicatesPending",
          (SELECT count(DISTINCT coalesce(user_id::text, id::text)) FROM user_subscriptions WHERE status = 'past_due' AND is_active) AS "failedRenewals"`,
  );
  return {
    duplicatesRefunded: Number(row?.duplicatesRefunded ?? 0),
    duplicatesPending: Number(row?.duplicatesPending ?? 0),
    failedRenewals: Number(row?.failedRenewals ?? 0),
  };
}
