// The Discord module's rows: each linked account with the roles it should hold and holds, leased
// to one reconciler at a time; the member's OAuth tokens (better-auth's account rows, provider
// 'discord'); and the audit's repairs.
import { and, asc, desc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { linkTableReads } from '../../link-table-reads';
import { account, discordMembers, discordRepairs } from '../../db/schema';

export type DiscordMemberRow = typeof discordMembers.$inferSelect;

export const DISCORD_PROVIDER_ID = 'discord';

/**
 * Makes `discordUserId` the member's current account. An account the member linked before stays,
 * no longer current, so that the reconciler takes the managed roles off it (relinking moves them).
 */
export async function linkAccount(tx: Db, userId: string, discord: { id: string; username: string }, now: Date): Promise<void> {
  // Another member's old link to this account was waiting to take its roles away: the account's
  // roles follow its new member now, so that removal must not run after this member's grant.
  await tx.delete(discordMembers).where(and(eq(discordMembers.discordUserId, discord.id), eq(discordMembers.current, false), sql`${discordMembers.userId} <> ${userId}`));
  await tx
    .update(discordMembers)
    .set({ current: false, desiredRoles: [], status: 'pending', attempts: 0, nextAttemptAt: now, updatedAt: now })
    .where(and(eq(discordMembers.userId, userId), eq(discordMembers.current, true), sql`${discordMembers.discordUserId} <> ${discord.id}`));
  await tx
    .insert(discordMembers)
    .values({ userId, discordUserId: discord.id, username: discord.username, current: true, status: 'pending', nextAttemptAt: now, linkedAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [discordMembers.userId, discordMembers.discordUserId],
      set: { username: discord.username, current: true, status: 'pending', attempts: 0, nextAttemptAt: now, linkedAt: now, updatedAt: now },
    });
}

/** The member unlinked their account: it keeps its row until the roles are off it. */
export async function unlinkAccount(tx: Db, userId: string, now: Date): Promise<void> {
  await tx
    .update(discordMembers)
    .set({ current: false, desiredRoles: [], status: 'pending', attempts: 0, nextAttemptAt: now, updatedAt: now })
    .where(and(eq(discordMembers.userId, userId), eq(discordMembers.current, true)));
  await tx.delete(account).where(and(eq(account.userId, userId), eq(account.providerId, DISCORD_PROVIDER_ID)));
}

export const { accountsOfMembers, queueBacklog, linkTimes } = linkTableReads<DiscordMemberRow>(discordMembers);

export async function currentAccount(db: Db, userId: string): Promise<DiscordMemberRow | null> {
  const [row] = await db.select().from(discordMembers).where(and(eq(discordMembers.userId, userId), eq(discordMembers.current, true))).limit(1);
  return row ?? null;
}

/** The member's current account by its Discord id (the audit's way in from the guild). */
export async function currentAccountsByDiscordId(db: Db, discordUserIds: readonly string[]): Promise<DiscordMemberRow[]> {
  if (discordUserIds.length === 0) return [];
  return db.select().from(discordMembers).where(and(inArray(discordMembers.discordUserId, [...discordUserIds]), eq(discordMembers.current, true)));
}

/**
 * New desired roles for the member's accounts: `roles` for the current one, none for the others.
 * Answers whether any row changed (then it is due now, with a fresh failure count).
 */
export async function setDesiredRoles(tx: Db, userId: string, roles: readonly string[], removeFromGuild: boolean, now: Date): Promise<boolean> {
  const wanted = sql`CASE WHEN ${discordMembers.current} THEN ${sql.param([...roles].sort())}::text[] ELSE '{}'::text[] END`;
  const changed = await tx
    .update(discordMembers)
    .set({ desiredRoles: wanted, removeFromGuild, status: 'pending', attempts: 0, nextAttemptAt: now, lastError: null, failingSince: null, updatedAt: now })
    .where(and(eq(discordMembers.userId, userId), sql`(${discordMembers.desiredRoles} IS DISTINCT FROM ${wanted} OR ${discordMembers.removeFromGuild} <> ${removeFromGuild})`))
    .returning({ id: discordMembers.id });
  return changed.length > 0;
}

/** Asks for a pass on the member's accounts now (a retry, the audit found drift). */
export async function markDue(db: Db, ids: readonly string[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await db.update(discordMembers).set({ status: 'pending', nextAttemptAt: now, updatedAt: now }).where(inArray(discordMembers.id, [...ids]));
}

/** Leases the next due row (FOR UPDATE SKIP LOCKED), or null. */
export async function claimNextDue(db: Db, now: Date, leaseMs: number): Promise<DiscordMemberRow | null> {
  const due = db
    .select({ id: discordMembers.id })
    .from(discordMembers)
    .where(
      and(
        lte(discordMembers.nextAttemptAt, now),
        or(inArray(discordMembers.status, ['pending', 'failed']), and(eq(discordMembers.status, 'processing'), or(isNull(discordMembers.leasedUntil), lt(discordMembers.leasedUntil, now)))),
      ),
    )
    .orderBy(asc(discordMembers.nextAttemptAt))
    .limit(1)
    .for('update', { skipLocked: true });
  const [row] = await db
    .update(discordMembers)
    .set({ status: 'processing', leasedUntil: new Date(now.getTime() + leaseMs) })
    .where(inArray(discordMembers.id, due))
    .returning();
  return row ?? null;
}

/**
 * Ends a lease. Success records the roles applied; a target changed meanwhile (desired roles no
 * longer those applied) leaves the row pending for another pass. Failure keeps the target.
 */
export async function finishClaim(db: Db, row: DiscordMemberRow, outcome: { ok: true; applied: readonly string[] } | { ok: false; error: string; retryAt: Date }, now: Date): Promise<void> {
  if (outcome.ok) {
    const applied = [...outcome.applied].sort();
    await db
      .update(discordMembers)
      .set({
        appliedRoles: applied,
        status: sql`CASE WHEN ${discordMembers.desiredRoles} = ${sql.param(applied)}::text[] THEN 'synced' ELSE 'pending' END`,
        attempts: 0,
        leasedUntil: null,
        lastError: null,
        failingSince: null,
        updatedAt: now,
      })
      .where(eq(discordMembers.id, row.id));
    return;
  }
  await db
    .update(discordMembers)
    .set({
      status: 'failed',
      attempts: sql`${discordMembers.attempts} + 1`,
      nextAttemptAt: outcome.retryAt,
      leasedUntil: null,
      lastError: outcome.error.slice(0, 500),
      failingSince: sql`COALESCE(${discordMembers.failingSince}, ${now})`,
      updatedAt: now,
    })
    .where(eq(discordMembers.id, row.id));
}

/** Current accounts the last pass left holding roles: the audit looks for them in the guild. */
export async function settledAccountsWithRoles(db: Db): Promise<Pick<DiscordMemberRow, 'id' | 'discordUserId'>[]> {
  return db
    .select({ id: discordMembers.id, discordUserId: discordMembers.discordUserId })
    .from(discordMembers)
    .where(and(eq(discordMembers.current, true), eq(discordMembers.status, 'synced'), sql`cardinality(${discordMembers.desiredRoles}) > 0`));
}

/** Members with a current account, for the periodic resync. */
export async function linkedMembers(db: Db): Promise<string[]> {
  const rows = await db.selectDistinct({ userId: discordMembers.userId }).from(discordMembers).where(eq(discordMembers.current, true));
  return rows.map((row) => row.userId);
}

// ---------------------------------------------------------------- the member's OAuth tokens

export type StoredTokens = { accessToken: string | null; refreshToken: string | null; expiresAt: Date | null };

export async function tokensOf(db: Db, userId: string, discordUserId: string): Promise<StoredTokens | null> {
  const [row] = await db
    .select({ accessToken: account.accessToken, refreshToken: account.refreshToken, expiresAt: account.accessTokenExpiresAt })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, DISCORD_PROVIDER_ID), eq(account.accountId, discordUserId)))
    .limit(1);
  return row ?? null;
}

export async function saveTokens(db: Db, userId: string, discordUserId: string, tokens: { accessToken: string; refreshToken: string | null; expiresAt: Date | null }): Promise<void> {
  await db
    .update(account)
    .set({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, accessTokenExpiresAt: tokens.expiresAt, updatedAt: new Date() })
    .where(and(eq(account.userId, userId), eq(account.providerId, DISCORD_PROVIDER_ID), eq(account.accountId, discordUserId)));
}

// ---------------------------------------------------------------- the audit's repairs

export async function recordRepair(db: Db, repair: { discordUserId: string; userId: string | null; roleId: string; action: 'added' | 'removed'; reason: string }, now: Date): Promise<void> {
  await db.insert(discordRepairs).values({ ...repair, repairedAt: now });
}

export async function latestRepairs(db: Db, limit: number) {
  return db.select().from(discordRepairs).orderBy(desc(discordRepairs.repairedAt)).limit(limit);
}
