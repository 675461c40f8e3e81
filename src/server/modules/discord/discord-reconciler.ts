// Discord roles as reconciled state, like TradingView grants: syncUser turns a member's access into
// the roles each of their linked accounts should hold; the loop leases due rows and brings the guild
// in line (adds the member with their OAuth token, gives and takes managed roles, kicks when
// configured); the audit reads the whole guild and repairs drift both ways.
import { desiredDiscordRoles, discordRetryDelayMs, discordRoleChanges, managedRoleIds, type DiscordRoleConfig } from '@shared/discord-roles';
import type { Db } from '../../db/client';
import { communityReconcilerLoop } from '../../jobs/community-reconciler-loop';
import type { Logger } from '../../logger';
import { memberEntitlement } from '../entitlements/entitlements.repository';
import {
  claimNextDue,
  currentAccountsByDiscordId,
  finishClaim,
  linkedMembers,
  markDue,
  recordRepair,
  saveTokens,
  setDesiredRoles,
  settledAccountsWithRoles,
  tokensOf,
  type DiscordMemberRow,
} from './discord.repository';
import { DiscordError, toDiscordError, type DiscordPort, type GuildMember } from './discord.port';

export type DiscordAuditSummary = { checked: number; added: number; removed: number; requeued: number };

export type DiscordReconcilerOptions = {
  db: Db;
  port: DiscordPort;
  roles: DiscordRoleConfig;
  /** What happens when access ends: the managed roles go, or the member leaves the guild. */
  onEnd: 'remove_roles' | 'kick';
  logger: Logger;
  clock: () => Date;
  intervalMs?: number;
  auditIntervalMs: number;
  leaseMs?: number;
  batchSize?: number;
  /** How often every linked member is resynced, as a backstop for a missed access change. */
  sweepIntervalMs?: number;
};

const AUDIT_PAGE = 1000;
/** A token this close to expiry is refreshed before use. */
const TOKEN_MARGIN_MS = 60_000;

export function createDiscordReconciler(options: DiscordReconcilerOptions) {
  const { db, port, logger, clock } = options;
  const managed = managedRoleIds(options.roles);
  const leaseMs = options.leaseMs ?? 60_000;

  /** Recomputes the roles the member's accounts should hold from their access now. */
  async function syncUser(userId: string): Promise<void> {
    const roles = desiredDiscordRoles(await memberEntitlement(db, userId, clock()), options.roles);
    const changed = await setDesiredRoles(db, userId, roles, options.onEnd === 'kick' && roles.length === 0, clock());
    if (changed) loop.kick();
  }

  /** The member's OAuth token for guilds.join, refreshed when it is about to expire. */
  async function memberToken(row: DiscordMemberRow): Promise<string> {
    const tokens = await tokensOf(db, row.userId, row.discordUserId);
    if (!tokens?.accessToken) throw new DiscordError('unauthorized', 'no Discord token on file: the member must connect Discord again');
    if (!tokens.expiresAt || tokens.expiresAt.getTime() - TOKEN_MARGIN_MS > clock().getTime()) return tokens.accessToken;
    if (!tokens.refreshToken) throw new DiscordError('unauthorized', 'the Discord token expired: the member must connect Discord again');
    const fresh = await port.oauth.refresh(tokens.refreshToken);
    await saveTokens(db, row.userId, row.discordUserId, fresh);
    return fresh.accessToken;
  }

  /** Brings one account in line; answers the managed roles it holds afterwards. */
  async function apply(row: DiscordMemberRow): Promise<string[]> {
    const desired = row.desiredRoles;
    let member: GuildMember | null = await port.bot.getMember(row.discordUserId);
    if (!member) {
      // Not in the guild: nothing to take away; a member with access is added with their roles.
      if (desired.length === 0) return [];
      if ((await port.bot.addMember(row.discordUserId, await memberToken(row), desired)) === 'added') return [...desired];
      member = await port.bot.getMember(row.discordUserId);
      if (!member) return [];
    }
    if (desired.length === 0 && row.removeFromGuild && row.current) {
      await port.bot.kick(row.discordUserId);
      return [];
    }
    const { add, remove } = discordRoleChanges(member.roles, desired, managed);
    for (const role of add) await port.bot.addRole(row.discordUserId, role);
    for (const role of remove) await port.bot.removeRole(row.discordUserId, role);
    return [...desired];
  }

  async function processRow(row: DiscordMemberRow): Promise<boolean> {
    try {
      const applied = await apply(row);
      await finishClaim(db, row, { ok: true, applied }, clock());
      logger.info({ userId: row.userId, discordUserId: row.discordUserId, roles: applied }, 'discord roles in line');
      return true;
    } catch (error) {
      const failure = toDiscordError(error);
      const retryAt = new Date(clock().getTime() + discordRetryDelayMs(row.attempts + 1, failure.details.retryAfterMs));
      // 50013 is the vendor's setup (Manage Roles, role order): it will not pass by waiting alone.
      const log = failure.kind === 'missing_permissions' ? logger.error.bind(logger) : logger.warn.bind(logger);
      log({ userId: row.userId, discordUserId: row.discordUserId, kind: failure.kind, err: failure.message, retryAt }, 'discord role change failed; will retry');
      await finishClaim(db, row, { ok: false, error: `${failure.kind}: ${failure.message}`, retryAt }, clock());
      return false;
    }
  }

  /**
   * Reads every guild member and repairs drift both ways: a member holding a managed role they
   * should not loses it; an account that should hold a role it lacks gets it. Linked accounts with
   * roles due that are not in the guild at all are queued (adding them needs their token).
   */
  async function audit(): Promise<DiscordAuditSummary> {
    const summary: DiscordAuditSummary = { checked: 0, added: 0, removed: 0, requeued: 0 };
    const seen = new Set<string>();
    let after: string | undefined;
    for (;;) {
      const page = await port.bot.listMembers({ ...(after ? { after } : {}), limit: AUDIT_PAGE });
      if (page.length === 0) break;
      const linked = new Map((await currentAccountsByDiscordId(db, page.map((member) => member.userId))).map((row) => [row.discordUserId, row]));
      for (const member of page) {
        seen.add(member.userId);
        summary.checked += 1;
        const row = linked.get(member.userId);
        // Only settled rows are judged: a row waiting for its pass would be repaired by it anyway.
        if (row && row.status !== 'synced') continue;
        const { add, remove } = discordRoleChanges(member.roles, row?.desiredRoles ?? [], managed);
        for (const roleId of remove) {
          await port.bot.removeRole(member.userId, roleId);
          await recordRepair(db, { discordUserId: member.userId, userId: row?.userId ?? null, roleId, action: 'removed', reason: row ? 'held without access' : 'held by no linked member' }, clock());
          summary.removed += 1;
        }
        for (const roleId of add) {
          await port.bot.addRole(member.userId, roleId);
          await recordRepair(db, { discordUserId: member.userId, userId: row!.userId, roleId, action: 'added', reason: 'a member with access was missing it' }, clock());
          summary.added += 1;
        }
      }
      if (page.length < AUDIT_PAGE) break;
      after = page[page.length - 1]!.userId;
    }
    const away = (await settledAccountsWithRoles(db)).filter((row) => !seen.has(row.discordUserId)).map((row) => row.id);
    await markDue(db, away, clock());
    summary.requeued = away.length;
    if (summary.added + summary.removed + summary.requeued > 0) logger.warn(summary, 'discord audit repaired drift');
    return summary;
  }

  const loop = communityReconcilerLoop(
    { linkedMembers: () => linkedMembers(db), syncUser, audit, claimNextDue: () => claimNextDue(db, clock(), leaseMs), processRow },
    { ...options, name: 'discord' },
  );

  return { syncUser, audit, ...loop };
}

export type DiscordReconciler = ReturnType<typeof createDiscordReconciler>;
