// What the shop asks of Telegram: the Bot API calls of a bot that is an administrator of the
// vendor's chats (invite links for one member, ban then unban to take someone out, join requests,
// a message to the user who opened the deep link). The real adapter is grammY's Api
// (telegram-client.ts); the sandbox keeps its chats in the database (sandbox-telegram.ts). Every
// failure is a TelegramError with a kind the reconciler can act on.

export type TelegramUser = { id: string; username: string };

/** Telegram's statuses of a chat member; 'left' also stands for a user the chat never saw. */
export type ChatMemberStatus = 'creator' | 'administrator' | 'member' | 'restricted' | 'left' | 'kicked';

export type ChatMember = { status: ChatMemberStatus; canInviteUsers?: boolean; canRestrictMembers?: boolean };

export type TelegramChat = { id: string; title: string; type: string };

/** What the bot receives (a webhook update, or the sandbox's): a deep link opened, a join request. */
export type TelegramUpdate =
  | { kind: 'start'; from: TelegramUser; text: string }
  | { kind: 'join_request'; from: TelegramUser; chatId: string };

export const TELEGRAM_ERROR_KINDS = [
  /** 429: try again after `retryAfterMs` (Telegram's retry_after). */
  'rate_limited',
  /** 403, or 400 "not enough rights": the bot is not an administrator with the right to do this. */
  'forbidden',
  /** 400 "chat not found": a configured chat id does not exist (or the bot is not in it). */
  'chat_not_found',
  /** 401: the bot token is not valid. */
  'unauthorized',
  /** Other 400s. */
  'bad_request',
  /** Timeouts, refused connections, 5xx. */
  'network',
  'unexpected',
] as const;
export type TelegramErrorKind = (typeof TELEGRAM_ERROR_KINDS)[number];

export class TelegramError extends Error {
  constructor(
    readonly kind: TelegramErrorKind,
    message: string,
    readonly details: { status?: number; retryAfterMs?: number } = {},
  ) {
    super(message);
    this.name = 'TelegramError';
  }
}

export function toTelegramError(error: unknown): TelegramError {
  if (error instanceof TelegramError) return error;
  return new TelegramError('unexpected', error instanceof Error ? error.message : String(error));
}

/** The bot: every call is idempotent, as the reconciler may repeat it after a crash. */
export type TelegramBotPort = {
  kind: 'telegram' | 'sandbox';
  /** The bot's own account (its username makes the deep link). */
  getMe: () => Promise<TelegramUser>;
  getChat: (chatId: string) => Promise<TelegramChat>;
  /** The user's membership; 'left' for a user not in the chat. */
  getChatMember: (chatId: string, userId: string) => Promise<ChatMember>;
  /** A link for one member: `memberLimit` 1 and an expiry. */
  createInviteLink: (chatId: string, options: { memberLimit: number; expiresAt: Date; name: string }) => Promise<string>;
  revokeInviteLink: (chatId: string, link: string) => Promise<void>;
  /** Takes the user out of the chat and lets them come back later: ban, then unban (only if banned). */
  removeMember: (chatId: string, userId: string) => Promise<void>;
  approveJoinRequest: (chatId: string, userId: string) => Promise<void>;
  declineJoinRequest: (chatId: string, userId: string) => Promise<void>;
  sendMessage: (chatId: string, text: string) => Promise<void>;
  /** Where Telegram posts the bot's updates (real bot only; the sandbox delivers them itself). */
  setWebhook?: (url: string, secretToken: string) => Promise<void>;
  /** The address a member opens to start the bot with `token` (t.me, or the sandbox's page). */
  deepLink: (botUsername: string, token: string) => string;
};
