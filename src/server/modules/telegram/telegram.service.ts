// The member's and the operator's side of Telegram: the deep link's one-time token, what the bot
// does with an update (a deep link opened: link the account; a join request: approve only a linked
// account whose access calls for that chat), what the member area shows, unlinking, and the
// console's view (accounts, failures, "Retry now", the managed chats by plan slug).
import { randomBytes } from 'node:crypto';
import { deepLinkToken, type ManagedChat } from '@shared/telegram/chats';
import type { TelegramConsole, TelegramStatusResponse } from '@shared/telegram/contract';
import type { Db } from '../../db/client';
import { ApiError } from '../../http/errors';
import { serverError } from '../../http/server-errors';
import type { Logger } from '../../logger';
import { userHasPremiumAccess } from '../access/access.repository';
import { IN_CHAT, type TelegramReconciler } from './telegram-reconciler';
import {
  accountCounts,
  accountsForConsole,
  consumeLinkToken,
  currentAccount,
  currentAccountByTelegramId,
  dropInvite,
  invitesOf,
  latestRepairs,
  linkedMembers,
  linkAccount,
  markDue,
  replaceManagedChats,
  storeLinkToken,
  unlinkAccount,
} from './telegram.repository';
import { toTelegramError, type TelegramBotPort, type TelegramUpdate } from './telegram.port';

/** How long a deep link works: long enough to open Telegram and press Start. */
export const LINK_TOKEN_TTL_MS = 15 * 60_000;

export type TelegramServiceDeps = {
  db: Db;
  port: TelegramBotPort;
  reconciler: Pick<TelegramReconciler, 'syncUser' | 'kick' | 'desiredFor'>;
  chats: () => Promise<ManagedChat[]>;
  /** The plan slugs the shop sells, for the console's choice. */
  planSlugs: () => readonly string[];
  clock: () => Date;
  logger: Logger;
  /** False in a live shop without a bot: members cannot link (the sandbox is for demos only). */
  available: boolean;
};

/** What the bot answered an update with (the sandbox page shows it; the real bot sends it as a message). */
export type UpdateOutcome = { ok: boolean; message: string };

export function createTelegramService(deps: TelegramServiceDeps) {
  const { db, port, reconciler, clock, logger } = deps;
  let botUsername: string | null = null;
  const bot = async () => (botUsername ??= (await port.getMe()).username);

  async function onStart(update: Extract<TelegramUpdate, { kind: 'start' }>): Promise<UpdateOutcome> {
    const token = deepLinkToken(update.text);
    const userId = token ? await consumeLinkToken(db, token, clock()) : null;
    if (!userId) return { ok: false, message: 'This link has expired. Open Connect Telegram in the member area again.' };
    await db.transaction((tx) => linkAccount(tx, userId, update.from, clock()));
    await reconciler.syncUser(userId);
    reconciler.kick();
    logger.info({ userId, telegramUserId: update.from.id, username: update.from.username }, 'telegram account linked');
    return { ok: true, message: `Connected as @${update.from.username}. Your invites are in the member area.` };
  }

  async function onJoinRequest(update: Extract<TelegramUpdate, { kind: 'join_request' }>): Promise<UpdateOutcome> {
    const managed = (await deps.chats()).some((chat) => chat.chatId === update.chatId);
    // a chat the shop does not manage is the vendor's own business
    if (!managed) return { ok: false, message: 'Not a chat of this shop.' };
    const row = await currentAccountByTelegramId(db, update.from.id);
    const allowed = row ? (await reconciler.desiredFor(row.userId)).includes(update.chatId) : false;
    if (allowed) await port.approveJoinRequest(update.chatId, update.from.id);
    else await port.declineJoinRequest(update.chatId, update.from.id);
    logger.info({ telegramUserId: update.from.id, chatId: update.chatId, approved: allowed }, 'telegram join request answered');
    return allowed ? { ok: true, message: 'Approved.' } : { ok: false, message: 'Declined: no active membership is linked to this Telegram account.' };
  }

  return {
    /** A one-time deep link to the bot for a member with paid access. */
    async createLink(userId: string): Promise<{ url: string; expiresAt: string }> {
      if (!deps.available) throw new ApiError(404, 'not_found', 'Telegram is not set up in this shop.');
      if (!(await userHasPremiumAccess(db, userId))) throw serverError('accessRequired');
      const token = randomBytes(24).toString('base64url');
      const expiresAt = new Date(clock().getTime() + LINK_TOKEN_TTL_MS);
      await storeLinkToken(db, userId, token, expiresAt);
      return { url: port.deepLink(await bot(), token), expiresAt: expiresAt.toISOString() };
    },

    /** What the bot does with an update; at least once, so safe to repeat. */
    async handleUpdate(update: TelegramUpdate): Promise<UpdateOutcome> {
      const outcome = update.kind === 'start' ? await onStart(update) : await onJoinRequest(update);
      if (update.kind === 'start') await port.sendMessage(update.from.id, outcome.message).catch((error: unknown) => logger.warn({ err: toTelegramError(error).message }, 'telegram: could not answer the user'));
      return outcome;
    },

    async status(userId: string): Promise<TelegramStatusResponse> {
      const row = await currentAccount(db, userId);
      if (!row) return { connected: false, available: deps.available };
      const [chats, invites] = await Promise.all([deps.chats(), invitesOf(db, row.id)]);
      const titles = new Map(chats.map((chat) => [chat.chatId, chat.title]));
      const links = new Map<string, string>();
      for (const invite of invites) {
        if (invite.expiresAt <= clock() || !row.appliedChats.includes(invite.chatId)) continue;
        // an invite the member has used is done: they are in (asked only while an invite is out)
        const member = await port.getChatMember(invite.chatId, row.telegramUserId).catch(() => null);
        if (member && IN_CHAT.includes(member.status)) await dropInvite(db, row.id, invite.chatId);
        else links.set(invite.chatId, invite.inviteLink);
      }
      return {
        connected: true,
        username: row.username,
        chats: row.appliedChats.map((chatId) => ({ chatId, title: titles.get(chatId) ?? chatId, inviteLink: links.get(chatId) ?? null })),
        status: row.status === 'synced' ? 'synced' : row.status === 'failed' ? 'failed' : 'pending',
        lastError: row.status === 'failed' ? row.lastError : null,
      };
    },

    async disconnect(userId: string): Promise<TelegramStatusResponse> {
      await unlinkAccount(db, userId, clock());
      reconciler.kick();
      logger.info({ userId }, 'telegram account unlinked');
      return { connected: false, available: deps.available };
    },

    async console(): Promise<TelegramConsole> {
      const [counts, chats, accounts, repairs] = await Promise.all([accountCounts(db), deps.chats(), accountsForConsole(db, 100), latestRepairs(db, 20)]);
      return {
        adapter: port.kind,
        counts,
        chats: chats.map((chat) => ({ ...chat, planSlugs: [...chat.planSlugs] })),
        planSlugs: [...deps.planSlugs()],
        accounts: accounts.map(({ row, email }) => ({
          id: row.id,
          userId: row.userId,
          email,
          username: row.username,
          current: row.current,
          wantedChats: row.desiredChats,
          heldChats: row.appliedChats,
          status: row.status,
          attempts: row.attempts,
          lastError: row.lastError,
          nextAttemptAt: row.nextAttemptAt.toISOString(),
        })),
        repairs: repairs.map((repair) => ({ telegramUserId: repair.telegramUserId, chatId: repair.chatId, action: repair.action, reason: repair.reason, repairedAt: repair.repairedAt.toISOString() })),
      };
    },

    /** "Retry now": the account's pass runs now instead of after its back-off. */
    async retry(memberId: string): Promise<void> {
      if ((await markDue(db, [memberId], clock())) === 0) throw new ApiError(404, 'not_found', 'No linked Telegram account has this id.');
      reconciler.kick();
    },

    /** Saves the managed chats; every linked member's chats follow at once (a plan's chats swapped, a chat added or dropped). */
    async saveChats(chats: readonly ManagedChat[]): Promise<void> {
      await db.transaction((tx) => replaceManagedChats(tx, chats, clock()));
      for (const userId of await linkedMembers(db)) await reconciler.syncUser(userId);
      reconciler.kick();
    },
  };
}

export type TelegramService = ReturnType<typeof createTelegramService>;
