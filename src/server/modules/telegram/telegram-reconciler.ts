// Telegram chats as reconciled state, like Discord roles: syncUser turns a member's access into
// the managed chats each of their linked accounts should be in; the loop leases due rows and brings
// the chats in line (an invite link for one member where they should be and are not, ban then unban
// where they should not be); the audit reads every settled account's membership and repairs drift
// both ways. Chats the shop does not manage, and users it has no link to, are never touched.
import { desiredTelegramChats, managedChatIds, telegramRetryDelayMs, type ManagedChat } from '@shared/telegram/chats';
import type { Db } from '../../db/client';
import { communityReconcilerLoop } from '../../jobs/community-reconciler-loop';
import type { Logger } from '../../logger';
import { memberEntitlement } from '../entitlements/entitlements.repository';
import {
  claimNextDue,
  dropInvite,
  finishClaim,
  invitesOf,
  linkedMembers,
  markDue,
  recordRepair,
  saveInvite,
  setDesiredChats,
  settledAccounts,
  type TelegramMemberRow,
} from './telegram.repository';
import { toTelegramError, type ChatMemberStatus, type TelegramBotPort } from './telegram.port';

export type TelegramAuditSummary = { checked: number; invited: number; removed: number };

export type TelegramReconcilerOptions = {
  db: Db;
  port: TelegramBotPort;
  /** The managed chats now (the operator's data; the sandbox's default chat while there is none). */
  chats: () => Promise<ManagedChat[]>;
  logger: Logger;
  clock: () => Date;
  inviteTtlMs: number;
  auditIntervalMs: number;
  intervalMs?: number;
  leaseMs?: number;
  batchSize?: number;
  sweepIntervalMs?: number;
};

/** The statuses of a user who is in the chat. */
export const IN_CHAT: readonly ChatMemberStatus[] = ['member', 'restricted', 'administrator', 'creator'];
/** An invite this close to its expiry is replaced before it is shown again. */
const INVITE_MARGIN_MS = 60 * 60_000;

export function createTelegramReconciler(options: TelegramReconcilerOptions) {
  const { db, port, logger, clock } = options;
  const leaseMs = options.leaseMs ?? 60_000;

  /** The chats the member's current account should be in now, from their access. */
  async function desiredFor(userId: string): Promise<string[]> {
    return desiredTelegramChats(await memberEntitlement(db, userId, clock()), await options.chats());
  }

  /** Recomputes the chats the member's accounts should be in. */
  async function syncUser(userId: string): Promise<void> {
    const changed = await setDesiredChats(db, userId, await desiredFor(userId), clock());
    if (changed) loop.kick();
  }

  /** A link for this account alone (member_limit 1), kept until it nears its expiry. */
  async function ensureInvite(row: TelegramMemberRow, chatId: string, kept: Map<string, { inviteLink: string; expiresAt: Date }>): Promise<void> {
    const invite = kept.get(chatId);
    if (invite && invite.expiresAt.getTime() - INVITE_MARGIN_MS > clock().getTime()) return;
    const expiresAt = new Date(clock().getTime() + options.inviteTtlMs);
    const link = await port.createInviteLink(chatId, { memberLimit: 1, expiresAt, name: `member ${row.telegramUserId}` });
    await saveInvite(db, row.id, chatId, link, expiresAt);
    if (invite) await port.revokeInviteLink(chatId, invite.inviteLink).catch(() => undefined);
  }

  /** Brings one account in line; answers the chats it was let into. */
  async function apply(row: TelegramMemberRow): Promise<string[]> {
    const desired = new Set(row.current ? row.desiredChats : []);
    const managed = managedChatIds(await options.chats());
    const kept = new Map((await invitesOf(db, row.id)).map((invite) => [invite.chatId, invite]));
    for (const chatId of managed) {
      const member = await port.getChatMember(chatId, row.telegramUserId);
      const inChat = IN_CHAT.includes(member.status);
      if (desired.has(chatId)) {
        if (inChat) {
          if (kept.has(chatId)) await dropInvite(db, row.id, chatId);
          continue;
        }
        await ensureInvite(row, chatId, kept);
      } else {
        // the chat's own administrators are the vendor's people: never taken out
        if (inChat && member.status !== 'administrator' && member.status !== 'creator') await port.removeMember(chatId, row.telegramUserId);
        const invite = kept.get(chatId);
        if (invite) {
          await port.revokeInviteLink(chatId, invite.inviteLink).catch(() => undefined);
          await dropInvite(db, row.id, chatId);
        }
      }
    }
    return [...desired].filter((chatId) => managed.includes(chatId));
  }

  async function processRow(row: TelegramMemberRow): Promise<boolean> {
    try {
      const applied = await apply(row);
      await finishClaim(db, row, { ok: true, applied }, clock());
      logger.info({ userId: row.userId, telegramUserId: row.telegramUserId, chats: applied }, 'telegram chats in line');
      return true;
    } catch (error) {
      const failure = toTelegramError(error);
      const retryAt = new Date(clock().getTime() + telegramRetryDelayMs(row.attempts + 1, failure.details.retryAfterMs));
      const log = failure.kind === 'forbidden' || failure.kind === 'chat_not_found' ? logger.error.bind(logger) : logger.warn.bind(logger);
      log({ userId: row.userId, telegramUserId: row.telegramUserId, kind: failure.kind, err: failure.message, retryAt }, 'telegram chat change failed; will retry');
      await finishClaim(db, row, { ok: false, error: `${failure.kind}: ${failure.message}`, retryAt }, clock());
      return false;
    }
  }

  /**
   * Reads each settled account's membership of every managed chat and repairs drift both ways:
   * in a chat it should not be in → taken out; should be in, not in and without a working invite
   * → queued for a fresh one. Only linked accounts are read: other chat members are never touched.
   */
  async function audit(): Promise<TelegramAuditSummary> {
    const summary: TelegramAuditSummary = { checked: 0, invited: 0, removed: 0 };
    const managed = managedChatIds(await options.chats());
    const requeue: string[] = [];
    for (const row of await settledAccounts(db)) {
      const desired = new Set(row.current ? row.desiredChats : []);
      const invites = new Map((await invitesOf(db, row.id)).map((invite) => [invite.chatId, invite]));
      for (const chatId of managed) {
        summary.checked += 1;
        const member = await port.getChatMember(chatId, row.telegramUserId);
        const inChat = IN_CHAT.includes(member.status);
        if (inChat && !desired.has(chatId) && member.status !== 'administrator' && member.status !== 'creator') {
          await port.removeMember(chatId, row.telegramUserId);
          await recordRepair(db, { telegramUserId: row.telegramUserId, userId: row.userId, chatId, action: 'removed', reason: 'in the chat without access' }, clock());
          summary.removed += 1;
        } else if (!inChat && desired.has(chatId)) {
          const invite = invites.get(chatId);
          if (invite && invite.expiresAt.getTime() - INVITE_MARGIN_MS > clock().getTime()) continue;
          await recordRepair(db, { telegramUserId: row.telegramUserId, userId: row.userId, chatId, action: 'invited', reason: 'a member with access was out of the chat without an invite' }, clock());
          requeue.push(row.id);
          summary.invited += 1;
        }
      }
    }
    await markDue(db, [...new Set(requeue)], clock());
    if (summary.invited + summary.removed > 0) {
      logger.warn(summary, 'telegram audit repaired drift');
      loop.kick();
    }
    return summary;
  }

  const loop = communityReconcilerLoop(
    { linkedMembers: () => linkedMembers(db), syncUser, audit, claimNextDue: () => claimNextDue(db, clock(), leaseMs), processRow },
    { ...options, name: 'telegram' },
  );

  return { syncUser, desiredFor, audit, ...loop };
}

export type TelegramReconciler = ReturnType<typeof createTelegramReconciler>;
