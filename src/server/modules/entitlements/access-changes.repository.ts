// The access changes the core records and their delivery rows (an outbox per subscriber).
import { and, asc, desc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { AccessChange } from '@shared/access-changes';
import type { Db } from '../../db/client';
import { accessChangeDeliveries, accessChanges, accessExpiryWatch } from '../../db/schema';
import { userSubscriptions } from '../../db/schema';

export type NewAccessChange = Omit<AccessChange, 'id'>;

/** Writes the changes and, for each, a delivery row per subscriber that listens to its kind; answers them with their ids. */
export async function recordChanges(tx: Db, changes: readonly NewAccessChange[], subscribersOf: (change: NewAccessChange) => string[]): Promise<AccessChange[]> {
  if (changes.length === 0) return [];
  const rows = await tx.insert(accessChanges).values([...changes]).returning({ id: accessChanges.id });
  // Due at the change's own moment (the core's clock), not the database's: both are read by the same clock.
  const deliveries = rows.flatMap((row, index) => subscribersOf(changes[index]!).map((subscriber) => ({ changeId: row.id, subscriber, nextAttemptAt: changes[index]!.occurredAt })));
  if (deliveries.length > 0) await tx.insert(accessChangeDeliveries).values(deliveries);
  return rows.map((row, index) => ({ ...changes[index]!, id: String(row.id) }));
}

export type DueDelivery = { subscriber: string; attempts: number; change: AccessChange };

const toChange = (row: typeof accessChanges.$inferSelect): AccessChange => ({ ...row, id: String(row.id) });

/**
 * Leases due deliveries to `subscribers` (all of them, or only those of `committed`, changes the
 * caller has in hand) until `leaseUntil`, oldest change first. SKIP LOCKED and the lease make each
 * delivery run on one instance at a time; a crash leaves it to be claimed again when the lease
 * lapses. Only the subscribers an instance has are asked for: during a rolling deploy an older
 * instance leaves a new subscriber's deliveries to the instances that know it.
 */
export async function claimDeliveries(db: Db, subscribers: readonly string[], now: Date, leaseUntil: Date, limit: number, committed?: readonly AccessChange[]): Promise<DueDelivery[]> {
  if (subscribers.length === 0) return [];
  const d = accessChangeDeliveries;
  const free = and(inArray(d.subscriber, [...subscribers]), or(isNull(d.leasedUntil), lt(d.leasedUntil, now)));
  const due = committed ? inArray(d.changeId, committed.map((change) => Number(change.id))) : lte(d.nextAttemptAt, now);
  const candidates = db
    .select({ changeId: d.changeId, subscriber: d.subscriber })
    .from(d)
    .where(and(due, free))
    .orderBy(asc(d.changeId))
    .limit(limit)
    .for('update', { skipLocked: true });
  const claimed = await db
    .update(d)
    .set({ leasedUntil: leaseUntil, attempts: sql`${d.attempts} + 1` })
    .where(sql`(${d.changeId}, ${d.subscriber}) IN (${candidates})`)
    .returning({ changeId: d.changeId, subscriber: d.subscriber, attempts: d.attempts });
  if (claimed.length === 0) return [];
  // changes just committed are in hand; others are read
  const changes = committed ?? (await db.select().from(accessChanges).where(inArray(accessChanges.id, [...new Set(claimed.map((row) => row.changeId))]))).map(toChange);
  const byId = new Map(changes.map((change) => [Number(change.id), change]));
  return claimed
    .flatMap((row) => {
      const change = byId.get(row.changeId);
      return change ? [{ subscriber: row.subscriber, attempts: row.attempts, change }] : [];
    })
    .sort((a, b) => Number(a.change.id) - Number(b.change.id));
}

/** Deliveries done: they leave the outbox, all in one statement. */
export async function completeDeliveries(db: Db, done: readonly { changeId: string; subscriber: string }[]): Promise<void> {
  if (done.length === 0) return;
  const d = accessChangeDeliveries;
  await db.delete(d).where(or(...done.map(({ changeId, subscriber }) => and(eq(d.changeId, Number(changeId)), eq(d.subscriber, subscriber)))));
}

export async function failDelivery(db: Db, changeId: string, subscriber: string, error: string, nextAttemptAt: Date): Promise<void> {
  await db
    .update(accessChangeDeliveries)
    .set({ leasedUntil: null, lastError: error.slice(0, 500), nextAttemptAt })
    .where(and(eq(accessChangeDeliveries.changeId, Number(changeId)), eq(accessChangeDeliveries.subscriber, subscriber)));
}

export type SubscriberBacklog = { subscriber: string; waiting: number; failing: number; oldest: Date | null; lastError: string | null };

/** Per subscriber: deliveries waiting, how many failed at least once, the oldest and the last error. */
export async function deliveryBacklog(db: Db): Promise<SubscriberBacklog[]> {
  const d = accessChangeDeliveries;
  const rows = await db
    .select({
      subscriber: d.subscriber,
      waiting: sql<number>`count(*)::int`,
      failing: sql<number>`count(*) FILTER (WHERE ${d.lastError} IS NOT NULL)::int`,
      oldest: sql<Date | null>`min(${accessChanges.occurredAt})`,
      lastError: sql<string | null>`(array_agg(${d.lastError} ORDER BY ${d.changeId} DESC) FILTER (WHERE ${d.lastError} IS NOT NULL))[1]`,
    })
    .from(d)
    .innerJoin(accessChanges, eq(accessChanges.id, d.changeId))
    .groupBy(d.subscriber)
    .orderBy(d.subscriber);
  return rows.map((row) => ({ ...row, oldest: row.oldest ? new Date(row.oldest) : null }));
}

/** A member's entitlement history, newest first. */
export async function changesOfMember(db: Db, userId: string, limit: number): Promise<AccessChange[]> {
  const rows = await db.select().from(accessChanges).where(eq(accessChanges.userId, userId)).orderBy(desc(accessChanges.id)).limit(limit);
  return rows.map(toChange);
}

// ---------------------------------------------------------------- access that ends with time

/**
 * Moves the expiry watch from where it stood to `now`, locked until the transaction ends (one
 * instance sweeps a stretch of time, once). Null on the first call, which only starts the watch:
 * expiries from before the shop ran this code are history, not news.
 */
export async function advanceExpiryWatch(tx: Db, now: Date): Promise<Date | null> {
  const [row] = await tx.select({ sweptUntil: accessExpiryWatch.sweptUntil }).from(accessExpiryWatch).where(eq(accessExpiryWatch.id, 1)).for('update');
  if (!row) {
    await tx.insert(accessExpiryWatch).values({ id: 1, sweptUntil: now }).onConflictDoNothing();
    return null;
  }
  if (row.sweptUntil.getTime() >= now.getTime()) return null;
  await tx.update(accessExpiryWatch).set({ sweptUntil: now }).where(eq(accessExpiryWatch.id, 1));
  return row.sweptUntil;
}

/** Members with a row whose expiry fell in (from, to]: their access may have ended with time. */
export async function membersWithExpiryBetween(tx: Db, from: Date, to: Date): Promise<string[]> {
  const us = userSubscriptions;
  const rows = await tx
    .selectDistinct({ userId: us.userId })
    .from(us)
    .where(and(sql`${us.userId} IS NOT NULL`, sql`${us.expiresAt} > ${from}`, lte(us.expiresAt, to), eq(us.isActive, true)));
  return rows.flatMap((row) => (row.userId ? [row.userId] : []));
}
