// Subscription rows over time, for the Retention page (decisions 057, 059): who kept access in the
// months after their first payment, whose access ended, who paid at each month's start and what
// their plans were worth. Each row's stretch of access, from its start to its access_until
// (migration 0025's subscription_access_until), becomes the range of months it covers, so no month
// is probed row by row. What the report joins from other modules' tables (first payments from the
// orders, the cancellation flow's outcome) it hands in as SQL, so each count stays one statement.
import { sql, type SQL } from 'drizzle-orm';
import { COMP_PROVIDER } from '@shared/admin-reports';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/query';
import { isMonthStart, monthNumber, monthOf, monthsAfter, monthsFrom, monthsReached } from '../../db/utc-months';

/** When the row named `alias` stops giving access. */
const accessUntil = (alias: string) => {
  const row = sql.identifier(alias);
  return sql`subscription_access_until(${row}.is_active, ${row}.plan_type, ${row}.expires_at, ${row}.updated_at)`;
};
/** The row gives access at `at` (an SQL instant); an open row ('infinity') does while it has begun. */
const coversAt = (alias: string, at: SQL) => sql`${sql.identifier(alias)}.created_at <= ${at} AND coalesce(${accessUntil(alias)}, 'infinity'::timestamptz) > ${at}`;

/** Each member's first payment: a SELECT of user_id and first_paid, from the report. */
export type FirstPayments = SQL;

/**
 * Per month of first payment since `since`, and each whole month after it (1 up to `maxAfter`)
 * already reached by `now`: how many of those members had access then.
 */
export async function retainedAfterFirstPayment(db: Db, range: { firstPayments: FirstPayments; since: Date; now: Date; maxAfter: number }) {
  const { firstPayments, since, now, maxAfter } = range;
  const f = sql`f.first_paid`;
  const nowAt = sql`${now}::timestamptz`;
  const until = accessUntil('s');
  const firstCovered = sql`(${monthsFrom(f, sql`s.created_at`)} + CASE WHEN ${monthsAfter(f, monthsFrom(f, sql`s.created_at`))} >= s.created_at THEN 0 ELSE 1 END)`;
  const lastCovered = sql`CASE WHEN ${until} IS NOT NULL AND ${until} <= ${nowAt}
    THEN ${monthsFrom(f, until)} - CASE WHEN ${monthsAfter(f, monthsFrom(f, until))} < ${until} THEN 0 ELSE 1 END
    ELSE ${monthsReached(f, nowAt)} END`;
  const rows = await queryRows<{ cohort: string; after: number; members: string | number }>(
    db,
    sql`SELECT ${monthOf(f)} AS cohort, k.after, count(DISTINCT f.user_id) AS members
        FROM ${firstPayments} f JOIN user_subscriptions s ON s.user_id = f.user_id
        CROSS JOIN LATERAL generate_series(greatest(${firstCovered}, 1), least(${lastCovered}, ${maxAfter}::int)) AS k(after)
        WHERE f.first_paid >= ${since}::timestamptz GROUP BY 1, 2`,
  );
  return rows.map((row) => ({ cohort: row.cohort, after: Number(row.after), members: Number(row.members) }));
}

/**
 * Paid rows whose access ended since `since` (by `now`) with no other row of the member giving
 * access at that instant: the member's access ended then. Grouped by month and how the row ended,
 * with whether the member chose to cancel it (`canceledByMember`, asked of the row's provider
 * subscription id).
 */
export async function accessEndings(db: Db, range: { since: Date; now: Date; canceledByMember: (subscriptionId: SQL) => SQL<boolean> }) {
  const rows = await queryRows<{ month: string; status: string; cancelAtPeriodEnd: boolean; revokedReason: string | null; canceledByMember: boolean; members: string | number }>(
    db,
    sql`SELECT ${monthOf(sql`e.until`)} AS month, e.status, e.cancel_at_period_end AS "cancelAtPeriodEnd", e.revoked_reason AS "revokedReason",
          ${range.canceledByMember(sql`e.provider_subscription_id`)} AS "canceledByMember",
          count(*) AS members
        FROM (SELECT s.*, ${accessUntil('s')} AS until FROM user_subscriptions s
              WHERE s.user_id IS NOT NULL AND s.provider <> ${COMP_PROVIDER}
                AND ${accessUntil('s')} >= ${range.since}::timestamptz
                AND ${accessUntil('s')} <= ${range.now}::timestamptz) e
        WHERE NOT EXISTS (SELECT 1 FROM user_subscriptions o WHERE o.user_id = e.user_id AND o.id <> e.id AND ${coversAt('o', sql`e.until`)})
        GROUP BY 1, 2, 3, 4, 5`,
  );
  return rows.map((row) => ({ ...row, members: Number(row.members) }));
}

/**
 * The months a report covers: `count` calendar months from the one starting at `firstStart`. Its
 * points are their starts (0 for the first, one on for each month after) and `now` (`count`).
 */
export type ReportMonths = { firstStart: Date; count: number; now: Date };

/**
 * The points a paid row named s gives access at. A row covers the month starts from the first at
 * or after its start to the last before its end, found by month arithmetic rather than by testing
 * each point against each row.
 */
function pointsCovered({ firstStart, count, now }: ReportMonths) {
  const base = monthNumber(sql`${firstStart}::timestamptz`);
  const last = count - 1;
  const until = accessUntil('s');
  const first = sql`(${monthNumber(sql`s.created_at`)} - ${base} + CASE WHEN ${isMonthStart(sql`s.created_at`)} THEN 0 ELSE 1 END)`;
  const lastCovered = sql`CASE WHEN ${until} IS NULL THEN ${last}::int ELSE ${monthNumber(until)} - ${base} - CASE WHEN ${isMonthStart(until)} THEN 1 ELSE 0 END END`;
  const nowAt = sql`${now}::timestamptz`;
  return sql`LATERAL (SELECT generate_series(greatest(${first}, 0), least(${lastCovered}, ${last}::int)) AS point
      UNION ALL SELECT ${last + 1}::int WHERE ${coversAt('s', nowAt)}) p`;
}

/** Members with paid access at the start of each month (by its point; months without any are left out). */
export async function payingAtMonthStarts(db: Db, months: ReportMonths): Promise<{ point: number; members: number }[]> {
  const rows = await queryRows<{ point: number; members: string | number }>(
    db,
    sql`SELECT p.point, count(DISTINCT s.user_id) AS members FROM user_subscriptions s CROSS JOIN ${pointsCovered(months)}
        WHERE s.user_id IS NOT NULL AND s.provider <> ${COMP_PROVIDER} AND p.point < ${months.count}::int
        GROUP BY 1`,
  );
  return rows.map((row) => ({ point: Number(row.point), members: Number(row.members) }));
}

/**
 * Each member's monthly recurring revenue (minor units, rounded) at the start and at the end of
 * each month (by its point; its end: the next point), grouped by those two figures, with whether
 * the member had paid (`firstPayments`) before the month began. A row is worth its price columns
 * (migration 0022: the newest paid order's amount) divided by its plan's months (`planMonths`;
 * plans without a period bring none).
 */
export async function mrrAtMonthEdges(db: Db, months: ReportMonths, planMonths: readonly { plan: string; months: number }[], firstPayments: FirstPayments) {
  if (planMonths.length === 0) return [];
  const base = monthNumber(sql`${months.firstStart}::timestamptz`);
  const rows = await queryRows<{ month: number; currency: string; before: string | number; after: string | number; paidBefore: boolean; members: string | number }>(
    db,
    sql`WITH plan_months(plan, months) AS (VALUES ${sql.join(
      planMonths.map(({ plan, months: count }) => sql`(${plan}::text, ${count}::numeric)`),
      sql`, `,
    )}),
        member_mrr AS (
          SELECT p.point, s.user_id, s.price_currency AS currency, sum(s.price_amount / pm.months) AS mrr
          FROM user_subscriptions s JOIN plan_months pm ON pm.plan = s.plan_type CROSS JOIN ${pointsCovered(months)}
          WHERE s.user_id IS NOT NULL AND s.provider <> ${COMP_PROVIDER} AND s.price_amount IS NOT NULL AND s.price_currency IS NOT NULL
          GROUP BY 1, 2, 3),
        pairs AS (
          SELECT month, user_id, currency, sum(before) AS before, sum(after) AS after FROM (
            SELECT point AS month, user_id, currency, mrr AS before, 0 AS after FROM member_mrr WHERE point < ${months.count}::int
            UNION ALL SELECT point - 1, user_id, currency, 0, mrr FROM member_mrr WHERE point > 0) sides
          GROUP BY 1, 2, 3)
        SELECT p.month, p.currency, round(p.before)::bigint AS before, round(p.after)::bigint AS after,
          coalesce(${monthNumber(sql`f.first_paid`)} - ${base} < p.month, false) AS "paidBefore", count(*) AS members
        FROM pairs p LEFT JOIN ${firstPayments} f ON f.user_id = p.user_id
        GROUP BY 1, 2, 3, 4, 5`,
  );
  return rows.map((row) => ({ point: Number(row.month), currency: row.currency, before: Number(row.before), after: Number(row.after), paidBefore: row.paidBefore, members: Number(row.members) }));
}
