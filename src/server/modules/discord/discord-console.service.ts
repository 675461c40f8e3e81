// The console's Discord page: how many members are linked and where their roles stand, each linked
// account with the roles it should hold and holds (by name while Discord answers, else by id), a
// "retry now" for a failing account and an on-demand audit of the guild, both in the audit log.
// Roles are only ever changed by the Discord module's reconciler; this page asks it to act sooner.
import {
  DISCORD_ACCOUNTS_PAGE_SIZE,
  DISCORD_REPAIRS_SHOWN,
  type ActionResult,
  type DiscordAccount,
  type DiscordAccounts,
  type DiscordAccountsQuery,
  type DiscordAuditSummary,
  type DiscordOverview,
  type DiscordRepairs,
  type DiscordRoleRef,
  type DiscordRoles,
} from '@shared/admin-contract';
import type { Db } from '../../db/client';
import { serverError } from '../../http/server-errors';
import type { OperatorAuditEntry } from '../../integration';
import { accountStatusOf, nextAttemptOf } from '../../linked-accounts';
import type { DiscordReconciler } from './discord-reconciler';
import { markDue } from './discord.repository';
import { ROLE_NAMES_CACHE_MS } from './discord.service';
import { toDiscordError, type DiscordPort } from './discord.port';
import { discordAccountsPage, discordCounts, findDiscordAccount, latestRepairsWithMembers, type DiscordAccountRow } from './discord-console.repository';

export type DiscordConsoleDeps = {
  db: Db;
  port: Pick<DiscordPort, 'kind' | 'bot'>;
  reconciler: Pick<DiscordReconciler, 'audit' | 'kick'>;
  clock: () => Date;
  /** Writes the console's audit log (modules/admin's). */
  audit: (entry: OperatorAuditEntry) => Promise<void>;
  rolesCacheMs?: number;
};

type RoleNames = { names: Map<string, string>; error: string | null };

/**
 * The guild's role names, kept ROLE_NAMES_CACHE_MS like the member area's. A failure is not kept:
 * it answers the last names known (or none) with the error, and the next read asks again.
 */
function createRoleNames({ port, clock, rolesCacheMs = ROLE_NAMES_CACHE_MS }: Pick<DiscordConsoleDeps, 'port' | 'clock' | 'rolesCacheMs'>) {
  let kept: { at: number; names: Map<string, string> } | null = null;
  return async (): Promise<RoleNames> => {
    if (kept && clock().getTime() - kept.at < rolesCacheMs) return { names: kept.names, error: null };
    try {
      const names = new Map((await port.bot.roles()).map((role) => [role.id, role.name]));
      kept = { at: clock().getTime(), names };
      return { names, error: null };
    } catch (error) {
      const failure = toDiscordError(error);
      return { names: kept?.names ?? new Map(), error: `${failure.kind}: ${failure.message}` };
    }
  };
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

export function createDiscordConsoleService(deps: DiscordConsoleDeps) {
  const { db, port, reconciler, clock, audit } = deps;
  const roleNames = createRoleNames(deps);
  const refs = (ids: readonly string[], names: Map<string, string>): DiscordRoleRef[] => ids.map((id) => ({ id, name: names.get(id) ?? null }));

  function account(row: DiscordAccountRow, names: Map<string, string>): DiscordAccount {
    return {
      id: row.id,
      userId: row.userId,
      email: row.email,
      discordUserId: row.discordUserId,
      username: row.username,
      current: row.current,
      wantedRoles: refs(row.desiredRoles, names),
      heldRoles: refs(row.appliedRoles, names),
      status: accountStatusOf(row.status),
      attempts: row.attempts,
      lastError: row.lastError,
      nextAttemptAt: iso(nextAttemptOf(row)),
      failingSince: iso(row.failingSince),
      linkedAt: row.linkedAt.toISOString(),
    };
  }

  return {
    async overview(): Promise<DiscordOverview> {
      return { adapter: port.kind, ...(await discordCounts(db)) };
    },

    async roles(): Promise<DiscordRoles> {
      const { names, error } = await roleNames();
      return { roles: [...names].map(([id, name]) => ({ id, name })), error };
    },

    async accounts(query: DiscordAccountsQuery): Promise<DiscordAccounts> {
      const { rows, total } = await discordAccountsPage(db, { failingOnly: query.failing, page: query.page, pageSize: DISCORD_ACCOUNTS_PAGE_SIZE });
      const { names } = rows.length > 0 ? await roleNames() : { names: new Map<string, string>() };
      return { accounts: rows.map((row) => account(row, names)), page: query.page, pageSize: DISCORD_ACCOUNTS_PAGE_SIZE, total };
    },

    async repairs(): Promise<DiscordRepairs> {
      const rows = await latestRepairsWithMembers(db, DISCORD_REPAIRS_SHOWN);
      const { names } = rows.length > 0 ? await roleNames() : { names: new Map<string, string>() };
      return {
        repairs: rows.map((row) => ({
          id: row.id,
          repairedAt: row.repairedAt.toISOString(),
          userId: row.userId,
          email: row.email,
          discordUserId: row.discordUserId,
          username: row.username,
          role: { id: row.roleId, name: names.get(row.roleId) ?? null },
          action: row.action,
          reason: row.reason,
        })),
      };
    },

    /** A failing account's next pass now instead of after its back-off; the reconciler is woken. */
    async retryNow(accountId: string, operator: { email: string }): Promise<ActionResult> {
      const row = await findDiscordAccount(db, accountId);
      if (!row) throw serverError('noMember');
      // A row that is not failing is waiting for its pass already (or under way: its lease stays).
      if (row.status !== 'failed') return { message: `${row.username} is not failing (${row.status}): nothing to retry.` };
      await markDue(db, [row.id], clock());
      reconciler.kick();
      await audit({
        operator: operator.email,
        action: 'discord.retry_now',
        targetUserId: row.userId,
        details: { discordUserId: row.discordUserId, username: row.username, attempts: row.attempts, lastError: row.lastError },
      });
      return { message: `Retrying ${row.username} now.` };
    },

    /**
     * Reads the whole guild and repairs drift both ways now, instead of at the next interval. A
     * Discord failure answers 502 with its cause in the details (`reason`); the repairs made before
     * it stand, each in the repairs list.
     */
    async runAudit(operator: { email: string }): Promise<DiscordAuditSummary> {
      let summary: DiscordAuditSummary;
      try {
        summary = await reconciler.audit();
      } catch (error) {
        const failure = toDiscordError(error);
        throw serverError('discordUnavailable', { reason: `${failure.kind}: ${failure.message}` });
      }
      // accounts the audit found missing from the guild are due now
      if (summary.requeued > 0) reconciler.kick();
      await audit({ operator: operator.email, action: 'discord.run_audit', details: { ...summary } });
      return summary;
    },
  };
}

export type DiscordConsoleService = ReturnType<typeof createDiscordConsoleService>;
