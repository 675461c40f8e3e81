// The reads behind the lifecycle mails: who is due a reminder, an "access ends" or an "access
// ended" mail at `now`, and whom to write about a subscription or a grant. Each mail is written
// as an outbox intent with a dedupe key, so several instances write each mail once.
import { and, eq, gt, inArray, isNotNull, isNull, lte, ne, notExists, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { COMP_PROVIDER } from '@shared/admin-reports';
import { isPlanType, type PlanType } from '@shared/plans';
import type { Db } from '../../db/client';
import { subscriptionGrantsAccessAt } from '../access/access.repository';
import { checkoutSessions, user, userSubscriptions } from '../../db/schema';

const PAID = ['paid', 'no_payment_required'];

/** Paid checkouts still unclaimed `olderThanMs` after they started (and not so old that the link expired). */
export async function unclaimedPaidCheckouts(db: Db, now: Date, olderThanMs: number, notOlderThanMs: number): Promise<{ id: string; email: string; planType: PlanType }[]> {
  const rows = await db
    .select({ id: checkoutSessions.id, email: checkoutSessions.email, planType: checkoutSessions.planType })
    .from(checkoutSessions)
    .where(
      and(
        inArray(checkoutSessions.paymentStatus, PAID),
        isNull(checkoutSessions.claimedByUserId),
        isNotNull(checkoutSessions.email),
        lte(checkoutSessions.createdAt, new Date(now.getTime() - olderThanMs)),
        gt(checkoutSessions.createdAt, new Date(now.getTime() - notOlderThanMs)),
      ),
    );
  return rows.flatMap((row) => (row.email && isPlanType(row.planType) ? [{ id: row.id, email: row.email, planType: row.planType }] : []));
}

/** `complimentary`: access an operator gave (stored as a monthly row that will not renew), not a plan that was bought. */
export type EndingPlan = { rowId: string; email: string; planType: PlanType; expiresAt: Date; complimentary: boolean };

const canceledRecurring = and(
  isNotNull(userSubscriptions.userId),
  ne(userSubscriptions.planType, 'lifetime'),
  isNotNull(userSubscriptions.expiresAt),
  or(eq(userSubscriptions.cancelAtPeriodEnd, true), eq(userSubscriptions.status, 'canceled')),
);

function asEnding(rows: { rowId: string; email: string; planType: string; provider: string; expiresAt: Date | null }[]): EndingPlan[] {
  return rows.flatMap(({ provider, ...row }) =>
    row.expiresAt && isPlanType(row.planType) ? [{ ...row, planType: row.planType, expiresAt: row.expiresAt, complimentary: provider === COMP_PROVIDER }] : [],
  );
}

const endingColumns = {
  rowId: userSubscriptions.id,
  email: user.email,
  planType: userSubscriptions.planType,
  provider: userSubscriptions.provider,
  expiresAt: userSubscriptions.expiresAt,
};

/** Canceled plans and comp access that still grant access and end within `withinMs` of `now`. */
export async function plansEndingSoon(db: Db, now: Date, withinMs: number): Promise<EndingPlan[]> {
  const rows = await db
    .select(endingColumns)
    .from(userSubscriptions)
    .innerJoin(user, eq(user.id, userSubscriptions.userId))
    .where(and(canceledRecurring, eq(userSubscriptions.isActive, true), gt(userSubscriptions.expiresAt, now), lte(userSubscriptions.expiresAt, new Date(now.getTime() + withinMs))));
  return asEnding(rows);
}

/**
 * Canceled plans that ended in the last `sinceMs` and left their member with no access at all
 * (a member who moved to another plan or bought lifetime is not told "access ended").
 */
export async function plansJustEnded(db: Db, now: Date, sinceMs: number): Promise<EndingPlan[]> {
  const other = alias(userSubscriptions, 'other');
  const rows = await db
    .select(endingColumns)
    .from(userSubscriptions)
    .innerJoin(user, eq(user.id, userSubscriptions.userId))
    .where(
      and(
        canceledRecurring,
        lte(userSubscriptions.expiresAt, now),
        gt(userSubscriptions.expiresAt, new Date(now.getTime() - sinceMs)),
        notExists(
          db
            .select({ one: sql`1` })
            .from(other)
            .where(
              and(
                eq(other.userId, userSubscriptions.userId),
                subscriptionGrantsAccessAt('other', now),
              ),
            ),
        ),
      ),
    );
  return asEnding(rows);
}

export async function emailOfUser(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ email: user.email }).from(user).where(eq(user.id, userId)).limit(1);
  return row?.email ?? null;
}

/** Whom to tell about a provider subscription: its member, or the e-mail that paid for it while unclaimed. */
export async function recipientOfSubscription(db: Db, subscriptionId: string): Promise<{ email: string; planType: PlanType } | null> {
  const [row] = await db
    .select({ memberEmail: user.email, paidEmail: checkoutSessions.email, planType: userSubscriptions.planType })
    .from(userSubscriptions)
    .leftJoin(user, eq(user.id, userSubscriptions.userId))
    .leftJoin(checkoutSessions, eq(checkoutSessions.id, userSubscriptions.checkoutSessionId))
    .where(eq(userSubscriptions.providerSubscriptionId, subscriptionId))
    .limit(1);
  const email = row?.memberEmail ?? row?.paidEmail ?? null;
  return row && email && isPlanType(row.planType) ? { email, planType: row.planType } : null;
}
