import { and, eq } from 'drizzle-orm';
import type { OperatorAlertKey } from '@shared/operator-alerts';
import type { Db } from '../../db/client';
import { operatorAlerts } from '../../db/schema';

export type AlertRow = typeof operatorAlerts.$inferSelect;

export async function findAlert(db: Db, key: OperatorAlertKey): Promise<AlertRow | null> {
  const [row] = await db.select().from(operatorAlerts).where(eq(operatorAlerts.key, key)).limit(1);
  return row ?? null;
}

export async function activeAlerts(db: Db): Promise<AlertRow[]> {
  return db.select().from(operatorAlerts).where(eq(operatorAlerts.active, true));
}

/** Notes that the condition was looked at (and, while it lasts, its latest detail). */
export async function markChecked(db: Db, key: OperatorAlertKey, detail: string | null, now: Date): Promise<void> {
  await db
    .insert(operatorAlerts)
    .values({ key, checkedAt: now })
    .onConflictDoUpdate({ target: operatorAlerts.key, set: { checkedAt: now, ...(detail === null ? {} : { detail }) } });
}

/**
 * Turns the alert on; the start time when this call did it, null when it was already on. The
 * conditional update is the claim: of two instances firing at once, one gets the row back.
 */
export async function claimFire(db: Db, key: OperatorAlertKey, detail: string | null, now: Date): Promise<Date | null> {
  await db.insert(operatorAlerts).values({ key }).onConflictDoNothing();
  const [row] = await db
    .update(operatorAlerts)
    .set({ active: true, since: now, detail, checkedAt: now, resolvedAt: null })
    .where(and(eq(operatorAlerts.key, key), eq(operatorAlerts.active, false)))
    .returning({ since: operatorAlerts.since });
  return row?.since ?? null;
}

/** Turns the alert off; the start time of the episode that ended, or null when it was not on. */
export async function claimResolve(db: Db, key: OperatorAlertKey, now: Date): Promise<Date | null> {
  const [row] = await db
    .update(operatorAlerts)
    .set({ active: false, checkedAt: now, resolvedAt: now })
    .where(and(eq(operatorAlerts.key, key), eq(operatorAlerts.active, true)))
    .returning({ since: operatorAlerts.since });
  return row ? (row.since ?? now) : null;
}

