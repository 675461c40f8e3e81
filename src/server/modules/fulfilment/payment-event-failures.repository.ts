import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/query';
import { paymentEventFailures } from '../../db/schema';
import { insertProcessedEvent } from '../provider-records/processed-events.repository';
import type { PaymentEvent } from '../payments/payments.port';

export type PaymentEventFailureRow = typeof paymentEventFailures.$inferSelect;

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1000);

/** Keeps a provider event fulfilment could not apply, with the event itself for a replay. */
export async function recordEventFailure(db: Db, event: PaymentEvent, source: string, error: unknown, now: Date): Promise<void> {
  const stored = { ...event, created: event.created.toISOString() };
  await db
    .insert(paymentEventFailures)
    .values({ kind: 'handler', eventId: event.id, source, type: event.type, event: stored, error: describe(error), firstFailedAt: now, lastFailedAt: now })
    .onConflictDoUpdate({
      target: paymentEventFailures.eventId,
      set: { error: describe(error), attempts: sql`${paymentEventFailures.attempts} + 1`, lastFailedAt: now, resolvedAt: null },
    });
}

/**
 * Records an event inside the transaction that applies it (or alone, for an event that applies
 * nothing: fulfilment's held subscription reading); false when it was already recorded (a
 * concurrent delivery of the same event waits here until the first one commits). A failure kept
 * of the event is resolved by the same statement: a failed event that now goes through (a retry,
 * a replay) costs nothing extra, and every other event spares a statement of its own.
 */
export async function recordProcessedEvent(tx: Db, event: { id: string; source: string; type: string }, now: Date): Promise<boolean> {
  const inserted = await queryRows<{ id: string }>(
    tx,
    sql`WITH resolved AS (UPDATE ${paymentEventFailures} SET resolved_at = ${now.toISOString()}::timestamptz WHERE event_id = ${event.id} AND resolved_at IS NULL)
        ${insertProcessedEvent(event)}`,
  );
  return inserted.length > 0;
}

/** An event that went through after failing before (a provider retry, a replay) is no longer failing. */
export async function resolveEventFailure(db: Db, eventId: string, now: Date): Promise<void> {
  await db
    .update(paymentEventFailures)
    .set({ resolvedAt: now })
    .where(and(eq(paymentEventFailures.eventId, eventId), isNull(paymentEventFailures.resolvedAt)));
}

export async function listEventFailures(db: Db, limit: number): Promise<PaymentEventFailureRow[]> {
  return db.select().from(paymentEventFailures).orderBy(desc(paymentEventFailures.lastFailedAt)).limit(limit);
}

export async function findEventFailure(db: Db, id: string): Promise<PaymentEventFailureRow | null> {
  const [row] = await db.select().from(paymentEventFailures).where(eq(paymentEventFailures.id, id)).limit(1);
  return row ?? null;
}

/**
 * The stored event as the handler takes it, or null for a signature failure (nothing to replay;
 * such rows only come from before refusals were counted in memory, signature-refusals.ts).
 */
export function storedEvent(row: PaymentEventFailureRow): PaymentEvent | null {
  if (row.kind !== 'handler' || !row.event) return null;
  const event = row.event as Omit<PaymentEvent, 'created'> & { created: string };
  return { ...event, created: new Date(event.created) };
}
