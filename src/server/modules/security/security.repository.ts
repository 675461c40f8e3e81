import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import { MAX_SECURITY_EVENTS_PER_USER } from '@shared/security';
import type { Db } from '../../db/client';
import { securityEvents, user } from '../../db/schema';

/** Events not tied to an account (e.g. a failed sign-in for an unknown e-mail) are kept this long. */
export const ANONYMOUS_EVENT_RETENTION_DAYS = 90;

export type SecurityEventType = 'AUTH_FAILURE' | 'SUBSCRIPTION_CHANGE' | 'SUSPICIOUS_ACTIVITY' | 'UNAUTHORIZED_ACCESS';

export type SecurityEventInput = {
  userId: string | null;
  event: SecurityEventType;
  details?: Record<string, unknown>;
  ipAddress?: string | null;
};

/** Records one event and keeps at most MAX_SECURITY_EVENTS_PER_USER per user (spec §9). */
export async function recordSecurityEvent(db: Db, input: SecurityEventInput): Promise<void> {
  await db.insert(securityEvents).values({
    userId: input.userId,
    event: input.event,
    details: input.details ?? null,
    ipAddress: input.ipAddress ?? null,
  });
  if (!input.userId) {
    // failed sign-ins for unknown e-mails have no per-user cap; the privacy policy keeps logs ≤ 90 days
    await db.execute(sql`DELETE FROM security_events WHERE user_id IS NULL AND created_at < now() - ${`${ANONYMOUS_EVENT_RETENTION_DAYS} days`}::interval`);
    return;
  }
  await db.execute(sql`
    DELETE FROM security_events WHERE id IN (
      SELECT id FROM security_events WHERE user_id = ${input.userId}
      ORDER BY created_at DESC OFFSET ${MAX_SECURITY_EVENTS_PER_USER})`);
}

export async function findUserIdByEmail(db: Db, email: string): Promise<string | null> {
  const [row] = await db.select({ id: user.id }).from(user).where(eq(user.email, email.toLowerCase())).limit(1);
  return row?.id ?? null;
}

export async function recentSecurityEvents(db: Db, userId: string, since: Date, events?: SecurityEventType[]) {
  return db
    .select({ id: securityEvents.id, event: securityEvents.event, createdAt: securityEvents.createdAt })
    .from(securityEvents)
    .where(and(eq(securityEvents.userId, userId), gte(securityEvents.createdAt, since), events ? inArray(securityEvents.event, events) : undefined))
    .orderBy(desc(securityEvents.createdAt));
}
