// The reads behind the lifecycle mails that are mail's own: who is due a "finish setting up"
// reminder at `now`, and a member's address. Whose access ends or ended, and whom to write about a
// subscription, are entitlements' reads (entitlement-reads.ts). Each mail is written as an outbox
// intent with a dedupe key, so several instances write each mail once.
import { and, eq, gt, inArray, isNotNull, isNull, lte } from 'drizzle-orm';
import { isPlanType, type PlanType } from '@shared/plans';
import type { Db } from '../../db/client';
import { checkoutSessions, user } from '../../db/schema';

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

export async function emailOfUser(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ email: user.email }).from(user).where(eq(user.id, userId)).limit(1);
  return row?.email ?? null;
}
