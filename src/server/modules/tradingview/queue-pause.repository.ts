// The grant queue's pause as every instance sees it (tradingview_queue_pause, one row at most).
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { tradingviewQueuePause } from '../../db/schema';

/**
 * Why the grant queue is not calling TradingView: it throttled us (until its Retry-After), or the
 * vendor's session cookie stopped working (until a check finds it working again). Grants wait
 * without a failure counted against them.
 */
export type QueuePause = { reason: 'throttled' | 'session_expired'; since: Date; until: Date | null; detail: string };

export async function readSharedPause(db: Db): Promise<QueuePause | null> {
  const [row] = await db.select().from(tradingviewQueuePause).limit(1);
  return row ? { reason: row.reason, since: row.since, until: row.until, detail: row.detail } : null;
}

/** The pause this instance met, for every instance (the latest writer's stands). */
export async function writeSharedPause(db: Db, pause: QueuePause): Promise<void> {
  const values = { reason: pause.reason, since: pause.since, until: pause.until, detail: pause.detail };
  await db
    .insert(tradingviewQueuePause)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: tradingviewQueuePause.id, set: values });
}

/** Ends the pause that began at `since`; a newer one (another instance's) stays. */
export async function clearSharedPause(db: Db, since: Date): Promise<void> {
  await db.delete(tradingviewQueuePause).where(and(eq(tradingviewQueuePause.id, 1), eq(tradingviewQueuePause.since, since)));
}
