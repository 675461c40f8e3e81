import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import { MAX_SECURITY_EVENTS_PER_USER, REPEAT_FOLD_WINDOW_MS } from '@shared/security';
import type { Db } from '../../db/client';
import { preparedPerDb } from '../../db/prepared';
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

/** Records one event and keeps at most MAX_SECURITY_EVENTS_PER_USER (1000) per user. */
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

/**
 * Records an event that strangers can cause over and over (a failed sign-in for a member's
 * e-mail): a repeat within REPEAT_FOLD_WINDOW_MS of the newest such row adds to its count instead
 * of adding a row, so the member's log keeps its other entries.
 */
export async function recordRepeatedSecurityEvent(db: Db, input: SecurityEventInput): Promise<void> {
  if (input.userId) {
    const folded = await db.execute(sql`
      UPDATE security_events SET count = count + 1, last_seen_at = now(), ip_address = ${input.ipAddress ?? null}
      WHERE id = (
        SELECT id FROM security_events
        WHERE user_id = ${input.userId} AND event = ${input.event}
          AND created_at > now() - ${`${REPEAT_FOLD_WINDOW_MS} milliseconds`}::interval
        ORDER BY created_at DESC LIMIT 1)
      RETURNING id`);
    if ((folded as unknown as { rows: unknown[] }).rows.length > 0) return;
  }
  await recordSecurityEvent(db, input);
}

export async function findUserIdByEmail(db: Db, email: string): Promise<string | null> {
  const [row] = await db.select({ id: user.id }).from(user).where(eq(user.email, email.toLowerCase())).limit(1);
  return row?.id ?? null;
}

const seenAt = sql<Date>`coalesce(${securityEvents.lastSeenAt}, ${securityEvents.createdAt})`.mapWith(securityEvents.createdAt);

const eventsColumns = { id: securityEvents.id, event: securityEvents.event, createdAt: securityEvents.createdAt, seenAt, count: securityEvents.count };

// the security alerts' read, on every member page
const allRecentEvents = preparedPerDb((db) =>
  db
    .select(eventsColumns)
    .from(securityEvents)
    .where(and(eq(securityEvents.userId, sql.placeholder('userId')), gte(seenAt, sql.placeholder('since'))))
    .orderBy(desc(seenAt))
    .prepare('recent_security_events'),
);

/** The user's events seen since `since`, newest first; only of `events` when given. */
export async function recentSecurityEvents(db: Db, userId: string, since: Date, events?: SecurityEventType[]) {
  if (!events) return allRecentEvents(db).execute({ userId, since });
  return db
    .select(eventsColumns)
    .from(securityEvents)
    .where(and(eq(securityEvents.userId, userId), gte(seenAt, since), inArray(securityEvents.event, events)))
    .orderBy(desc(seenAt));
}
