// The read side of entitlements (decision 059): what other modules (admin, mail, content,
// retention, the integrations…) may ask about subscription rows. No file outside this module
// names user_subscriptions (one-reader.test.ts keeps it so); a module that needs another
// reading adds it here. A row's access ends at its access_until (SQL subscription_access_until,
// src/shared/access.ts accessUntil) and grants access while that lies ahead: the reads below
// ask those two, never the columns. Queries that compose these into larger ones (the console's
// member search, the overview) take SQL fragments, so each stays one statement.
import { and, count, desc, eq, inArray, isNotNull, isNull, ne, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { COMP_PROVIDER } from '@shared/admin-reports';
import type { SubscriptionAccessRow } from '@shared/tradingview-grants';
import { isPlanType, type PlanType } from '@shared/plans';
import type { PromotionDuration } from '@shared/promotions';
import type { Db } from '../../db/client';
import { preparedPerDb } from '../../db/prepared';
import { dateOrNull, queryRows } from '../../db/query';
import { user, userSubscriptions as us } from '../../db/schema';
import { checkoutEmailOf } from '../provider-records/checkout-session-reads';
import type { SubscriptionRecord } from './entitlements.repository';

// ---------------------------------------------------------------- the access rule, as SQL

/**
 * Whether the subscription row named `alias` in the surrounding query grants access at `at`: its
 * access_until lies after `at` (SQL subscription_grants_access, migrations 0051 and 0061: inlined into the query). For reports read
 * under a clock of their own, where now() would be the wrong instant.
 */
export function grantsAccessAt(alias: string, at: Date): SQL<boolean> {
  const row = sql.identifier(alias);
  return sql<boolean>`subscription_grants_access(${row}.is_active, ${row}.plan_type, ${row}.expires_at, ${at}::timestamptz)`;
}

/** The same, at the database's now(). */
function grantsAccessNow(alias: string): SQL<boolean> {
  const row = sql.identifier(alias);
  return sql<boolean>`subscription_grants_access(${row}.is_active, ${row}.plan_type, ${row}.expires_at, now())`;
}

/** A condition on one subscription row, named by `alias`; bracketed where it is used. */
export type RowCondition = (alias: string) => SQL;

/** Whether the member `member` (an SQL expression, e.g. `u.id`) has a row that matches; found by the member's index. */
export const memberHasRow = (member: SQL, condition: RowCondition) => sql`EXISTS (SELECT 1 FROM user_subscriptions s WHERE s.user_id = ${member} AND (${condition('s')}))`;

/** How many members have a row matching `own` and, with `without`, no row matching that; counted from the rows alone. */
export function membersWithRowCount(own: RowCondition, without: RowCondition | null): SQL {
  const withoutEarlier = without ? sql` AND NOT EXISTS (SELECT 1 FROM user_subscriptions e WHERE e.user_id = s.user_id AND (${without('e')}))` : sql``;
  return sql`SELECT count(DISTINCT s.user_id) FROM user_subscriptions s WHERE (${own('s')})${withoutEarlier}`;
}

/** The plan the console shows for `member`: of the row giving access, else of the newest row ('comp' for complimentary access). */
export const memberPlanShown = (member: SQL, now: Date) => sql`(SELECT CASE WHEN s.provider = ${COMP_PROVIDER} THEN 'comp' ELSE s.plan_type END FROM user_subscriptions s WHERE s.user_id = ${member}
     ORDER BY ${grantsAccessAt('s', now)} DESC, s.created_at DESC LIMIT 1)`;

/** When `member`'s first subscription row began. */
export const memberFirstSubscribedAt = (member: SQL) => sql`(SELECT min(s.created_at) FROM user_subscriptions s WHERE s.user_id = ${member})`;

/** The members whose rows carry exactly this provider reference (subscription, checkout session or customer id), as a SELECT of ids. */
export const membersByReference = (reference: string) =>
  sql`SELECT user_id FROM user_subscriptions WHERE provider_subscription_id = ${reference} OR checkout_session_id = ${reference} OR provider_customer_id = ${reference}`;

/** The member's provider subscription ids, as a SELECT (for `IN (…)`). */
export const subscriptionIdsOfMember = (userId: string) => sql`SELECT provider_subscription_id FROM user_subscriptions WHERE user_id = ${userId}::uuid`;

/** Whether the member's subscriptions give access at `at`. */
export function memberHasAccessAt(userId: SQL | string, at: Date): SQL<boolean> {
  return sql<boolean>`exists (select 1 from user_subscriptions s where s.user_id = ${userId} and ${grantsAccessAt('s', at)})`;
}

/** The plans the member holds with access now, as an array (null: none). */
export const accessPlansOfMember = (userId: string) =>
  sql`(SELECT array_agg(DISTINCT s.plan_type) FROM user_subscriptions s WHERE s.user_id = ${userId}::uuid AND ${grantsAccessNow('s')})`;

/** The members with access now to any of `plans` (all plans when empty), as a SELECT of distinct user_id. */
export function membersWithAccessTo(plans: readonly string[]): SQL {
  return sql`SELECT DISTINCT s.user_id FROM user_subscriptions s
    WHERE s.user_id IS NOT NULL
      AND ${grantsAccessNow('s')}
      AND (${plans.length === 0} OR s.plan_type = ANY(${sql.raw(`ARRAY[${plans.map((plan) => `'${plan.replace(/'/g, "''")}'`).join(',') || "''"}]::text[]`)}))`;
}

/**
 * The row that gives `member` (an SQL expression, e.g. `u.id`) access at `at` and lasts longest
 * (an open one first), as a subquery of plan_type, status, provider, expires_at and
 * cancel_at_period_end, for `LEFT JOIN LATERAL … ON true` (the member export).
 */
export const longestAccessRowOf = (member: SQL, at: Date) => sql`(SELECT s.plan_type, s.status, s.provider, s.expires_at, s.cancel_at_period_end FROM user_subscriptions s
  WHERE s.user_id = ${member} AND ${grantsAccessAt('s', at)} ORDER BY s.expires_at DESC NULLS FIRST LIMIT 1)`;

/**
 * Members whose access ended (their last bought plan's end, comp access aside) in (`from`, `to`]
 * and who have no access at `now`, as a SELECT of user_id and ended_at (the win-back mail's
 * audience). Lifetime rows never end: their member always has access.
 */
export function membersChurnedBetween(from: Date, to: Date, now: Date): SQL {
  const boughtEnd = sql`max(s.expires_at) FILTER (WHERE s.provider <> ${COMP_PROVIDER})`;
  return sql`SELECT s.user_id, ${boughtEnd} AS ended_at FROM user_subscriptions s
    WHERE s.user_id IN (SELECT user_id FROM user_subscriptions WHERE user_id IS NOT NULL AND expires_at > ${from} AND expires_at <= ${to})
    GROUP BY s.user_id
    HAVING NOT bool_or(${grantsAccessAt('s', now)}) AND ${boughtEnd} > ${from} AND ${boughtEnd} <= ${to}`;
}

/**
 * Members with access at `now` that began after `since` (a plan change keeps its start: the
 * earliest row still granting access), as a SELECT of user_id and started_at (the set-up reminders'
 * audience).
 */
export const membersWithAccessSince = (since: Date, now: Date) => sql`SELECT s.user_id, min(s.created_at) AS started_at FROM user_subscriptions s
  WHERE s.user_id IN (SELECT user_id FROM user_subscriptions WHERE user_id IS NOT NULL AND created_at > ${since})
    AND ${grantsAccessAt('s', now)}
  GROUP BY s.user_id
  HAVING min(s.created_at) > ${since}`;

/** Whether the provider subscription `subscriptionId` (an SQL column) still renews: not canceled, not set to end. */
export const subscriptionStillRenews = (subscriptionId: SQL | AnyColumn) =>
  sql<boolean>`EXISTS (SELECT 1 FROM user_subscriptions s WHERE s.provider_subscription_id = ${subscriptionId} AND NOT s.cancel_at_period_end AND s.status <> 'canceled')`;

/**
 * Each member's row as a stretch of access `[from, until)`: from its start until its
 * access_until (migration 0025's subscription_access_until, which its index and the trigger keeping
 * member_counts_by_day right use too); open (null) while it never ends.
 */
export const accessSpans = sql`(SELECT user_id, created_at AS "from", subscription_access_until(is_active, plan_type, expires_at, updated_at) AS "until"
  FROM user_subscriptions WHERE user_id IS NOT NULL)`;

/** Members whose renewal failed and who still hold access (one per member; unclaimed rows count one each). */
export const failedRenewalsCount = sql`(SELECT count(DISTINCT coalesce(user_id::text, id::text)) FROM user_subscriptions WHERE status = 'past_due' AND is_active)`;

// ---------------------------------------------------------------- one member

/**
 * Whether the member with this e-mail had a plan once and has no access at `now`: whom a
 * churned-only (win-back) code is for. A buyer with no account never had access.
 */
export async function accessEndedFor(db: Db, email: string, now: Date): Promise<boolean> {
  const [row] = await queryRows<{ ended: boolean }>(
    db,
    sql`SELECT EXISTS (SELECT 1 FROM user_subscriptions s JOIN "user" u ON u.id = s.user_id WHERE lower(u.email) = ${email.toLowerCase()})
          AND NOT EXISTS (SELECT 1 FROM user_subscriptions s JOIN "user" u ON u.id = s.user_id WHERE lower(u.email) = ${email.toLowerCase()} AND ${grantsAccessAt('s', now)}) AS ended`,
  );
  return row?.ended === true;
}

/** A member's rows, newest first, as stored (the console's member page, support actions). */
export async function subscriptionsOf(db: Db, userId: string): Promise<SubscriptionRecord[]> {
  return db.select().from(us).where(eq(us.userId, userId)).orderBy(desc(us.createdAt));
}

/** Rows of the member that are switched on (the operator's revoke switches these off). */
export async function switchedOnRowIds(db: Db, userId: string): Promise<string[]> {
  const rows = await db.select({ id: us.id }).from(us).where(and(eq(us.userId, userId), eq(us.isActive, true)));
  return rows.map((row) => row.id);
}

/** The columns of a subscription that the access rule and the TradingView grants read. */
const ACCESS_COLUMNS = { planType: us.planType, isActive: us.isActive, expiresAt: us.expiresAt };

const accessRowsOf = preparedPerDb((db) =>
  db.select(ACCESS_COLUMNS).from(us).where(eq(us.userId, sql.placeholder('userId'))).orderBy(desc(us.createdAt)).prepare('subscription_access_rows'),
);

/** A member's rows as the access rule reads them, newest first. */
export async function accessRowsOfMember(db: Db, userId: string): Promise<SubscriptionAccessRow[]> {
  return accessRowsOf(db).execute({ userId });
}

/**
 * The same rows as a JSON array, for a statement that reads them with other things (the grant
 * reconciler's sync reads them with the member's lock): `userId` names the member in the
 * surrounding query. accessRowsFromJson reads the array back.
 */
export function accessRowsJson(userId: SQL): SQL<unknown> {
  return sql`coalesce((SELECT json_agg(json_build_object('planType', s.plan_type, 'isActive', s.is_active, 'expiresAt', s.expires_at) ORDER BY s.created_at DESC)
                         FROM ${us} s WHERE s.user_id = ${userId}), '[]'::json)`;
}

type AccessRowJson = Omit<SubscriptionAccessRow, 'expiresAt'> & { expiresAt: string | null };

export function accessRowsFromJson(value: unknown): SubscriptionAccessRow[] {
  return (value as AccessRowJson[]).map((row) => ({ ...row, expiresAt: dateOrNull(row.expiresAt) }));
}

/** Several members' rows as the access rule reads them, newest first. */
export async function accessRowsOfMembers(db: Db, userIds: readonly string[]): Promise<(SubscriptionAccessRow & { userId: string | null })[]> {
  if (userIds.length === 0) return [];
  return db.select({ userId: us.userId, ...ACCESS_COLUMNS }).from(us).where(inArray(us.userId, [...userIds])).orderBy(desc(us.createdAt));
}

export type MemberSubscriptions = { userId: string; email: string; rows: SubscriptionAccessRow[] };

/** Each member's rows as the access rule reads them (members without any are left out). */
export async function membersSubscriptions(db: Db): Promise<MemberSubscriptions[]> {
  const rows = await db.select({ userId: user.id, email: user.email, ...ACCESS_COLUMNS }).from(us).innerJoin(user, eq(user.id, us.userId));
  const members = new Map<string, MemberSubscriptions>();
  for (const { userId, email, ...row } of rows) {
    const member = members.get(userId) ?? { userId, email, rows: [] };
    member.rows.push(row);
    members.set(userId, member);
  }
  return [...members.values()];
}

/** Members with a row of any of these plans (whose bundle a catalog change moves). */
export async function membersOnPlans(db: Db, plans: readonly PlanType[]): Promise<string[]> {
  if (plans.length === 0) return [];
  const rows = await db.selectDistinct({ userId: us.userId }).from(us).where(inArray(us.planType, [...plans]));
  return rows.flatMap((row) => (row.userId ? [row.userId] : []));
}

/** The member's subscription at `provider` that still renews (paused ones too), newest first. */
export async function renewingSubscriptionOf(db: Db, userId: string, provider: string) {
  const [row] = await db
    .select({ id: us.id, planType: us.planType, providerSubscriptionId: us.providerSubscriptionId, cancelAtPeriodEnd: us.cancelAtPeriodEnd, collectionPaused: us.collectionPaused, expiresAt: us.expiresAt })
    .from(us)
    .where(and(eq(us.userId, userId), eq(us.provider, provider), isNotNull(us.providerSubscriptionId), ne(us.status, 'canceled'), isNull(us.revokedReason)))
    .orderBy(desc(us.createdAt))
    .limit(1);
  return row ?? null;
}

/** The member's own provider subscriptions (at most 5). */
export async function ownSubscriptionIds(db: Db, userId: string): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(db, sql`SELECT DISTINCT provider_subscription_id AS id FROM user_subscriptions WHERE user_id = ${userId} AND provider_subscription_id IS NOT NULL LIMIT 5`);
  return rows.map((row) => row.id);
}

/**
 * Every customer id of the member's purchases at this provider (a lifetime purchase and a later
 * subscription may have made two), in the mode the provider runs in: ids of the other Stripe mode
 * are unknown to it.
 */
export async function customerIdsOfUser(db: Db, userId: string, provider: { kind: string; livemode: boolean }): Promise<string[]> {
  const rows = await db
    .selectDistinct({ customerId: us.providerCustomerId })
    .from(us)
    .where(and(eq(us.userId, userId), eq(us.provider, provider.kind), isNotNull(us.providerCustomerId), or(isNull(us.providerLivemode), eq(us.providerLivemode, provider.livemode))));
  return rows.flatMap((row) => (row.customerId ? [row.customerId] : []));
}

/** Whom to tell about a provider subscription: its member, or the e-mail that paid for it while unclaimed. */
export async function recipientOfSubscription(db: Db, subscriptionId: string): Promise<{ email: string; planType: PlanType } | null> {
  const [row] = await db
    .select({ memberEmail: user.email, paidEmail: checkoutEmailOf(us.checkoutSessionId), planType: us.planType })
    .from(us)
    .leftJoin(user, eq(user.id, us.userId))
    .where(eq(us.providerSubscriptionId, subscriptionId))
    .limit(1);
  const email = row?.memberEmail ?? row?.paidEmail ?? null;
  return row && email && isPlanType(row.planType) ? { email, planType: row.planType } : null;
}

// ---------------------------------------------------------------- many members

/** Sandbox subscriptions with a customer (whose portal can renew them now), newest first. */
export async function sandboxSubscriptions(db: Db, limit: number) {
  return db
    .select({ email: user.email, planType: us.planType, status: us.status, customerId: us.providerCustomerId })
    .from(us)
    .leftJoin(user, eq(user.id, us.userId))
    .where(and(eq(us.provider, 'sandbox'), isNotNull(us.providerCustomerId)))
    .orderBy(desc(us.createdAt))
    .limit(limit);
}

/** Subscriptions whose renewal payment failed and that the provider still retries or gave up on. */
export async function failedRenewals(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(us)
    .where(and(inArray(us.status, ['past_due', 'unpaid']), isNotNull(us.userId)));
  return row?.n ?? 0;
}

const reportPlan = sql`CASE WHEN s.provider = ${COMP_PROVIDER} THEN 'comp' ELSE s.plan_type END`;

/**
 * Members with access now per plan (comp its own), each member once a plan: distinct pairs first,
 * grouped in the member order user_subscriptions_access_idx already reads them in (each member's
 * few rows sorted by plan), where hashing 74,000 pairs spilled to disk (155 → 118 ms at 100,000
 * members on a loaded machine).
 */
export async function activeMembersByPlan(db: Db, now: Date): Promise<{ plan: string; members: number }[]> {
  const rows = await queryRows<{ plan: string; members: string | number }>(
    db,
    sql`SELECT plan, count(*) AS members FROM (
          SELECT s.user_id, ${reportPlan} AS plan
          FROM user_subscriptions s WHERE s.user_id IS NOT NULL AND ${grantsAccessAt('s', now)}
          GROUP BY 1, 2 ORDER BY 1, 2
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
        WHERE ${grantsAccessAt('s', now)} AND s.status IN ('active', 'trialing') AND NOT s.cancel_at_period_end AND s.provider <> ${COMP_PROVIDER}
        GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12`,
  );
  return rows.map(({ amountDiscount, percentOff, amountOff, couponCurrency, duration, durationInMonths, since, renewsAt, count, ...row }) => ({
    ...row,
    renewsAt: dateOrNull(renewsAt),
    discount:
      duration && since !== null
        ? { amount: amountDiscount ?? 0, percentOff, amountOff, currency: couponCurrency, duration, durationInMonths, since: new Date(since) }
        : null,
    // a bigint string from pg
    count: Number(count),
  }));
}

/** The statuses of a subscription that still renews (a price move asks its provider about these). */
export const RENEWING_STATUSES = ['active', 'trialing', 'past_due'];

/**
 * The renewing subscriptions of `plan` at `provider` whose last payment was not `amount`: the
 * members a price move (decision 058) asks the provider about, with the e-mail its mail goes to.
 */
export async function renewingAtAnotherAmount(db: Db, plan: string, provider: string, amount: number) {
  return db
    .select({ rowId: us.id, userId: us.userId, subscriptionId: us.providerSubscriptionId, email: user.email })
    .from(us)
    .innerJoin(user, eq(user.id, us.userId))
    .where(and(eq(us.planType, plan), eq(us.provider, provider), inArray(us.status, RENEWING_STATUSES), isNotNull(us.providerSubscriptionId), ne(sql`coalesce(${us.priceAmount}, -1)`, amount)));
}
