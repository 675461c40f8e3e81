import { eq, lt, sql } from 'drizzle-orm';
import { decideThrottle, throttleExpiresAt, type ThrottleDecision, type ThrottleRule } from '@shared/throttle';
import type { Db } from '../../db/client';
import { throttles } from '../../db/schema';

/**
 * Counts one attempt for `key` under `rule`, or refuses it. The row is locked while the pure rule
 * decides, so concurrent attempts on any instance are counted one after the other.
 */
export async function consumeThrottle(db: Db, key: string, rule: ThrottleRule, now: Date): Promise<ThrottleDecision> {
  const decision = await db.transaction(async (tx) => {
    // An empty row first, so that the lock below also serialises a burst of first attempts.
    await tx.insert(throttles).values({ key, hits: 0, since: new Date(0), blockedUntil: null, expiresAt: now }).onConflictDoNothing();
    const [row] = await tx.select().from(throttles).where(eq(throttles.key, key)).for('update');
    const decided = decideThrottle(row ?? null, rule, now);
    if (decided.allowed) await tx.update(throttles).set({ ...decided.next, expiresAt: throttleExpiresAt(decided.next, rule) }).where(eq(throttles.key, key));
    return decided;
  });
  if (decision.allowed && decision.next.hits === 1) await pruneThrottles(db, now);
  return decision;
}

/** Forgets a key (a successful sign-in clears its failures). */
export async function clearThrottle(db: Db, key: string): Promise<void> {
  await db.delete(throttles).where(eq(throttles.key, key));
}

/** Deletes rows that no longer affect any decision (run when a key starts counting afresh). */
async function pruneThrottles(db: Db, now: Date): Promise<void> {
  await db.execute(sql`DELETE FROM throttles WHERE key IN (SELECT key FROM throttles WHERE ${lt(throttles.expiresAt, now)} LIMIT 500)`);
}
