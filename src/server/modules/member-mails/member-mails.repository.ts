// The member mails' reads and writes (decision 056): the operator's settings row, the mails each
// member turned off, and who is due a win-back or a set-up reminder. Who churned or started
// lately, entitlements answers (decision 059); who linked a community, its integration (060).
import { and, eq, sql } from 'drizzle-orm';
import { switchesWithDefaults, WINBACK_DAYS_DEFAULT, type MailSettings, type MailSwitch, type MemberMailKind } from '@shared/member-mails';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/query';
import { mailSettings, memberMailOptouts } from '../../db/schema';
import { membersChurnedBetween, membersWithAccessSince } from '../entitlements/entitlement-reads';

/** The settings, with a value for each of the switches `names` (the shop's, from its integrations). */
export async function readMailSettings(db: Db, names: readonly MailSwitch[]): Promise<MailSettings> {
  const [row] = await db.select().from(mailSettings).where(eq(mailSettings.id, 1)).limit(1);
  return { switches: switchesWithDefaults(row?.switches ?? {}, names), winbackDays: row?.winbackDays ?? WINBACK_DAYS_DEFAULT, winbackCode: row?.winbackCode ?? null };
}

export async function writeMailSettings(db: Db, settings: MailSettings, by: string, at: Date): Promise<void> {
  const values = { switches: settings.switches, winbackDays: settings.winbackDays, winbackCode: settings.winbackCode, updatedBy: by, updatedAt: at };
  await db
    .insert(mailSettings)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: mailSettings.id, set: values });
}

export async function optedOutKinds(db: Db, userId: string): Promise<Set<MemberMailKind>> {
  const rows = await db.select({ kind: memberMailOptouts.kind }).from(memberMailOptouts).where(eq(memberMailOptouts.userId, userId));
  return new Set(rows.map((row) => row.kind));
}

export async function setOptOut(db: Db, userId: string, kind: MemberMailKind, out: boolean): Promise<void> {
  if (out) await db.insert(memberMailOptouts).values({ userId, kind }).onConflictDoNothing();
  else await db.delete(memberMailOptouts).where(and(eq(memberMailOptouts.userId, userId), eq(memberMailOptouts.kind, kind)));
}

export async function userExists(db: Db, userId: string): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(db, sql`SELECT 1 AS one FROM "user" WHERE id = ${userId}::uuid LIMIT 1`);
  return rows.length > 0;
}

export type Churned = { userId: string; email: string; endedAt: Date };

/**
 * Members whose access ended (their last bought plan's end, comp access aside) in
 * (`from`, `to`], who have no access at `now` and did not turn win-back mails off. Lifetime rows
 * never end: their member always has access.
 */
export async function churnedBetween(db: Db, from: Date, to: Date, now: Date): Promise<Churned[]> {
  const rows = await queryRows<{ user_id: string; email: string; ended_at: Date | string }>(
    db,
    sql`SELECT u.id AS user_id, u.email, c.ended_at
        FROM (${membersChurnedBetween(from, to, now)}) c JOIN "user" u ON u.id = c.user_id
        WHERE NOT EXISTS (SELECT 1 FROM member_mail_optouts o WHERE o.user_id = u.id AND o.kind = 'winback')`,
  );
  return rows.map((row) => ({ userId: row.user_id, email: row.email, endedAt: new Date(row.ended_at) }));
}

export type SetupState = {
  userId: string;
  email: string;
  /** When the access the member holds now began (its earliest row still granting it). */
  startedAt: Date;
  hasTradingview: boolean;
  optedOut: MemberMailKind[];
};

/**
 * Members with access at `now` that began after `since` (a plan change keeps its start), with
 * their TradingView username; whether they linked a community, its integration answers.
 */
export async function membersSettingUp(db: Db, since: Date, now: Date): Promise<SetupState[]> {
  const rows = await queryRows<{ user_id: string; email: string; started_at: Date | string; tv: boolean; optouts: string[] | null }>(
    db,
    sql`SELECT u.id AS user_id, u.email, a.started_at,
          EXISTS (SELECT 1 FROM tradingview_usernames t WHERE t.user_id = u.id AND t.replaced_at IS NULL) AS tv,
          ARRAY(SELECT o.kind FROM member_mail_optouts o WHERE o.user_id = u.id) AS optouts
        FROM (${membersWithAccessSince(since, now)}) a JOIN "user" u ON u.id = a.user_id`,
  );
  return rows.map((row) => ({
    userId: row.user_id,
    email: row.email,
    startedAt: new Date(row.started_at),
    hasTradingview: row.tv,
    optedOut: (row.optouts ?? []) as MemberMailKind[],
  }));
}
