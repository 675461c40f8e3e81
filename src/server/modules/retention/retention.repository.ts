// The cancellation flow's tables: the offers per reason, and the cancellations members went
// through. Each function is one statement; the service decides.
import { and, count, desc, eq, gt, gte, lte } from 'drizzle-orm';
import { CANCELLATION_REASONS, type CancellationOutcome, type CancellationReason, type RetentionOffer, type RetentionOffers } from '@shared/retention';
import type { PlanType } from '@shared/plans';
import type { Db } from '../../db/client';
import { cancellations, retentionOffers, user } from '../../db/schema';
import { subscriptionStillRenews } from '../entitlements/entitlement-reads';

export type CancellationRow = typeof cancellations.$inferSelect;

export async function readOffers(db: Db): Promise<RetentionOffers> {
  const rows = await db.select().from(retentionOffers);
  const offers = Object.fromEntries(CANCELLATION_REASONS.map((reason) => [reason, null])) as RetentionOffers;
  for (const row of rows) {
    if (row.kind === 'pause' && row.pauseMonths !== null) offers[row.reason] = { kind: 'pause', months: row.pauseMonths };
    if (row.kind === 'discount' && row.percentOff !== null && row.periods !== null) offers[row.reason] = { kind: 'discount', percentOff: row.percentOff, periods: row.periods };
  }
  return offers;
}

/** Replaces every reason's offer in one transaction (a reason set to null has none). */
export async function writeOffers(db: Db, offers: RetentionOffers, operator: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(retentionOffers);
    const rows = CANCELLATION_REASONS.flatMap((reason) => {
      const offer: RetentionOffer | null = offers[reason];
      if (!offer) return [];
      return [
        offer.kind === 'pause'
          ? { reason, kind: 'pause' as const, pauseMonths: offer.months, percentOff: null, periods: null, updatedBy: operator, updatedAt: now }
          : { reason, kind: 'discount' as const, percentOff: offer.percentOff, periods: offer.periods, pauseMonths: null, updatedBy: operator, updatedAt: now },
      ];
    });
    if (rows.length > 0) await tx.insert(retentionOffers).values(rows);
  });
}


export async function discountUsed(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.select({ id: cancellations.id }).from(cancellations).where(and(eq(cancellations.userId, userId), eq(cancellations.outcome, 'discount'))).limit(1);
  return row !== undefined;
}

/** The member's pause that has not resumed by `now`, if any. */
export async function runningPause(db: Db, userId: string, now: Date): Promise<CancellationRow | null> {
  const [row] = await db
    .select()
    .from(cancellations)
    .where(and(eq(cancellations.userId, userId), eq(cancellations.outcome, 'pause'), eq(cancellations.state, 'done'), gt(cancellations.pauseResumesAt, now)))
    .orderBy(desc(cancellations.createdAt))
    .limit(1);
  return row ?? null;
}

export type NewCancellation = {
  userId: string;
  provider: string;
  providerSubscriptionId: string;
  planType: PlanType;
  reason: CancellationReason;
  reasonText: string | null;
  offer: RetentionOffer | null;
  outcome: CancellationOutcome;
  pauseMonths: number | null;
  pauseAccessUntil: Date | null;
  pauseResumesAt: Date | null;
  createdAt: Date;
};

/**
 * The choice, pending while the provider is asked. null when refused by the indexes: another
 * choice for this subscription is in flight, or (a discount) the member had one already.
 */
export async function beginCancellation(db: Db, row: NewCancellation): Promise<{ id: string } | { conflict: 'pending' | 'discount_used' }> {
  try {
    const [inserted] = await db.insert(cancellations).values(row).returning({ id: cancellations.id });
    return inserted!;
  } catch (error) {
    const text = String((error as { cause?: unknown })?.cause ?? '') + String((error as Error)?.message ?? '');
    if (text.includes('cancellations_discount_once')) return { conflict: 'discount_used' };
    if (text.includes('cancellations_pending_one')) return { conflict: 'pending' };
    throw error;
  }
}

export async function finishCancellation(db: Db, id: string): Promise<void> {
  await db.update(cancellations).set({ state: 'done' }).where(eq(cancellations.id, id));
}

/** The provider refused: the choice was not made, so it is not kept (the member may try again). */
export async function dropCancellation(db: Db, id: string): Promise<void> {
  await db.delete(cancellations).where(eq(cancellations.id, id));
}

const entryColumns = {
  id: cancellations.id,
  userId: cancellations.userId,
  email: user.email,
  planType: cancellations.planType,
  reason: cancellations.reason,
  text: cancellations.reasonText,
  outcome: cancellations.outcome,
  offer: cancellations.offer,
  pauseMonths: cancellations.pauseMonths,
  pauseResumesAt: cancellations.pauseResumesAt,
  createdAt: cancellations.createdAt,
};

/** The console's list: the newest `limit` cancellations since `since` (one member's with userId). */
export async function recentCancellations(db: Db, since: Date, limit: number, userId?: string) {
  return db
    .select(entryColumns)
    .from(cancellations)
    .innerJoin(user, eq(user.id, cancellations.userId))
    .where(and(eq(cancellations.state, 'done'), gte(cancellations.createdAt, since), userId ? eq(cancellations.userId, userId) : undefined))
    .orderBy(desc(cancellations.createdAt))
    .limit(limit);
}

/** Counts per reason and outcome since `since`. */
export async function cancellationCounts(db: Db, since: Date, userId?: string) {
  return db
    .select({ reason: cancellations.reason, outcome: cancellations.outcome, n: count() })
    .from(cancellations)
    .where(and(eq(cancellations.state, 'done'), gte(cancellations.createdAt, since), userId ? eq(cancellations.userId, userId) : undefined))
    .groupBy(cancellations.reason, cancellations.outcome);
}

export async function pausedNowCount(db: Db, now: Date, userId?: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(cancellations)
    .where(and(eq(cancellations.outcome, 'pause'), eq(cancellations.state, 'done'), lte(cancellations.pauseAccessUntil, now), gt(cancellations.pauseResumesAt, now), userId ? eq(cancellations.userId, userId) : undefined));
  return row?.n ?? 0;
}

/**
 * Pauses that resume within `withinMs` of `now`, with the member's address: each gets one notice;
 * not those whose plan was canceled since (nothing will resume).
 */
export async function pausesResumingSoon(db: Db, now: Date, withinMs: number) {
  return db
    .select({ id: cancellations.id, email: user.email, planType: cancellations.planType, resumesAt: cancellations.pauseResumesAt })
    .from(cancellations)
    .innerJoin(user, eq(user.id, cancellations.userId))
    .where(
      and(
        eq(cancellations.outcome, 'pause'),
        eq(cancellations.state, 'done'),
        gt(cancellations.pauseResumesAt, now),
        lte(cancellations.pauseResumesAt, new Date(now.getTime() + withinMs)),
        subscriptionStillRenews(cancellations.providerSubscriptionId),
      ),
    )
    .limit(500);
}

