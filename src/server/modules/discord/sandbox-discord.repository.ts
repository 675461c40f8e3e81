// The sandbox Discord's rows: its guild's members, the one-time codes and tokens of its OAuth
// (kept as hashes), and its three switches in sandbox_switches beside the TradingView outage.
import { and, asc, eq, gt, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sandboxDiscordCodes, sandboxDiscordMembers, sandboxDiscordMessages, sandboxDiscordTokens, sandboxSwitches } from '../../db/schema';

export const DISCORD_SWITCHES = {
  outage: 'discord_outage',
  missingManageRoles: 'discord_missing_manage_roles',
  roleAboveBot: 'discord_role_above_bot',
} as const;
export type DiscordSwitchName = keyof typeof DISCORD_SWITCHES;
export type DiscordSwitchStates = Record<DiscordSwitchName, boolean>;

/** The three switches in one read; a switch never written is off. */
export async function readDiscordSwitches(db: Db): Promise<DiscordSwitchStates> {
  const rows = await db
    .select({ name: sandboxSwitches.name, enabled: sandboxSwitches.enabled })
    .from(sandboxSwitches)
    .where(inArray(sandboxSwitches.name, Object.values(DISCORD_SWITCHES)));
  const on = new Set(rows.filter((row) => row.enabled).map((row) => row.name));
  return {
    outage: on.has(DISCORD_SWITCHES.outage),
    missingManageRoles: on.has(DISCORD_SWITCHES.missingManageRoles),
    roleAboveBot: on.has(DISCORD_SWITCHES.roleAboveBot),
  };
}

export async function writeDiscordSwitch(db: Db, name: DiscordSwitchName, enabled: boolean): Promise<void> {
  await db
    .insert(sandboxSwitches)
    .values({ name: DISCORD_SWITCHES[name], enabled })
    .onConflictDoUpdate({ target: sandboxSwitches.name, set: { enabled, updatedAt: sql`now()` } });
}

export type SandboxGuildMemberRow = { discordUserId: string; username: string; roles: string[] };

const memberColumns = { discordUserId: sandboxDiscordMembers.discordUserId, username: sandboxDiscordMembers.username, roles: sandboxDiscordMembers.roles };

export async function findGuildMember(db: Db, discordUserId: string): Promise<SandboxGuildMemberRow | null> {
  const [row] = await db.select(memberColumns).from(sandboxDiscordMembers).where(eq(sandboxDiscordMembers.discordUserId, discordUserId)).limit(1);
  return row ?? null;
}

/** Puts the user in the guild with `roles`; a user already there is left as they are (false). */
export async function insertGuildMember(db: Db, member: SandboxGuildMemberRow, joinedAt: Date): Promise<boolean> {
  const inserted = await db
    .insert(sandboxDiscordMembers)
    .values({ ...member, roles: [...new Set(member.roles)], joinedAt })
    .onConflictDoNothing()
    .returning({ discordUserId: sandboxDiscordMembers.discordUserId });
  return inserted.length > 0;
}

/** Gives the role (held already: unchanged); false when the user is not in the guild. */
export async function addGuildMemberRole(db: Db, discordUserId: string, roleId: string): Promise<boolean> {
  const rows = await db
    .update(sandboxDiscordMembers)
    .set({ roles: sql`CASE WHEN ${roleId} = ANY(${sandboxDiscordMembers.roles}) THEN ${sandboxDiscordMembers.roles} ELSE array_append(${sandboxDiscordMembers.roles}, ${roleId}) END` })
    .where(eq(sandboxDiscordMembers.discordUserId, discordUserId))
    .returning({ discordUserId: sandboxDiscordMembers.discordUserId });
  return rows.length > 0;
}

/** Takes the role away; 'no_member' when the user is not in the guild, 'not_held' when they lack it. */
export async function removeGuildMemberRole(db: Db, discordUserId: string, roleId: string): Promise<'removed' | 'not_held' | 'no_member'> {
  const removed = await db
    .update(sandboxDiscordMembers)
    .set({ roles: sql`array_remove(${sandboxDiscordMembers.roles}, ${roleId})` })
    .where(and(eq(sandboxDiscordMembers.discordUserId, discordUserId), sql`${roleId} = ANY(${sandboxDiscordMembers.roles})`))
    .returning({ discordUserId: sandboxDiscordMembers.discordUserId });
  if (removed.length > 0) return 'removed';
  return (await findGuildMember(db, discordUserId)) ? 'not_held' : 'no_member';
}

export async function deleteGuildMember(db: Db, discordUserId: string): Promise<void> {
  await db.delete(sandboxDiscordMembers).where(eq(sandboxDiscordMembers.discordUserId, discordUserId));
}

// Snowflakes are numbers: a shorter id is a smaller one, and ids of one length compare as text.
const idLength = sql`length(${sandboxDiscordMembers.discordUserId})`;

/** Up to `limit` members with ids after `after` (by number, as Discord pages), smallest first. */
export async function listGuildMembers(db: Db, input: { after?: string | undefined; limit: number }): Promise<SandboxGuildMemberRow[]> {
  const { after, limit } = input;
  const afterCondition =
    after === undefined
      ? undefined
      : or(gt(idLength, after.length), and(eq(idLength, after.length), gt(sandboxDiscordMembers.discordUserId, after)));
  return db.select(memberColumns).from(sandboxDiscordMembers).where(afterCondition).orderBy(asc(idLength), asc(sandboxDiscordMembers.discordUserId)).limit(limit);
}

export type SandboxCodeRow = { discordUserId: string; username: string; redirectUri: string; scopes: string[]; expiresAt: Date };

/** Keeps a new code; codes past their expiry are dropped on the way. */
export async function insertCode(db: Db, codeHash: string, code: SandboxCodeRow, now: Date): Promise<void> {
  await db.delete(sandboxDiscordCodes).where(lt(sandboxDiscordCodes.expiresAt, now));
  await db.insert(sandboxDiscordCodes).values({ codeHash, ...code });
}

/** The code's grant, removed in the same statement: a code works once, even for two racing exchanges. */
export async function takeCode(db: Db, codeHash: string): Promise<SandboxCodeRow | null> {
  const [row] = await db
    .delete(sandboxDiscordCodes)
    .where(eq(sandboxDiscordCodes.codeHash, codeHash))
    .returning({
      discordUserId: sandboxDiscordCodes.discordUserId,
      username: sandboxDiscordCodes.username,
      redirectUri: sandboxDiscordCodes.redirectUri,
      scopes: sandboxDiscordCodes.scopes,
      expiresAt: sandboxDiscordCodes.expiresAt,
    });
  return row ?? null;
}

export type SandboxTokenRow = { discordUserId: string; username: string; scopes: string[]; expiresAt: Date };

const tokenColumns = {
  discordUserId: sandboxDiscordTokens.discordUserId,
  username: sandboxDiscordTokens.username,
  scopes: sandboxDiscordTokens.scopes,
  expiresAt: sandboxDiscordTokens.expiresAt,
};

export async function insertToken(db: Db, hashes: { access: string; refresh: string }, token: SandboxTokenRow, now: Date): Promise<void> {
  await db.insert(sandboxDiscordTokens).values({ accessTokenHash: hashes.access, refreshTokenHash: hashes.refresh, ...token, createdAt: now });
}

export async function findToken(db: Db, accessTokenHash: string): Promise<SandboxTokenRow | null> {
  const [row] = await db.select(tokenColumns).from(sandboxDiscordTokens).where(eq(sandboxDiscordTokens.accessTokenHash, accessTokenHash)).limit(1);
  return row ?? null;
}

/** The grant behind a refresh token, removed with its access token: a refresh token works once. */
export async function takeRefreshToken(db: Db, refreshTokenHash: string): Promise<SandboxTokenRow | null> {
  const [row] = await db.delete(sandboxDiscordTokens).where(eq(sandboxDiscordTokens.refreshTokenHash, refreshTokenHash)).returning(tokenColumns);
  return row ?? null;
}

/** A message the sandbox bot posted to a channel (announcements). */
export async function insertSandboxMessage(db: Db, channelId: string, content: string, at: Date): Promise<void> {
  await db.insert(sandboxDiscordMessages).values({ channelId, content, createdAt: at });
}

export function listSandboxMessages(db: Db, limit = 50) {
  return db.select().from(sandboxDiscordMessages).orderBy(sql`${sandboxDiscordMessages.id} DESC`).limit(limit);
}
