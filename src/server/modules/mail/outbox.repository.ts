// The only file that touches the outbox table: writing intents (inside the caller's transaction),
// claiming due mails with row locks, recording each attempt, and reading the state for the
// sandbox mailbox and the operator console.
import { and, desc, eq, inArray, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { outbox } from '../../db/schema';
import type { MailIntent, OutboxStatus } from '@shared/mail-intents';

export type OutboxRow = typeof outbox.$inferSelect;

/**
 * Writes a mail intent with `db` (pass the transaction of the event that causes the mail, so the
 * mail and the event commit or vanish together). A second intent with the same dedupe key is a
 * no-op; answers whether a new row was written.
 */
export async function enqueueMail(db: Db, intent: MailIntent): Promise<boolean> {
  const inserted = await db
    .insert(outbox)
    .values({ template: intent.template, to: intent.to.trim().toLowerCase(), data: intent.data, dedupeKey: intent.dedupeKey })
    .onConflictDoNothing({ target: outbox.dedupeKey })
    .returning({ id: outbox.id });
  return inserted.length > 0;
}

/** Whether a mail with this dedupe key was ever written (sent or not): a caller may skip the reads a second one would take. */
export async function isMailKeyTaken(db: Db, dedupeKey: string): Promise<boolean> {
  const [row] = await db.select({ id: outbox.id }).from(outbox).where(eq(outbox.dedupeKey, dedupeKey)).limit(1);
  return row !== undefined;
}

/**
 * Claims up to `limit` due mails (queued, failing and due, or sending with a lapsed lease) with
 * FOR UPDATE SKIP LOCKED, so several workers never take the same row; each claimed row is leased
 * until `now + leaseMs` and its attempt counted before the send starts.
 */
export async function claimDueMails(db: Db, now: Date, leaseMs: number, limit: number): Promise<OutboxRow[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: outbox.id })
      .from(outbox)
      // a queued mail is due at once (its row's default time comes from the database's clock)
      .where(or(eq(outbox.status, 'queued'), and(inArray(outbox.status, ['failing', 'sending'] satisfies OutboxStatus[]), lte(outbox.nextAttemptAt, now))))
      .orderBy(outbox.nextAttemptAt)
      .limit(limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(outbox)
      .set({ status: 'sending', attempts: sql`${outbox.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + leaseMs) })
      .where(inArray(outbox.id, due.map((row) => row.id)))
      .returning();
  });
}

/** The rendered mail went out (or, in the sandbox, is delivered to the mailbox). */
export async function markMailSent(db: Db, id: string, rendered: { subject: string; text: string; html: string }, now: Date): Promise<void> {
  await db
    .update(outbox)
    .set({ ...rendered, status: 'sent', sentAt: now, lastError: null })
    .where(and(eq(outbox.id, id), eq(outbox.status, 'sending')));
}

/** A failed attempt: retried at `retryAt`, or given up for good when `retryAt` is null. */
export async function markMailFailed(db: Db, id: string, error: string, retryAt: Date | null, rendered: { subject: string; text: string; html: string } | null): Promise<void> {
  await db
    .update(outbox)
    .set({ ...(rendered ?? {}), status: retryAt ? 'failing' : 'failed', lastError: error.slice(0, 1000), ...(retryAt ? { nextAttemptAt: retryAt } : {}) })
    .where(and(eq(outbox.id, id), eq(outbox.status, 'sending')));
}

export type OutboxMailState = Pick<
  OutboxRow,
  'id' | 'template' | 'to' | 'status' | 'attempts' | 'nextAttemptAt' | 'lastError' | 'subject' | 'text' | 'html' | 'sentAt' | 'createdAt' | 'dedupeKey'
>;

/**
 * The outbox as an operator sees it, newest first: each mail's state (queued, sending, sent,
 * failing with its last error, failed), attempts and next attempt. Filters by status or recipient.
 */
export async function listOutboxMails(db: Db, filter: { status?: OutboxStatus[]; to?: string; limit?: number } = {}): Promise<OutboxMailState[]> {
  return db
    .select({
      id: outbox.id,
      template: outbox.template,
      to: outbox.to,
      status: outbox.status,
      attempts: outbox.attempts,
      nextAttemptAt: outbox.nextAttemptAt,
      lastError: outbox.lastError,
      subject: outbox.subject,
      text: outbox.text,
      html: outbox.html,
      sentAt: outbox.sentAt,
      createdAt: outbox.createdAt,
      dedupeKey: outbox.dedupeKey,
    })
    .from(outbox)
    .where(
      and(
        filter.status?.length ? inArray(outbox.status, filter.status) : undefined,
        filter.to ? eq(outbox.to, filter.to.trim().toLowerCase()) : undefined,
      ),
    )
    .orderBy(desc(outbox.createdAt), desc(outbox.id))
    .limit(filter.limit ?? 50);
}
