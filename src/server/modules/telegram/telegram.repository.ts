// The Telegram module's rows: the managed chats (by plan slug), the deep link's one-time tokens,
// each linked account with the chats it should be in and was let into (leased to one reconciler at
// a time), the invite links made for it, and the audit's repairs.
import { createHash } from 'node:crypto';
import { and, asc, desc, eq, gt, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { ManagedChat } from '@shared/telegram/chats';
import type { Db } from '../../db/client';
import { linkTableReads } from '../../link-table-reads';
import { telegramChats, telegramInvites, telegramLinkTokens, telegramMembers, telegramPlanChats, telegramRepairs, user } from '../../db/schema';

export type TelegramMemberRow = typeof telegramMembers.$inferSelect;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

// ---------------------------------------------------------------- managed chats

export async function managedChats(db: Db): Promise<ManagedChat[]> {
  const [chats, plans] = await Promise.all([
    db.select().from(telegramChats).orderBy(asc(telegramChats.title)),
    db.select().from(telegramPlanChats),
  ]);
  return chats.map((chat) => ({
    chatId: chat.chatId,
    title: chat.title,
    everyPlan: chat.everyPlan,
    planSlugs: plans.filter((plan) => plan.chatId === chat.chatId).map((plan) => plan.planSlug).sort(),
  }));
}

/** Replaces the managed chats (the console's Telegram page saves them all at once). */
export async function replaceManagedChats(tx: Db, chats: readonly ManagedChat[], now: Date): Promise<void> {
  const ids = chats.map((chat) => chat.chatId);
  await tx.delete(telegramChats).where(ids.length ? sql`${telegramChats.chatId} NOT IN (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})` : sql`true`);
  for (const chat of chats) {
    await tx
      .insert(telegramChats)
      .values({ chatId: chat.chatId, title: chat.title, everyPlan: chat.everyPlan, updatedAt: now })
      .onConflictDoUpdate({ target: telegramChats.chatId, set: { title: chat.title, everyPlan: chat.everyPlan, updatedAt: now } });
    await tx.delete(telegramPlanChats).where(eq(telegramPlanChats.chatId, chat.chatId));
    const slugs = [...new Set(chat.everyPlan ? [] : chat.planSlugs)];
    if (slugs.length) await tx.insert(telegramPlanChats).values(slugs.map((planSlug) => ({ planSlug, chatId: chat.chatId })));
  }
}

// ---------------------------------------------------------------- deep-link tokens

export async function storeLinkToken(db: Db, userId: string, token: string, expiresAt: Date): Promise<void> {
  await db.insert(telegramLinkTokens).values({ tokenHash: hashToken(token), userId, expiresAt });
}

/** Uses a token once: the member it was made for, or null when unknown, used or expired. */
export async function consumeLinkToken(db: Db, token: string, now: Date): Promise<string | null> {
  const [row] = await db
    .update(telegramLinkTokens)
    .set({ usedAt: now })
    .where(and(eq(telegramLinkTokens.tokenHash, hashToken(token)), isNull(telegramLinkTokens.usedAt), gt(telegramLinkTokens.expiresAt, now)))
    .returning({ userId: telegramLinkTokens.userId });
  return row?.userId ?? null;
}

// ---------------------------------------------------------------- linked accounts

/**
 * Makes `telegram` the member's current account. An account linked before stays, no longer
 * current and wanting no chat, so that the reconciler takes it out of the chats (relinking moves
 * membership); another member's old link to this account is dropped, its chats follow the new member.
 */
export async function linkAccount(tx: Db, userId: string, telegram: { id: string; username: string }, now: Date): Promise<void> {
  await tx.delete(telegramMembers).where(and(eq(telegramMembers.telegramUserId, telegram.id), sql`${telegramMembers.userId} <> ${userId}`));
  await tx
    .update(telegramMembers)
    .set({ current: false, desiredChats: [], status: 'pending', attempts: 0, nextAttemptAt: now, updatedAt: now })
    .where(and(eq(telegramMembers.userId, userId), eq(telegramMembers.current, true), sql`${telegramMembers.telegramUserId} <> ${telegram.id}`));
  await tx
    .insert(telegramMembers)
    .values({ userId, telegramUserId: telegram.id, username: telegram.username, current: true, status: 'pending', nextAttemptAt: now, linkedAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [telegramMembers.userId, telegramMembers.telegramUserId],
      set: { username: telegram.username, current: true, status: 'pending', attempts: 0, nextAttemptAt: now, linkedAt: now, updatedAt: now },
    });
}

export async function unlinkAccount(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .update(telegramMembers)
    .set({ current: false, desiredChats: [], status: 'pending', attempts: 0, nextAttemptAt: now, updatedAt: now })
    .where(and(eq(telegramMembers.userId, userId), eq(telegramMembers.current, true)));
}

export async function currentAccount(db: Db, userId: string): Promise<TelegramMemberRow | null> {
  const [row] = await db.select().from(telegramMembers).where(and(eq(telegramMembers.userId, userId), eq(telegramMembers.current, true))).limit(1);
  return row ?? null;
}

export const { accountsOfMembers, queueBacklog, linkTimes } = linkTableReads<TelegramMemberRow>(telegramMembers);

export async function currentAccountByTelegramId(db: Db, telegramUserId: string): Promise<TelegramMemberRow | null> {
  const [row] = await db.select().from(telegramMembers).where(and(eq(telegramMembers.telegramUserId, telegramUserId), eq(telegramMembers.current, true))).limit(1);
  return row ?? null;
}

/** New desired chats: `chats` for the current account, none for the others; whether any row changed. */
export async function setDesiredChats(db: Db, userId: string, chats: readonly string[], now: Date): Promise<boolean> {
  const wanted = sql`CASE WHEN ${telegramMembers.current} THEN ${sql.param([...chats].sort())}::text[] ELSE '{}'::text[] END`;
  const changed = await db
    .update(telegramMembers)
    .set({ desiredChats: wanted, status: 'pending', attempts: 0, nextAttemptAt: now, lastError: null, failingSince: null, updatedAt: now })
    .where(and(eq(telegramMembers.userId, userId), sql`${telegramMembers.desiredChats} IS DISTINCT FROM ${wanted}`))
    .returning({ id: telegramMembers.id });
  return changed.length > 0;
}

export async function markDue(db: Db, ids: readonly string[], now: Date): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await db.update(telegramMembers).set({ status: 'pending', nextAttemptAt: now, updatedAt: now }).where(inArray(telegramMembers.id, [...ids])).returning({ id: telegramMembers.id });
  return rows.length;
}

/** Leases the next due row (FOR UPDATE SKIP LOCKED), or null. */
export async function claimNextDue(db: Db, now: Date, leaseMs: number): Promise<TelegramMemberRow | null> {
  const due = db
    .select({ id: telegramMembers.id })
    .from(telegramMembers)
    .where(
      and(
        lte(telegramMembers.nextAttemptAt, now),
        or(inArray(telegramMembers.status, ['pending', 'failed']), and(eq(telegramMembers.status, 'processing'), or(isNull(telegramMembers.leasedUntil), lt(telegramMembers.leasedUntil, now)))),
      ),
    )
    .orderBy(asc(telegramMembers.nextAttemptAt))
    .limit(1)
    .for('update', { skipLocked: true });
  const [row] = await db.update(telegramMembers).set({ status: 'processing', leasedUntil: new Date(now.getTime() + leaseMs) }).where(inArray(telegramMembers.id, due)).returning();
  return row ?? null;
}

/**
 * Ends a lease. Success records the chats applied; a target changed meanwhile leaves the row
 * pending for another pass. A row not current and out of every chat has done its work: it goes.
 */
export async function finishClaim(db: Db, row: TelegramMemberRow, outcome: { ok: true; applied: readonly string[] } | { ok: false; error: string; retryAt: Date }, now: Date): Promise<void> {
  if (outcome.ok) {
    const applied = [...outcome.applied].sort();
    await db
      .update(telegramMembers)
      .set({
        appliedChats: applied,
        status: sql`CASE WHEN ${telegramMembers.desiredChats} = ${sql.param(applied)}::text[] THEN 'synced' ELSE 'pending' END`,
        attempts: 0,
        leasedUntil: null,
        lastError: null,
        failingSince: null,
        updatedAt: now,
      })
      .where(eq(telegramMembers.id, row.id));
    if (applied.length === 0) await db.delete(telegramMembers).where(and(eq(telegramMembers.id, row.id), eq(telegramMembers.current, false), eq(telegramMembers.status, 'synced')));
    return;
  }
  await db
    .update(telegramMembers)
    .set({
      status: 'failed',
      attempts: sql`${telegramMembers.attempts} + 1`,
      nextAttemptAt: outcome.retryAt,
      leasedUntil: null,
      lastError: outcome.error.slice(0, 500),
      failingSince: sql`COALESCE(${telegramMembers.failingSince}, ${now})`,
      updatedAt: now,
    })
    .where(eq(telegramMembers.id, row.id));
}

/** Members with a current account, for the periodic resync. */
export async function linkedMembers(db: Db): Promise<string[]> {
  const rows = await db.selectDistinct({ userId: telegramMembers.userId }).from(telegramMembers).where(eq(telegramMembers.current, true));
  return rows.map((row) => row.userId);
}

/** Settled accounts, for the audit: every linked account, current or not, the last pass left in line. */
export async function settledAccounts(db: Db): Promise<TelegramMemberRow[]> {
  return db.select().from(telegramMembers).where(eq(telegramMembers.status, 'synced')).orderBy(asc(telegramMembers.id));
}

// ---------------------------------------------------------------- invites

export async function invitesOf(db: Db, memberId: string) {
  return db.select().from(telegramInvites).where(eq(telegramInvites.memberId, memberId));
}

export async function saveInvite(db: Db, memberId: string, chatId: string, inviteLink: string, expiresAt: Date): Promise<void> {
  await db
    .insert(telegramInvites)
    .values({ memberId, chatId, inviteLink, expiresAt })
    .onConflictDoUpdate({ target: [telegramInvites.memberId, telegramInvites.chatId], set: { inviteLink, expiresAt } });
}

export async function dropInvite(db: Db, memberId: string, chatId: string): Promise<void> {
  await db.delete(telegramInvites).where(and(eq(telegramInvites.memberId, memberId), eq(telegramInvites.chatId, chatId)));
}

// ---------------------------------------------------------------- the console and the audit

export async function recordRepair(db: Db, repair: { telegramUserId: string; userId: string | null; chatId: string; action: 'invited' | 'removed'; reason: string }, now: Date): Promise<void> {
  await db.insert(telegramRepairs).values({ ...repair, repairedAt: now });
}

export async function latestRepairs(db: Db, limit: number) {
  return db.select().from(telegramRepairs).orderBy(desc(telegramRepairs.repairedAt)).limit(limit);
}

export async function accountCounts(db: Db) {
  const [row] = await db
    .select({
      linked: sql<number>`count(*) FILTER (WHERE ${telegramMembers.current})::int`,
      synced: sql<number>`count(*) FILTER (WHERE ${telegramMembers.status} = 'synced')::int`,
      pending: sql<number>`count(*) FILTER (WHERE ${telegramMembers.status} IN ('pending', 'processing'))::int`,
      failing: sql<number>`count(*) FILTER (WHERE ${telegramMembers.status} = 'failed')::int`,
    })
    .from(telegramMembers);
  return row ?? { linked: 0, synced: 0, pending: 0, failing: 0 };
}

/** The accounts the console lists: failing first, then the latest changes. */
export async function accountsForConsole(db: Db, limit: number) {
  return db
    .select({ row: telegramMembers, email: user.email })
    .from(telegramMembers)
    .innerJoin(user, eq(user.id, telegramMembers.userId))
    .orderBy(sql`CASE WHEN ${telegramMembers.status} = 'failed' THEN 0 ELSE 1 END`, desc(telegramMembers.updatedAt))
    .limit(limit);
}
