// The recovery mails' rows (one per abandoned checkout mailed, its link's token hashed) and the
// addresses that opted out; reads checkout sessions through provider-records, writes only its own tables.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { checkoutRecoveries, checkoutRecoveryOptouts } from '../../db/schema';
import { findCheckoutSession } from '../provider-records/checkout-sessions.repository';
import { sessionCreatedAtOf } from '../provider-records/checkout-session-reads';

export type AbandonedCheckout = {
  id: string;
  email: string | null;
  planType: string;
  paid: boolean;
  createdAt: Date;
};

export async function abandonedCheckout(db: Db, sessionId: string): Promise<AbandonedCheckout | null> {
  const row = await findCheckoutSession(db, sessionId);
  if (!row) return null;
  return {
    id: row.id,
    email: row.email?.toLowerCase() ?? null,
    planType: row.planType,
    paid: row.paymentStatus !== 'unpaid',
    createdAt: row.createdAt,
  };
}

export async function isOptedOut(db: Db, email: string): Promise<boolean> {
  const [row] = await db.select({ email: checkoutRecoveryOptouts.email }).from(checkoutRecoveryOptouts).where(eq(checkoutRecoveryOptouts.email, email)).limit(1);
  return row !== undefined;
}

export async function lastRecoveryMail(db: Db, email: string): Promise<Date | null> {
  const [row] = await db.select({ sentAt: checkoutRecoveries.sentAt }).from(checkoutRecoveries).where(eq(checkoutRecoveries.email, email)).orderBy(desc(checkoutRecoveries.sentAt)).limit(1);
  return row?.sentAt ?? null;
}

/** Serialises the decisions about one address (two instances hearing two expiries at once). */
export async function lockAddress(tx: Db, email: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`checkout_recovery:${email}`}))`);
}

/** Records the mail of a checkout; false when that checkout was already mailed. */
export async function insertRecovery(
  tx: Db,
  row: {
    email: string;
    checkoutSessionId: string;
    tokenHash: string;
    sentAt: Date;
  },
): Promise<boolean> {
  const inserted = await tx.insert(checkoutRecoveries).values(row).onConflictDoNothing().returning({ id: checkoutRecoveries.id });
  return inserted.length > 0;
}

export type RecoveryLink = {
  id: string;
  email: string;
  checkoutSessionId: string;
  sentAt: Date;
  sessionCreatedAt: Date | null;
};

export async function recoveryByTokenHash(db: Db, tokenHash: string): Promise<RecoveryLink | null> {
  const [row] = await db
    .select({
      id: checkoutRecoveries.id,
      email: checkoutRecoveries.email,
      checkoutSessionId: checkoutRecoveries.checkoutSessionId,
      sentAt: checkoutRecoveries.sentAt,
      sessionCreatedAt: sessionCreatedAtOf(checkoutRecoveries.checkoutSessionId),
    })
    .from(checkoutRecoveries)
    .where(eq(checkoutRecoveries.tokenHash, tokenHash))
    .limit(1);
  return row ?? null;
}

export async function markUsed(db: Db, id: string, at: Date): Promise<void> {
  await db
    .update(checkoutRecoveries)
    .set({ usedAt: at })
    .where(and(eq(checkoutRecoveries.id, id), sql`${checkoutRecoveries.usedAt} IS NULL`));
}

export async function optOut(db: Db, email: string): Promise<void> {
  await db.insert(checkoutRecoveryOptouts).values({ email }).onConflictDoNothing();
}
