// Telegram as the member area, the console and the sandbox see it: paths, answers (zod) and words.
import { z } from 'zod';
import { TELEGRAM_USERNAME } from './chats';

export const TELEGRAM_API_PATHS = {
  /** GET: the member's linked Telegram account and its chats. */
  status: '/api/telegram',
  /** POST: a one-time deep link to the shop's bot (paid access only). */
  link: '/api/telegram/link',
  /** POST: unlinks the account; the bot takes it out of the managed chats. */
  disconnect: '/api/telegram/disconnect',
} as const;

export const TELEGRAM_LINK_STATUSES = ['pending', 'synced', 'failed'] as const;

export const telegramChatStatusSchema = z.object({
  chatId: z.string(),
  title: z.string(),
  /** A link for this member alone while they are not in the chat yet; null once in (or while pending). */
  inviteLink: z.string().nullable(),
});

export const telegramStatusResponseSchema = z.discriminatedUnion('connected', [
  /** available: false in a live shop without a bot (TELEGRAM_BOT_TOKEN): the member area shows no Telegram. */
  z.object({ connected: z.literal(false), available: z.boolean() }),
  z.object({
    connected: z.literal(true),
    username: z.string(),
    chats: z.array(telegramChatStatusSchema),
    status: z.enum(TELEGRAM_LINK_STATUSES),
    lastError: z.string().nullable(),
  }),
]);
export type TelegramStatusResponse = z.infer<typeof telegramStatusResponseSchema>;

export const telegramLinkResponseSchema = z.object({ url: z.string().min(1), expiresAt: z.string() });
export type TelegramLinkResponse = z.infer<typeof telegramLinkResponseSchema>;

export const TELEGRAM_TEXTS = {
  title: 'Your Telegram account',
  intro: "Connect Telegram and we invite you to the members' chats automatically, for as long as your membership is active.",
  connect: 'Connect Telegram',
  connecting: 'Opening Telegram...',
  switchAccount: 'Use another Telegram account',
  disconnect: 'Disconnect',
  pending: 'Preparing your invites…',
  noChats: 'No chats yet: your invites appear here while your membership is active.',
  inChat: 'Joined',
  join: 'Join',
  failed: 'Your Telegram invites could not be prepared yet. We will try again automatically.',
  unavailable: 'Your Telegram connection could not be loaded.',
  linkFailed: 'Telegram could not be connected. Please try again.',
} as const;

// ---------------------------------------------------------------- the console

export const telegramAccountSchema = z.object({
  id: z.string(),
  userId: z.string(),
  email: z.string(),
  username: z.string(),
  current: z.boolean(),
  wantedChats: z.array(z.string()),
  heldChats: z.array(z.string()),
  status: z.string(),
  attempts: z.number(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string(),
});
export type TelegramAccount = z.infer<typeof telegramAccountSchema>;

export const telegramManagedChatSchema = z.object({
  chatId: z.string().trim().regex(/^-?\d{5,20}$|^@\w{5,32}$/, 'Chat id: the number Telegram gives the chat (e.g. -1001234567890) or a public @username.'),
  title: z.string().trim().min(1, 'Title: name the chat.').max(128),
  everyPlan: z.boolean(),
  planSlugs: z.array(z.string().trim().min(1).max(64)).max(50),
});
export type TelegramManagedChat = z.infer<typeof telegramManagedChatSchema>;

export const telegramChatsRequestSchema = z.object({ chats: z.array(telegramManagedChatSchema).max(50) });

export const telegramConsoleSchema = z.object({
  adapter: z.enum(['telegram', 'sandbox']),
  counts: z.object({ linked: z.number(), synced: z.number(), pending: z.number(), failing: z.number() }),
  chats: z.array(telegramManagedChatSchema),
  /** The plan slugs the shop sells, to choose from. */
  planSlugs: z.array(z.string()),
  accounts: z.array(telegramAccountSchema),
  repairs: z.array(z.object({ telegramUserId: z.string(), chatId: z.string(), action: z.string(), reason: z.string(), repairedAt: z.string() })),
});
export type TelegramConsole = z.infer<typeof telegramConsoleSchema>;

// ---------------------------------------------------------------- the sandbox Telegram

export const sandboxTelegramChatsSchema = z.object({
  chats: z.array(z.object({ id: z.string(), title: z.string(), members: z.array(z.object({ id: z.string(), username: z.string() })) })),
});
export type SandboxTelegramChats = z.infer<typeof sandboxTelegramChatsSchema>;

export const sandboxTelegramUsernameSchema = z.string().trim().regex(TELEGRAM_USERNAME, 'Username: 5–32 letters, digits or underscores, starting with a letter.');

/** The sandbox user opens the bot's deep link and presses Start. */
export const sandboxTelegramStartSchema = z.object({ username: sandboxTelegramUsernameSchema, token: z.string().min(1).max(128) });
/** The sandbox user opens an invite link, or asks to join a chat. */
export const sandboxTelegramJoinSchema = z.object({ username: sandboxTelegramUsernameSchema, inviteLink: z.string().min(1).max(300).optional(), chatId: z.string().min(1).max(64).optional() });

export const sandboxTelegramAnswerSchema = z.object({ ok: z.boolean(), message: z.string() });
export type SandboxTelegramAnswer = z.infer<typeof sandboxTelegramAnswerSchema>;

/** The sandbox Telegram's page (the Telegram user's side). */
export const SANDBOX_TELEGRAM_PAGE = '/sandbox/telegram';
