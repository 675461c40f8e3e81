// The payment provider's events the shop has applied (processed_events): fulfilment records each
// one in the transaction that applies it, so a repeat changes nothing. The insert is a statement
// fulfilment finishes with the resolution of the event's failure, its own table, in one round trip
// (fulfilment/payment-event-failures.repository.ts); the rest are the reads.
import { desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { processedEvents } from '../../db/schema';

/** The insert of an applied event, answering its id (no row: it was recorded before), for a statement of its own or the end of a CTE. */
export function insertProcessedEvent(event: { id: string; source: string; type: string }): SQL {
  return sql`INSERT INTO ${processedEvents} (id, source, type) VALUES (${event.id}, ${event.source}, ${event.type}) ON CONFLICT DO NOTHING RETURNING id`;
}

export async function isEventProcessed(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: processedEvents.id }).from(processedEvents).where(eq(processedEvents.id, id)).limit(1);
  return row !== undefined;
}

/** The latest applied events, newest first (the console's Payments page). */
export async function recentProcessedEvents(db: Db, limit: number) {
  return db.select().from(processedEvents).orderBy(desc(processedEvents.processedAt)).limit(limit);
}
