// The only file that touches announcements, their reads and members' mail preference; the mails
// of an announcement are written into the outbox here in one statement, however many members.
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/query';
import { announcementReads, announcements, memberPreferences } from '../../db/schema';
import { membersWithAccessTo } from '../entitlements/entitlement-reads';

export type AnnouncementRow = typeof announcements.$inferSelect;

export async function insertAnnouncement(db: Db, input: { title: string; body: string; scriptId: string | null; plans: string[]; createdBy: string; at: Date }): Promise<AnnouncementRow> {
  const [row] = await db
    .insert(announcements)
    .values({ title: input.title, body: input.body, scriptId: input.scriptId, plans: input.plans, createdBy: input.createdBy, publishedAt: input.at })
    .returning();
  if (!row) throw new Error('the announcement was not written');
  return row;
}

export function listAnnouncements(db: Db, limit = 50): Promise<AnnouncementRow[]> {
  return db.select().from(announcements).orderBy(desc(announcements.publishedAt)).limit(limit);
}

export async function setAnnouncementDelivery(db: Db, id: string, fields: { mailsQueued?: number; discordStatus?: string; posts?: Record<string, string> }): Promise<void> {
  await db.update(announcements).set(fields).where(eq(announcements.id, id));
}

export async function readIds(db: Db, userId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: announcementReads.announcementId })
    .from(announcementReads)
    .where(and(eq(announcementReads.userId, userId), inArray(announcementReads.announcementId, ids)));
  return new Set(rows.map((row) => row.id));
}

export async function markRead(db: Db, userId: string, ids: string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await db
    .insert(announcementReads)
    .values(ids.map((announcementId) => ({ userId, announcementId, readAt: at })))
    .onConflictDoNothing();
}

export async function announcementMailsOn(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.select({ on: memberPreferences.announcementMails }).from(memberPreferences).where(eq(memberPreferences.userId, userId));
  return row?.on ?? true;
}

export async function setAnnouncementMails(db: Db, userId: string, on: boolean, at: Date): Promise<void> {
  await db
    .insert(memberPreferences)
    .values({ userId, announcementMails: on, updatedAt: at })
    .onConflictDoUpdate({ target: memberPreferences.userId, set: { announcementMails: on, updatedAt: at } });
}

/**
 * One mail per member with access now (on one of `plans`, or any plan when empty) who did not turn
 * announcement mails off, written in one statement; the dedupe key makes a repeat a no-op.
 * Answers how many were written.
 */
export async function queueAnnouncementMails(db: Db, announcement: { id: string; title: string; body: string; scriptId: string | null; plans: string[] }): Promise<number> {
  const data = JSON.stringify({ announcementId: announcement.id, title: announcement.title, body: announcement.body, scriptId: announcement.scriptId });
  const plans = announcement.plans;
  const rows = await queryRows<{ queued: number }>(
    db,
    sql`WITH audience AS (
          ${membersWithAccessTo(plans)}
        ), written AS (
          INSERT INTO outbox (template, "to", data, dedupe_key)
          SELECT 'announcement', lower(u.email), ${data}::jsonb, 'announcement:' || ${announcement.id} || ':' || u.id
          FROM audience a JOIN "user" u ON u.id = a.user_id
          LEFT JOIN member_preferences p ON p.user_id = u.id
          WHERE coalesce(p.announcement_mails, true)
          ON CONFLICT (dedupe_key) DO NOTHING
          RETURNING 1
        )
        SELECT count(*)::int AS queued FROM written`,
  );
  return rows[0]?.queued ?? 0;
}
