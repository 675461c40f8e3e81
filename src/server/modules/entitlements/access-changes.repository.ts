// The access changes the core records and their delivery rows (an outbox per subscriber).
import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt, lte, notExists, or, sql } from 'drizzle-orm';
import type { AccessChange, EntitlementRow } from '@shared/access-changes';
import type { Db } from '../../db/client';
import { accessChangeDeliveries, accessChanges, accessExpiryWatch, userSubscriptions as us } from '../../db/schema';
import { dateOrNull, queryRows } from '../../db/query';
import { ENTITLEMENT_COLUMNS } from './entitlements.repository';

export type NewAccessChange = Omit<AccessChange, 'id'>;

const toChange = (row: typeof accessChanges.$inferSelect): AccessChange => ({ ...row, id: String(row.id) });

type WrittenChange = {
  id: string | number;
  user_id: string;
  kind: AccessChange['kind'];
  plan_type: AccessChange['planType'];
  previous_plan_type: AccessChange['previousPlanType'];
  has_access: boolean;
  expires_at: Date | string | null;
  occurred_at: Date | string;
  row_id: string | null;
  row_canceled: boolean;
  row_complimentary: boolean;
  period_end: Date | string | null;
};

const iso = (value: Date | null) => value?.toISOString() ?? null;

/**
 * Writes the changes and, for each, a delivery row per subscriber that listens to its kind, in one
 * statement; answers the changes written, with their ids. An `ending_soon` already recorded for
 * its row and period end is left out (the unique index), so a notice is written once whoever
 * records it. A delivery is due at the change's own moment (the core's clock), not the database's:
 * both are read by the same clock.
 */
export async function recordChanges(tx: Db, changes: readonly NewAccessChange[], listenersOf: (kind: AccessChange['kind']) => string[]): Promise<AccessChange[]> {
  if (changes.length === 0) return [];
  const listeners = [...new Set(changes.map((change) => change.kind))].flatMap((kind) => listenersOf(kind).map((subscriber) => ({ kind, subscriber })));
  const values = changes.map(
    (change) =>
      sql`(${change.userId}::uuid, ${change.kind}, ${change.planType}, ${change.previousPlanType}, ${change.hasAccess}, ${iso(change.expiresAt)}::timestamptz, ${change.occurredAt.toISOString()}::timestamptz,
           ${change.rowId}::uuid, ${change.canceled}, ${change.complimentary}, ${iso(change.periodEnd)}::timestamptz)`,
  );
  const rows = await queryRows<WrittenChange>(
    tx,
    sql`WITH written AS (
          INSERT INTO access_changes (user_id, kind, plan_type, previous_plan_type, has_access, expires_at, occurred_at, row_id, row_canceled, row_complimentary, period_end)
          VALUES ${sql.join(values, sql`, `)}
          ON CONFLICT DO NOTHING
          RETURNING *
        ), deliveries AS (
          INSERT INTO access_change_deliveries (change_id, subscriber, next_attempt_at)
          SELECT written.id, listener.subscriber, written.occurred_at
            FROM written JOIN unnest(${sql.param(listeners.map((listener) => listener.kind))}::text[], ${sql.param(listeners.map((listener) => listener.subscriber))}::text[]) AS listener (kind, subscriber)
              ON listener.kind = written.kind
        )
        SELECT id, user_id, kind, plan_type, previous_plan_type, has_access, expires_at, occurred_at, row_id, row_canceled, row_complimentary, period_end FROM written ORDER BY id`,
  );
  return rows.map((row) => ({
    id: String(row.id),
    userId: row.user_id,
    kind: row.kind,
    planType: row.plan_type,
    previousPlanType: row.previous_plan_type,
    hasAccess: row.has_access,
    expiresAt: dateOrNull(row.expires_at),
    occurredAt: new Date(row.occurred_at),
    rowId: row.row_id,
    canceled: row.row_canceled,
    complimentary: row.row_complimentary,
    periodEnd: dateOrNull(row.period_end),
  }));
}

export type DueDelivery = { subscriber: string; attempts: number; change: AccessChange };

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
 * instance sweeps a stretch of time at a time); answers where it stood. Null when there is no
 * stretch to sweep: on the first call, which only starts the watch (expiries from before the shop
 * ran this code are history, not news), and when `now` is not past the watch. A clock behind the
 * watch (another instance's runs ahead, or the clock was put back) moves it back: a stretch swept
 * twice records nothing twice (the core's `ended` asks the member's history, `ending_soon` is
 * unique), while a watch left ahead of the clock would record no end until the clock caught up.
 */
export async function advanceExpiryWatch(tx: Db, now: Date): Promise<Date | null> {
  const [row] = await tx.select({ sweptUntil: accessExpiryWatch.sweptUntil }).from(accessExpiryWatch).where(eq(accessExpiryWatch.id, 1)).for('update');
  if (!row) {
    await tx.insert(accessExpiryWatch).values({ id: 1, sweptUntil: now }).onConflictDoNothing();
    return null;
  }
  if (row.sweptUntil.getTime() === now.getTime()) return null;
  await tx.update(accessExpiryWatch).set({ sweptUntil: now }).where(eq(accessExpiryWatch.id, 1));
  return row.sweptUntil.getTime() < now.getTime() ? row.sweptUntil : null;
}

/** A subscription row as the core weighs access, with its id and member. */
export type HeldRow = EntitlementRow & { id: string; userId: string | null };

const HELD_COLUMNS = { id: us.id, userId: us.userId, ...ENTITLEMENT_COLUMNS };

/**
 * Rows of members whose period ended in (from, to]: their access may have ended with time. Rows
 * switched off since count (the provider's deletion at the period end may come before the watch
 * passes); revoked rows do not (a refund, a ban… recorded its own change when it was written).
 */
export async function periodEndsBetween(tx: Db, from: Date, to: Date): Promise<HeldRow[]> {
  return tx
    .select(HELD_COLUMNS)
    .from(us)
    .where(and(isNotNull(us.userId), isNull(us.revokedReason), gt(us.expiresAt, from), lte(us.expiresAt, to)));
}

/**
 * Canceled rows (set to end, or comp access), switched on, whose expiry lies in (now, until] and
 * that no `ending_soon` names yet for this expiry: the candidates, found by
 * user_subscriptions_canceled_end_idx; the access rule (rowsEndingSoon) decides.
 */
export async function canceledRowsEndingBy(tx: Db, now: Date, until: Date): Promise<HeldRow[]> {
  const noticed = tx
    .select({ one: sql`1` })
    .from(accessChanges)
    .where(and(eq(accessChanges.kind, 'ending_soon'), eq(accessChanges.rowId, us.id), eq(accessChanges.periodEnd, us.expiresAt)));
  return tx
    .select(HELD_COLUMNS)
    .from(us)
    .where(and(isNotNull(us.userId), eq(us.isActive, true), or(eq(us.cancelAtPeriodEnd, true), eq(us.status, 'canceled')), gt(us.expiresAt, now), lte(us.expiresAt, until), notExists(noticed)));
}

/** Whether each member's last recorded change left them with access (members with no change recorded are left out). */
export async function lastRecordedAccess(tx: Db, userIds: readonly string[]): Promise<Map<string, boolean>> {
  if (userIds.length === 0) return new Map();
  const c = accessChanges;
  const rows = await tx
    .selectDistinctOn([c.userId], { userId: c.userId, hasAccess: c.hasAccess })
    .from(c)
    .where(inArray(c.userId, [...userIds]))
    .orderBy(c.userId, desc(c.id));
  return new Map(rows.map((row) => [row.userId, row.hasAccess]));
}
