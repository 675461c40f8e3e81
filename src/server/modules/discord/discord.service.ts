// The member's side of Discord: linking an account once better-auth's OAuth callback has stored
// its tokens, what the member area shows of the link, and unlinking. The roles themselves are the
// reconciler's: every change here ends in its syncUser.
import { and, eq, ne } from 'drizzle-orm';
import type { DiscordStatusResponse } from '@shared/discord-contract';
import type { Db } from '../../db/client';
import { account } from '../../db/schema';
import { serverError } from '../../http/server-errors';
import type { Logger } from '../../logger';
import { userHasPremiumAccess } from '../access/access.repository';
import type { DiscordReconciler } from './discord-reconciler';
import { currentAccount, currentAccountsByDiscordId, DISCORD_PROVIDER_ID, linkAccount, unlinkAccount, type DiscordMemberRow } from './discord.repository';
import { toDiscordError, type DiscordPort } from './discord.port';

/** How long the guild's role names are kept: they change rarely, and every status read shows them. */
export const ROLE_NAMES_CACHE_MS = 60_000;

/** A link better-auth has just stored: the member, the Discord account's id and its access token. */
export type DiscordLink = { userId: string; discordUserId: string; accessToken: string };

export type DiscordLinkingDeps = {
  db: Db;
  port: Pick<DiscordPort, 'oauth'>;
  reconciler: Pick<DiscordReconciler, 'syncUser'>;
  clock: () => Date;
  logger: Logger;
};

// Postgres unique_violation (pg and PGlite), possibly wrapped by drizzle.
function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth += 1) {
    if (typeof current === 'object' && (current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * What better-auth's Discord provider needs from this module (auth.ts, AuthDeps.discord): the
 * OAuth port, whether a member may connect, and the link's bookkeeping once better-auth stored
 * the account row. Built by the integration (discord.integration.ts) and handed to createAuth as
 * callbacks, so the auth module never imports the reconciler.
 */
export function createDiscordLinking(deps: DiscordLinkingDeps) {
  const { db, port, reconciler, clock, logger } = deps;
  return {
    oauth: port.oauth,
    /** Discord is part of paid access: the same rule as every member route. */
    mayLink: (userId: string) => userHasPremiumAccess(db, userId),
    /**
     * Makes the account the member's current one (an older one keeps its row, not current, so
     * that the reconciler takes the roles off it), drops better-auth's row of the older account,
     * and asks for the roles. Throws an ApiError (discordAlreadyLinked, discordUnavailable) when
     * the link cannot be kept; better-auth's row is then removed by the caller.
     */
    async onLinked(link: DiscordLink): Promise<void> {
      let user;
      try {
        user = await port.oauth.currentUser(link.accessToken);
      } catch (error) {
        logger.warn({ userId: link.userId, err: toDiscordError(error).message }, 'discord link: could not read the linked account');
        throw serverError('discordUnavailable');
      }
      if (user.id !== link.discordUserId) {
        logger.error({ userId: link.userId, stored: link.discordUserId, answered: user.id }, 'discord link: the token belongs to another account');
        throw serverError('discordUnavailable');
      }
      try {
        await db.transaction(async (tx) => {
          // a Discord account is the current link of one member at most (better-auth checks its own rows first)
          if ((await currentAccountsByDiscordId(tx, [user.id])).some((row) => row.userId !== link.userId)) throw serverError('discordAlreadyLinked');
          await linkAccount(tx, link.userId, user, clock());
          // better-auth keeps one row per provider account: the member's older Discord account goes
          await tx.delete(account).where(and(eq(account.userId, link.userId), eq(account.providerId, DISCORD_PROVIDER_ID), ne(account.accountId, user.id)));
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw serverError('discordAlreadyLinked');
        throw error;
      }
      await reconciler.syncUser(link.userId);
      logger.info({ userId: link.userId, discordUserId: user.id, username: user.username }, 'discord account linked');
    },
  };
}

export type DiscordLinking = ReturnType<typeof createDiscordLinking>;

export type DiscordServiceDeps = {
  db: Db;
  port: Pick<DiscordPort, 'bot'>;
  reconciler: Pick<DiscordReconciler, 'syncUser' | 'kick'>;
  clock: () => Date;
  logger: Logger;
  rolesCacheMs?: number;
};

/** The guild's role names by id, kept a while; the last known (or none) while Discord fails. */
function createRoleNames({ port, clock, logger, rolesCacheMs = ROLE_NAMES_CACHE_MS }: Pick<DiscordServiceDeps, 'port' | 'clock' | 'logger' | 'rolesCacheMs'>) {
  let kept: { at: number; names: Map<string, string> } | null = null;
  let loading: Promise<Map<string, string>> | null = null;
  return (): Promise<Map<string, string>> => {
    if (kept && clock().getTime() - kept.at < rolesCacheMs) return Promise.resolve(kept.names);
    loading ??= port.bot
      .roles()
      .then((roles) => {
        const names = new Map(roles.map((role) => [role.id, role.name]));
        kept = { at: clock().getTime(), names };
        return names;
      })
      .catch((error: unknown) => {
        logger.warn({ err: toDiscordError(error).message }, 'discord: could not read the guild roles');
        return kept?.names ?? new Map<string, string>();
      })
      .finally(() => {
        loading = null;
      });
    return loading;
  };
}

const memberStatus = (row: DiscordMemberRow) => (row.status === 'synced' ? 'synced' : row.status === 'failed' ? 'failed' : 'pending');

export function createDiscordService(deps: DiscordServiceDeps) {
  const { db, reconciler, clock, logger } = deps;
  const roleNames = createRoleNames(deps);

  return {
    /** The member's current Discord account, the managed roles it holds by name, and where the roles stand. */
    async status(userId: string): Promise<DiscordStatusResponse> {
      const row = await currentAccount(db, userId);
      if (!row) return { connected: false };
      const names = row.appliedRoles.length > 0 ? await roleNames() : new Map<string, string>();
      return {
        connected: true,
        username: row.username,
        roles: row.appliedRoles.map((id) => ({ id, name: names.get(id) ?? id })),
        status: memberStatus(row),
        lastError: row.status === 'failed' ? row.lastError : null,
      };
    },

    /** Unlinks the member's account (better-auth's row too); the reconciler takes its roles off. */
    async disconnect(userId: string): Promise<DiscordStatusResponse> {
      await db.transaction((tx) => unlinkAccount(tx, userId, clock()));
      await reconciler.syncUser(userId);
      // the unlinked row is due now; syncUser wakes the loop only when a target changed
      reconciler.kick();
      logger.info({ userId }, 'discord account unlinked');
      return { connected: false };
    },
  };
}

export type DiscordService = ReturnType<typeof createDiscordService>;
