// The console's reads and writes about members: search, one member's records, comp access.
// The only Drizzle user of the admin module's member queries.
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { COMP_PROVIDER } from '@shared/admin-reports';
import type { MemberListQuery, MemberStatus } from '@shared/admin-contract';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/query';
import { orders, securityEvents, tradingviewGrants, tradingviewShopAccess, user } from '../../db/schema';
import { claimerOfSession, duplicateStatusOf, sessionsClaimedBy } from '../provider-records/checkout-session-reads';
import { grantsAccessAt, memberFirstSubscribedAt, memberHasRow, memberPlanShown, membersByReference, membersWithRowCount, type RowCondition } from '../entitlements/entitlement-reads';

/**
 * What decides a member's standing, in the order the console asks about it (a failing renewal
 * first): a row of the member's that matches, as a condition on the row named by `alias`.
 */
const standingRows = (now: Date) => {
  const access: RowCondition = (alias) => grantsAccessAt(alias, now);
  return [
    ['past_due', (alias) => sql`${sql.identifier(alias)}.status = 'past_due' AND ${access(alias)}`],
    ['active', (alias) => sql`${sql.identifier(alias)}.provider <> ${COMP_PROVIDER} AND ${access(alias)}`],
    ['comp', access],
    ['churned', () => sql`true`],
  ] as const satisfies readonly (readonly [MemberStatus, RowCondition])[];
};

/** A row of the member's (`u`) that matches, looked up by the member's index. */
const hasRow = (condition: RowCondition) => memberHasRow(sql`u.id`, condition);

const memberStatus = (now: Date) =>
  sql`CASE ${sql.join(
    standingRows(now).map(([status, condition]) => sql`WHEN ${hasRow(condition)} THEN ${status}`),
    sql` `,
  )} ELSE 'none' END`;

/**
 * A standing as the row conditions it takes: a row of the standing (none has no such row) and no
 * row of an earlier one (past due has no earlier one). The earlier ones are asked as one condition,
 * so that a member is looked up once for all of them (one anti join, not one per standing).
 */
function standingConditions(status: MemberStatus, now: Date): { own: RowCondition | null; earlier: RowCondition | null } {
  const ordered = standingRows(now);
  const index = ordered.findIndex(([name]) => name === status);
  const earlier = index < 0 ? ordered : ordered.slice(0, index);
  return {
    own: index < 0 ? null : ordered[index]![1],
    earlier: earlier.length ? (alias) => sql.join(earlier.map(([, condition]) => sql`(${condition(alias)})`), sql` OR `) : null,
  };
}

/**
 * The members of one standing, as conditions on `u` the database can answer as a whole (semi and
 * anti joins on the rows that may give access) rather than one member's CASE at a time.
 */
function hasStanding(status: MemberStatus, now: Date): SQL {
  const { own, earlier } = standingConditions(status, now);
  const parts = [earlier ? sql`NOT ${hasRow(earlier)}` : null, own ? hasRow(own) : null].filter((part) => part !== null);
  return sql.join(parts, sql` AND `);
}

/**
 * How many members have a standing, counted from the rows alone: the members of a row of the
 * standing with no row of an earlier one. hasStanding finds the same members (a row's member
 * exists: a foreign key) but joins all 100,000 members to the rows twice to count them.
 * None, which no row shows, is left to hasStanding.
 */
function standingCount(status: MemberStatus, now: Date): SQL | null {
  const { own, earlier } = standingConditions(status, now);
  if (!own) return null;
  return membersWithRowCount(own, earlier);
}

/** The plan the list shows: of the row giving access, else of the newest row. */
const planOf = (now: Date) => memberPlanShown(sql`u.id`, now);

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

export type MemberListRow = { id: string; email: string; createdAt: Date; tradingviewUsername: string | null; status: MemberStatus; plan: string | null };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The ids of the members `q` finds: part of the e-mail or of a TradingView username the member
 * uses or used (linked or granted), or exactly an order: checkout session, provider subscription,
 * customer or payment id, order id. Each branch reads one table, by an index where it is exact,
 * so a search costs a few scans of name columns, never a pass over every member's records.
 */
function membersMatching(q: string) {
  const like = `%${escapeLike(q.toLowerCase())}%`;
  const orderId = UUID.test(q) ? q : null;
  return sql`SELECT id FROM "user" WHERE lower(email) LIKE ${like}
    UNION SELECT user_id FROM tradingview_usernames WHERE lower(username) LIKE ${like}
    UNION SELECT user_id FROM tradingview_grants WHERE lower(username) LIKE ${like}
    UNION ${membersByReference(q)}
    UNION SELECT user_id FROM orders WHERE id = ${orderId}::uuid OR checkout_session_id = ${q} OR provider_payment_id = ${q}
      OR provider_payment_intent_id = ${q} OR provider_subscription_id = ${q}
    UNION ${claimerOfSession(q)}`;
}

/** The list's columns of the members `u` names (standing and plan as of `now`). */
const memberColumns = (now: Date) => sql`u.id, u.email, u.created_at AS "createdAt",
  (SELECT n.username FROM tradingview_usernames n WHERE n.user_id = u.id AND n.replaced_at IS NULL) AS "tradingviewUsername",
  ${memberStatus(now)} AS status, ${planOf(now)} AS plan`;

type ListedRow = MemberListRow & { total: string | number; createdAt: Date | string };

/**
 * One page of members, newest accounts first, found by `q` (membersMatching) and filtered by
 * standing, plan and first subscription; the total counts the same members. Only the page's
 * members have their standing and plan worked out for showing; a standing filter is a set of
 * members the database finds through the rows that may give access (user_subscriptions_access_idx),
 * and a standing alone is counted from the rows (standingCount). The members `q` finds are looked
 * up once for the page and its total (its trigram scans cost the most of a search).
 */
export async function searchMembers(db: Db, query: MemberListQuery, pageSize: number, now: Date): Promise<{ rows: MemberListRow[]; total: number }> {
  const q = query.q?.trim() ?? '';
  const conditions = [
    q ? sql`u.id IN (SELECT id FROM found)` : null,
    query.status === undefined ? null : hasStanding(query.status, now),
    query.plan === undefined ? null : sql`${planOf(now)} = ${query.plan}`,
    query.since === undefined ? null : sql`${memberFirstSubscribedAt(sql`u.id`)} >= ${query.since}::date`,
  ].filter((condition) => condition !== null);
  const scope = conditions.length ? sql.join(conditions, sql` AND `) : sql`true`;
  const total = (query.status !== undefined && conditions.length === 1 && standingCount(query.status, now)) || sql`SELECT count(*) FROM "user" u WHERE ${scope}`;
  const offset = (query.page - 1) * pageSize;
  const rows = await queryRows<ListedRow>(
    db,
    sql`${q ? sql`WITH found AS MATERIALIZED (${membersMatching(q)}) ` : sql``}
        SELECT ${memberColumns(now)}, (${total}) AS total
        FROM (SELECT * FROM "user" u WHERE ${scope} ORDER BY u.created_at DESC, u.id LIMIT ${pageSize} OFFSET ${offset}) u
        ORDER BY u.created_at DESC, u.id`,
  );
  return {
    rows: rows.map(({ total: _total, ...row }) => ({ ...row, createdAt: new Date(row.createdAt) })),
    total: Number(rows[0]?.total ?? 0),
  };
}

export async function memberStatusOf(db: Db, userId: string, now: Date): Promise<MemberStatus> {
  const [row] = await queryRows<{ status: MemberStatus }>(db, sql`SELECT ${memberStatus(now)} AS status FROM "user" u WHERE u.id = ${userId}::uuid`);
  return row?.status ?? 'none';
}

export async function findMember(db: Db, userId: string) {
  const [row] = await db
    .select({ id: user.id, email: user.email, name: user.name, createdAt: user.createdAt, emailVerified: user.emailVerified })
    .from(user)
    .where(eq(user.id, userId))
    .limit(1);
  return row ?? null;
}

/**
 * The member's orders, and those of checkouts they claimed (an order is written before the claim).
 * Found by each branch's index and united: an OR across the join read every order (100,000 members).
 */
export async function ordersOf(db: Db, userId: string) {
  const ids = sql`SELECT id FROM orders WHERE user_id = ${userId}
    UNION SELECT o.id FROM orders o WHERE o.checkout_session_id IN (${sessionsClaimedBy(userId)})`;
  return db
    .select({
      id: orders.id,
      planType: orders.planType,
      amount: orders.amount,
      currency: orders.currency,
      status: orders.status,
      providerPaymentId: orders.providerPaymentId,
      checkoutSessionId: orders.checkoutSessionId,
      duplicateStatus: duplicateStatusOf(orders.checkoutSessionId),
      createdAt: orders.createdAt,
    })
    .from(orders)
    .where(sql`${orders.id} IN (${ids})`)
    .orderBy(desc(orders.createdAt));
}

export async function grantsOf(db: Db, userId: string) {
  return db.select().from(tradingviewGrants).where(eq(tradingviewGrants.userId, userId)).orderBy(asc(tradingviewGrants.createdAt));
}

export async function shopAccessOf(db: Db, usernames: string[]) {
  if (usernames.length === 0) return [];
  return db
    .select()
    .from(tradingviewShopAccess)
    .where(inArray(tradingviewShopAccess.username, usernames.map((name) => name.toLowerCase())));
}

export async function securityEventsOf(db: Db, userId: string, limit: number) {
  return db.select().from(securityEvents).where(eq(securityEvents.userId, userId)).orderBy(desc(securityEvents.createdAt)).limit(limit);
}

/** The member's newest paid order with the payment it was paid by (what a ban may refund). */
export async function lastPaidOrder(db: Db, userId: string) {
  const [row] = await db
    .select({ id: orders.id, amount: orders.amount, currency: orders.currency, paymentId: sql<string | null>`COALESCE(${orders.providerPaymentIntentId}, ${orders.providerPaymentId})` })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.status, 'paid'), sql`${orders.amount} > 0`))
    .orderBy(desc(orders.createdAt))
    .limit(1);
  return row?.paymentId ? { ...row, paymentId: row.paymentId } : null;
}
