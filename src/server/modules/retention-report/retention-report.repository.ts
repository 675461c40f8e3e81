// The Retention page's raw numbers: grouped counts read from billing's, the trials' and the
// cancellation flow's tables, and the snapshot that keeps them (decision 057). Read-only but for
// the snapshot. Every statement here reads user_subscriptions through `accessUntil` and the
// row's own columns, so moving the entitlements read side moves this one file.
import { sql, type SQL } from 'drizzle-orm';
import { COMP_PROVIDER } from '@shared/admin-reports';
import { monthStart, type RetentionSnapshot } from '@shared/retention-report';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/query';
import { retentionReportSnapshots } from '../../db/schema';

/** When a row's access ends ('infinity' while open), migration 0025's rule. */
const accessUntil = (alias: string) => {
  const row = sql.identifier(alias);
  return sql`coalesce(subscription_access_until(${row}.is_active, ${row}.plan_type, ${row}.expires_at, ${row}.updated_at), 'infinity'::timestamptz)`;
};
/** The row gives access at `at` (an SQL instant). */
const coversAt = (alias: string, at: SQL) => sql`${sql.identifier(alias)}.created_at <= ${at} AND ${accessUntil(alias)} > ${at}`;
const monthOf = (at: SQL) => sql`to_char(${at} AT TIME ZONE 'UTC', 'YYYY-MM')`;
/** `months` calendar months after an instant, counted in UTC whatever the session's time zone. */
const monthsAfter = (at: SQL, months: SQL) => sql`(((${at}) AT TIME ZONE 'UTC') + ${months} * interval '1 month') AT TIME ZONE 'UTC'`;
const asNumber = (value: string | number) => Number(value);

/** Each member's first payment (any order, refunded ones too: the day they became a customer). */
const firstPayments = sql`(SELECT user_id, min(created_at) AS first_paid FROM orders WHERE user_id IS NOT NULL GROUP BY user_id)`;

const utc = (at: SQL) => sql`((${at}) AT TIME ZONE 'UTC')`;
/** The calendar month of an instant as a number (year × 12 + month), in UTC. */
const monthNumber = (at: SQL) => sql`((extract(year from ${utc(at)}) * 12 + extract(month from ${utc(at)}))::int)`;
const isMonthStart = (at: SQL) => sql`(${utc(at)} = date_trunc('month', ${utc(at)}))`;
/** Whole calendar months from `from`'s month to `to`'s. */
const monthsFrom = (from: SQL, to: SQL) => sql`(${monthNumber(to)} - ${monthNumber(from)})`;

/**
 * Members per month of first payment since `since`, and for each whole month after it (1 up to
 * `maxAfter`) already reached by `now`: how many had reached it and how many had access then.
 * Each row's stretch of access becomes the range of months-after it covers (first payment + k
 * calendar months falls inside it), so no month is probed row by row.
 */
export async function cohortCounts(db: Db, range: { since: Date; now: Date; maxAfter: number }) {
  const { since, now, maxAfter } = range;
  const f = sql`f.first_paid`;
  const nowAt = sql`${now}::timestamptz`;
  /** The last k with first payment + k months ≤ now. */
  const reached = sql`(${monthsFrom(f, nowAt)} - CASE WHEN ${monthsAfter(f, monthsFrom(f, nowAt))} <= ${nowAt} THEN 0 ELSE 1 END)`;
  const until = sql`subscription_access_until(s.is_active, s.plan_type, s.expires_at, s.updated_at)`;
  const firstCovered = sql`(${monthsFrom(f, sql`s.created_at`)} + CASE WHEN ${monthsAfter(f, monthsFrom(f, sql`s.created_at`))} >= s.created_at THEN 0 ELSE 1 END)`;
  const lastCovered = sql`CASE WHEN ${until} IS NOT NULL AND ${until} <= ${nowAt}
    THEN ${monthsFrom(f, until)} - CASE WHEN ${monthsAfter(f, monthsFrom(f, until))} < ${until} THEN 0 ELSE 1 END
    ELSE ${reached} END`;
  const [eligible, retained, sizes] = await Promise.all([
    queryRows<{ cohort: string; after: number; members: string | number }>(
      db,
      sql`SELECT ${monthOf(f)} AS cohort, k.after, count(*) AS members
          FROM ${firstPayments} f CROSS JOIN LATERAL generate_series(1, least(${reached}, ${maxAfter}::int)) AS k(after)
          WHERE f.first_paid >= ${since}::timestamptz GROUP BY 1, 2`,
    ),
    queryRows<{ cohort: string; after: number; members: string | number }>(
      db,
      sql`SELECT ${monthOf(f)} AS cohort, k.after, count(DISTINCT f.user_id) AS members
          FROM ${firstPayments} f JOIN user_subscriptions s ON s.user_id = f.user_id
          CROSS JOIN LATERAL generate_series(greatest(${firstCovered}, 1), least(${lastCovered}, ${maxAfter}::int)) AS k(after)
          WHERE f.first_paid >= ${since}::timestamptz GROUP BY 1, 2`,
    ),
    queryRows<{ cohort: string; members: string | number }>(
      db,
      sql`SELECT ${monthOf(f)} AS cohort, count(*) AS members FROM ${firstPayments} f WHERE f.first_paid >= ${since}::timestamptz GROUP BY 1`,
    ),
  ]);
  const retainedOf = new Map(retained.map((row) => [`${row.cohort} ${row.after}`, asNumber(row.members)]));
  return {
    cohorts: eligible.map((row) => ({ cohort: row.cohort, after: Number(row.after), eligible: asNumber(row.members), retained: retainedOf.get(`${row.cohort} ${row.after}`) ?? 0 })),
    cohortSizes: sizes.map((row) => ({ cohort: row.cohort, members: asNumber(row.members) })),
  };
}

/**
 * Paid rows whose access ended since `since` (by `now`) with no other row of the member giving
 * access at that instant: the member's access ended then. Grouped by month and how the row ended,
 * with whether the member chose to cancel it in the cancellation flow.
 */
export async function churnedCounts(db: Db, range: { since: Date; now: Date }): Promise<RetentionSnapshot['churned']> {
  const rows = await queryRows<{ month: string; status: string; cancelAtPeriodEnd: boolean; revokedReason: string | null; canceledByMember: boolean; members: string | number }>(
    db,
    sql`SELECT ${monthOf(sql`e.until`)} AS month, e.status, e.cancel_at_period_end AS "cancelAtPeriodEnd", e.revoked_reason AS "revokedReason",
          EXISTS (SELECT 1 FROM cancellations c WHERE c.provider_subscription_id = e.provider_subscription_id AND c.state = 'done' AND c.outcome = 'declined') AS "canceledByMember",
          count(*) AS members
        FROM (SELECT s.*, subscription_access_until(s.is_active, s.plan_type, s.expires_at, s.updated_at) AS until FROM user_subscriptions s
              WHERE s.user_id IS NOT NULL AND s.provider <> ${COMP_PROVIDER}
                AND subscription_access_until(s.is_active, s.plan_type, s.expires_at, s.updated_at) >= ${range.since}::timestamptz
                AND subscription_access_until(s.is_active, s.plan_type, s.expires_at, s.updated_at) <= ${range.now}::timestamptz) e
        WHERE NOT EXISTS (SELECT 1 FROM user_subscriptions o WHERE o.user_id = e.user_id AND o.id <> e.id AND ${coversAt('o', sql`e.until`)})
        GROUP BY 1, 2, 3, 4, 5`,
  );
  return rows.map((row) => ({ ...row, members: asNumber(row.members) }));
}

/**
 * The points of the snapshot a paid row gives access at: the starts of `months` (0 for the first,
 * one on for each month after) and `now` (the number after the last month's). A row covers the
 * month starts from the first at or after its start to the last before its end, found by month
 * arithmetic rather than by testing each point against each row.
 */
function pointsCovered(months: readonly string[], now: Date) {
  const base = monthNumber(sql`${monthStart(months[0]!)}::timestamptz`);
  const last = months.length - 1;
  const until = sql`subscription_access_until(s.is_active, s.plan_type, s.expires_at, s.updated_at)`;
  const first = sql`(${monthNumber(sql`s.created_at`)} - ${base} + CASE WHEN ${isMonthStart(sql`s.created_at`)} THEN 0 ELSE 1 END)`;
  const lastCovered = sql`CASE WHEN ${until} IS NULL THEN ${last}::int ELSE ${monthNumber(until)} - ${base} - CASE WHEN ${isMonthStart(until)} THEN 1 ELSE 0 END END`;
  const nowAt = sql`${now}::timestamptz`;
  return sql`LATERAL (SELECT generate_series(greatest(${first}, 0), least(${lastCovered}, ${last}::int)) AS point
      UNION ALL SELECT ${last + 1}::int WHERE ${coversAt('s', nowAt)}) p`;
}

/** Members with paid access at the start of each of `months`. */
export async function payingAtStart(db: Db, months: readonly string[], now: Date): Promise<RetentionSnapshot['payingAtStart']> {
  const rows = await queryRows<{ point: number; members: string | number }>(
    db,
    sql`SELECT p.point, count(DISTINCT s.user_id) AS members FROM user_subscriptions s CROSS JOIN ${pointsCovered(months, now)}
        WHERE s.user_id IS NOT NULL AND s.provider <> ${COMP_PROVIDER} AND p.point < ${months.length}::int
        GROUP BY 1`,
  );
  return rows.map((row) => ({ month: months[Number(row.point)]!, members: asNumber(row.members) }));
}

/**
 * Each member's monthly recurring revenue (minor units, rounded) at the start and at the end of
 * each of `months` (its end: the next month's start, or now for the last), grouped by those two
 * figures, with whether the member had paid before the month began. A row is worth its price
 * columns (migration 0022: the newest paid order's amount) divided by its plan's months
 * (`planMonths`; plans without a period bring none).
 */
export async function mrrPairs(db: Db, months: readonly string[], now: Date, planMonths: readonly { plan: string; months: number }[]): Promise<RetentionSnapshot['mrr']> {
  if (planMonths.length === 0 || months.length === 0) return [];
  const base = monthNumber(sql`${monthStart(months[0]!)}::timestamptz`);
  const rows = await queryRows<{ month: number; currency: string; before: string | number; after: string | number; paidBefore: boolean; members: string | number }>(
    db,
    sql`WITH plan_months(plan, months) AS (VALUES ${sql.join(
      planMonths.map(({ plan, months: count }) => sql`(${plan}::text, ${count}::numeric)`),
      sql`, `,
    )}),
        member_mrr AS (
          SELECT p.point, s.user_id, s.price_currency AS currency, sum(s.price_amount / pm.months) AS mrr
          FROM user_subscriptions s JOIN plan_months pm ON pm.plan = s.plan_type CROSS JOIN ${pointsCovered(months, now)}
          WHERE s.user_id IS NOT NULL AND s.provider <> ${COMP_PROVIDER} AND s.price_amount IS NOT NULL AND s.price_currency IS NOT NULL
          GROUP BY 1, 2, 3),
        pairs AS (
          SELECT month, user_id, currency, sum(before) AS before, sum(after) AS after FROM (
            SELECT point AS month, user_id, currency, mrr AS before, 0 AS after FROM member_mrr WHERE point < ${months.length}::int
            UNION ALL SELECT point - 1, user_id, currency, 0, mrr FROM member_mrr WHERE point > 0) sides
          GROUP BY 1, 2, 3)
        SELECT p.month, p.currency, round(p.before)::bigint AS before, round(p.after)::bigint AS after,
          coalesce(${monthNumber(sql`f.first_paid`)} - ${base} < p.month, false) AS "paidBefore", count(*) AS members
        FROM pairs p LEFT JOIN ${firstPayments} f ON f.user_id = p.user_id
        GROUP BY 1, 2, 3, 4, 5`,
  );
  return rows.map((row) => ({ month: months[Number(row.month)]!, currency: row.currency, before: asNumber(row.before), after: asNumber(row.after), paidBefore: row.paidBefore, members: asNumber(row.members) }));
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
