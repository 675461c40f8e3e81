// What the rest of the shop reads of checkout sessions (decision 065): whole reads (the unclaimed
// paid checkouts the reminder mail is for, a code's redemptions, whether an address paid before),
// and, for a report that stays one statement in its own module (the console's orders, member
// page and overview, the funnel, affiliates, exports, recovery links), SQL fragments: a session's
// e-mail, duplicate status or start by its id, the sessions started or paid since a time as a
// derived table. No module but this one names the table (checkout-sessions-reader.test.ts keeps
// it so), so what "paid" means for a session is written here once.
import { and, eq, gt, gte, inArray, isNotNull, isNull, lte, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { isPlanType, type PlanType } from '@shared/plans';
import type { Db } from '../../db/client';
import { checkoutSessions } from '../../db/schema';

/** A session the buyer paid (or that asked no payment: a free trial, a code taking it all). */
const PAID_STATUSES = ['paid', 'no_payment_required'];
const paid = sql`payment_status IN ('paid', 'no_payment_required')`;

// ---------------------------------------------------------------- fragments

/** The e-mail the session `sessionId` (a column or a value) was paid with; null without a session. */
export const checkoutEmailOf = (sessionId: SQLWrapper): SQL<string | null> =>
  sql`(SELECT session_row.email FROM checkout_sessions session_row WHERE session_row.id = ${sessionId})`.mapWith(checkoutSessions.email);

/** The duplicate-payment status of the session `sessionId` (null: not a duplicate, or no session). */
export const duplicateStatusOf = (sessionId: SQLWrapper): SQL<string | null> =>
  sql`(SELECT session_row.duplicate_status FROM checkout_sessions session_row WHERE session_row.id = ${sessionId})`.mapWith(checkoutSessions.duplicateStatus);

/** When the session `sessionId` started; null without a session. */
export const sessionCreatedAtOf = (sessionId: SQLWrapper): SQL<Date | null> =>
  sql`(SELECT session_row.created_at FROM checkout_sessions session_row WHERE session_row.id = ${sessionId})`.mapWith(checkoutSessions.createdAt);

/** The page the session `sessionId` started on (its price list); null without a session. */
export const originPageOf = (sessionId: SQLWrapper): SQL<string | null> =>
  sql`(SELECT session_row.origin_page FROM checkout_sessions session_row WHERE session_row.id = ${sessionId})`.mapWith(checkoutSessions.originPage);

/** A SELECT of the member who claimed the session `id` (one column, null while unclaimed; no row for an unknown id). */
export const claimerOfSession = (id: string): SQL => sql`SELECT claimed_by_user_id FROM checkout_sessions WHERE id = ${id}`;

/** A SELECT of the ids of the sessions a member claimed (by the claim's index). */
export const sessionsClaimedBy = (userId: string): SQL => sql`SELECT id FROM checkout_sessions WHERE claimed_by_user_id = ${userId}`;

/** How many duplicate payments were refunded, and how many wait for their refund (by the duplicate index). */
export const duplicateCounts = {
  refunded: sql`(SELECT count(*) FROM checkout_sessions WHERE duplicate_status = 'refunded')`,
  pending: sql`(SELECT count(*) FROM checkout_sessions WHERE duplicate_status = 'refund_pending')`,
};

/**
 * The checkouts started since `since`, as a derived table with `id`, `created_at`, `origin_page`,
 * `promotion_code` and `paid`; a provisional row ('creating') is a checkout the provider never opened.
 */
export const checkoutsStartedSince = (since: Date): SQL =>
  sql`(SELECT id, created_at, origin_page, promotion_code, (${paid}) AS paid FROM checkout_sessions WHERE created_at >= ${since} AND status <> 'creating')`;

/** The sessions first seen paid since `since`, as a derived table with `id` and `completed_at`. */
export const checkoutsPaidSince = (since: Date): SQL => sql`(SELECT id, completed_at FROM checkout_sessions WHERE completed_at >= ${since} AND ${paid})`;

// ---------------------------------------------------------------- whole reads

/** Paid checkouts still unclaimed `olderThanMs` after they started (and not so old that the link expired). */
export async function unclaimedPaidCheckouts(db: Db, now: Date, olderThanMs: number, notOlderThanMs: number): Promise<{ id: string; email: string; planType: PlanType }[]> {
  const rows = await db
    .select({ id: checkoutSessions.id, email: checkoutSessions.email, planType: checkoutSessions.planType })
    .from(checkoutSessions)
    .where(
      and(
        inArray(checkoutSessions.paymentStatus, PAID_STATUSES),
        isNull(checkoutSessions.claimedByUserId),
        isNotNull(checkoutSessions.email),
        lte(checkoutSessions.createdAt, new Date(now.getTime() - olderThanMs)),
        gt(checkoutSessions.createdAt, new Date(now.getTime() - notOlderThanMs)),
      ),
    );
  return rows.flatMap((row) => (row.email && isPlanType(row.planType) ? [{ id: row.id, email: row.email, planType: row.planType }] : []));
}

/** How often each code was redeemed: its paid checkouts. */
export async function redemptionCounts(db: Db, codes: readonly string[]): Promise<Map<string, number>> {
  if (codes.length === 0) return new Map();
  const rows = await db
    .select({ code: checkoutSessions.promotionCode, count: sql<number>`count(*)::int` })
    .from(checkoutSessions)
    .where(and(inArray(checkoutSessions.promotionCode, [...codes]), inArray(checkoutSessions.paymentStatus, PAID_STATUSES)))
    .groupBy(checkoutSessions.promotionCode);
  return new Map(rows.map((row) => [row.code ?? '', Number(row.count)]));
}

/** Whether the e-mail (any case) paid money for something before: a first-time code is not for it. */
export async function paidMoneyBefore(db: Db, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: checkoutSessions.id })
    .from(checkoutSessions)
    .where(and(sql`lower(${checkoutSessions.email}) = ${email.toLowerCase()}`, inArray(checkoutSessions.paymentStatus, PAID_STATUSES), sql`${checkoutSessions.amountTotal} > 0`))
    .limit(1);
  return row !== undefined;
}

/** Whether a checkout of this e-mail (as written) was paid, a free trial's included. */
export async function paidWithEmail(db: Db, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: checkoutSessions.id })
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.email, email), inArray(checkoutSessions.paymentStatus, PAID_STATUSES)))
    .limit(1);
  return row !== undefined;
}

/** Whether the lower-case `email` paid any checkout started at or after `since`. */
export async function paidSince(db: Db, email: string, since: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: checkoutSessions.id })
    .from(checkoutSessions)
    .where(and(sql`lower(${checkoutSessions.email}) = ${email}`, gte(checkoutSessions.createdAt, since), paid))
    .limit(1);
  return row !== undefined;
}
