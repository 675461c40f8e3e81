// The shop's record of each checkout session at the payment provider (checkout_sessions): written
// when a checkout starts, completed and claimed by fulfilment, judged for duplicates. Its own
// module since decision 064: the entitlements core owns subscription rows and orders, which point
// at a session; a session is the provider's object, not an entitlement. Every function takes the
// database or a transaction: inside a transaction, pass the transaction (PGlite has one
// connection; a query on `db` there would wait forever).
import { and, desc, eq, gte, lte, sql } from 'drizzle-orm';
import type { DuplicateStatus } from '@shared/payment-rules';
import type { Db } from '../../db/client';
import { checkoutSessions } from '../../db/schema';

export type CheckoutSessionRow = typeof checkoutSessions.$inferSelect;

export async function insertCheckoutSession(db: Db, values: typeof checkoutSessions.$inferInsert): Promise<void> {
  await db.insert(checkoutSessions).values(values);
}

/** Drops a row whose provider session could not be created (createCheckout). */
export async function deleteCheckoutSession(db: Db, id: string): Promise<void> {
  await db.delete(checkoutSessions).where(eq(checkoutSessions.id, id));
}

export async function findCheckoutSession(db: Db, id: string): Promise<CheckoutSessionRow | null> {
  const [row] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id)).limit(1);
  return row ?? null;
}

/** Reads the session row and locks it until the transaction ends (claims and fulfilment queue here). */
export async function lockCheckoutSession(tx: Db, id: string): Promise<CheckoutSessionRow | null> {
  const [row] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, id)).for('update').limit(1);
  return row ?? null;
}

export async function updateCheckoutSession(tx: Db, id: string, values: Partial<typeof checkoutSessions.$inferInsert>): Promise<void> {
  await tx.update(checkoutSessions).set({ ...values, updatedAt: sql`now()` }).where(eq(checkoutSessions.id, id));
}

/** Unpaid sessions for an e-mail started since `since`: the ones a missed webhook could leave behind. */
export async function openSessionsForEmail(db: Db, email: string, since: Date): Promise<CheckoutSessionRow[]> {
  return db
    .select()
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.email, email.toLowerCase()), eq(checkoutSessions.paymentStatus, 'unpaid'), gte(checkoutSessions.createdAt, since)))
    .orderBy(desc(checkoutSessions.createdAt))
    .limit(10);
}

/**
 * The ids of the sessions an e-mail paid (or started), as a subquery: the double-payment check
 * (entitlements) finds a buyer's rows through them while the rows are not claimed yet.
 */
export function sessionIdsOfEmail(db: Db, email: string) {
  return db.select({ id: checkoutSessions.id }).from(checkoutSessions).where(eq(checkoutSessions.email, email));
}

export async function setDuplicateStatus(db: Db, sessionId: string, status: DuplicateStatus): Promise<void> {
  await db.update(checkoutSessions).set({ duplicateStatus: status, updatedAt: sql`now()` }).where(eq(checkoutSessions.id, sessionId));
}

/** Records when our records first saw a session paid, in the database's time like `created_at`. */
export async function markCheckoutCompleted(tx: Db, id: string): Promise<void> {
  await tx.update(checkoutSessions).set({ completedAt: sql`COALESCE(${checkoutSessions.completedAt}, now())` }).where(eq(checkoutSessions.id, id));
}

/** Unpaid checkouts of an e-mail still open at the provider, started before `before`. */
export async function openCheckoutsOfEmail(db: Db, email: string, provider: string, before: Date): Promise<CheckoutSessionRow[]> {
  return db
    .select()
    .from(checkoutSessions)
    .where(
      and(
        eq(checkoutSessions.email, email.trim().toLowerCase()),
        eq(checkoutSessions.provider, provider),
        eq(checkoutSessions.status, 'open'),
        eq(checkoutSessions.paymentStatus, 'unpaid'),
        lte(checkoutSessions.createdAt, before),
      ),
    )
    .limit(20);
}
