// Which managed Telegram chats a member's account should be in: every chat open to every plan,
// plus the chats of the plan that carries the member's access (by plan slug); none without access.
// Chats the shop does not manage, and their members, are never touched.
import type { Entitlement } from '../access-changes';

export type ManagedChat = { chatId: string; title: string; everyPlan: boolean; planSlugs: readonly string[] };

export function managedChatIds(chats: readonly ManagedChat[]): string[] {
  return chats.map((chat) => chat.chatId);
}

/** The chats an entitlement calls for, sorted; none without access. */
export function desiredTelegramChats(entitlement: Pick<Entitlement, 'planType'> | null, chats: readonly ManagedChat[]): string[] {
  if (!entitlement) return [];
  const slug: string = entitlement.planType;
  return chats
    .filter((chat) => chat.everyPlan || chat.planSlugs.includes(slug))
    .map((chat) => chat.chatId)
    .sort();
}

/**
 * The chats an announcement is posted to: those whose every member may read it. An announcement
 * for every plan goes to every managed chat; one for some plans only to the chats that open to
 * those plans alone (never an every-plan chat, whose other members must not read it).
 */
export function announcementChats(chats: readonly ManagedChat[], plans: readonly string[]): string[] {
  return chats
    .filter((chat) => plans.length === 0 || (!chat.everyPlan && chat.planSlugs.length > 0 && chat.planSlugs.every((slug) => plans.includes(slug))))
    .map((chat) => chat.chatId)
    .sort();
}

/** Telegram's limit is 4,096 characters a message: the title, the text, and where to read more. */
export function announcementText(announcement: { title: string; body: string; scriptId: string | null }, link: string): string {
  const about = announcement.scriptId ? ` (${announcement.scriptId})` : '';
  const text = `${announcement.title}${about}\n\n${announcement.body}`;
  const tail = `\n\n${link}`;
  return text.length + tail.length > 4096 ? `${text.slice(0, 4096 - tail.length - 1)}…${tail}` : `${text}${tail}`;
}

/** The wait after the `attempts`-th failed pass: 30 s doubling to an hour, or what Telegram asked (retry_after). */
export function telegramRetryDelayMs(attempts: number, retryAfterMs?: number): number {
  const backoff = Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 60 * 60_000);
  return retryAfterMs !== undefined ? Math.max(retryAfterMs, 1_000) : backoff;
}

/** "/start <token>" as the bot receives a deep link; the token, or null for any other text. */
export function deepLinkToken(text: string | undefined): string | null {
  const match = /^\/start(?:@\w+)?\s+([A-Za-z0-9_-]{16,64})\s*$/.exec(text ?? '');
  return match ? match[1]! : null;
}

/** A username as Telegram allows it: 5–32 letters, digits and underscores, starting with a letter. */
export const TELEGRAM_USERNAME = /^[A-Za-z][A-Za-z0-9_]{4,31}$/;
