// A TradingView username belongs to one member (decision 048): the rules of changing it and the
// words its history is told in. The database holds the uniqueness; these are the pure parts.
import { formatDisplayDate } from './subscription-view';

/** How often a member may change their own username, by default (TRADINGVIEW_USERNAME_CHANGE_DAYS). */
export const USERNAME_CHANGE_COOLDOWN_DAYS = 7;

const DAY_MS = 24 * 60 * 60 * 1000;

/** One name the member linked: who linked it, and why it stopped being current (null: current). */
export type UsernameLinkView = { username: string; linkedAt: Date; replacedAt: Date | null; linkedBy: string; endedBy: string | null };

/**
 * When the member may next change their username themselves: `cooldownDays` after the last time
 * they did (a link of theirs that replaced their previous name). Null: now. Activating a first
 * name, and an operator's correction or transfer, do not count.
 */
export function nextUsernameChangeAt(links: readonly Pick<UsernameLinkView, 'replacedAt' | 'endedBy'>[], cooldownDays: number, now: Date): Date | null {
  if (cooldownDays <= 0) return null;
  let last: Date | null = null;
  for (const link of links) if (link.endedBy === 'member' && link.replacedAt && (!last || link.replacedAt > last)) last = link.replacedAt;
  if (!last) return null;
  const next = new Date(last.getTime() + cooldownDays * DAY_MS);
  return next > now ? next : null;
}

/** The refusal of a change made too soon, with the day it becomes possible. */
export function usernameChangeTooSoonMessage(cooldownDays: number, nextChangeAt: Date): string {
  const every = cooldownDays === 1 ? 'once a day' : `once every ${cooldownDays} days`;
  return `You can change your TradingView username ${every}. You can change it again on ${formatDisplayDate(nextChangeAt, 'UTC')}, or contact support.`;
}

const LINKED_BY: Record<string, string> = {
  member: 'added by the member',
  operator: 'set by an operator',
  transfer: 'transferred by an operator',
  import: 'imported',
};

const ENDED_BY: Record<string, string> = {
  member: 'changed by the member',
  operator: 'corrected by an operator',
  transfer: 'transferred to another member',
  claimed: 'released: claimed by a member with access after this member’s access ended',
  duplicate: 'released: another member with access held the same name',
  import: 'replaced by an import',
};

/** How the console tells who linked a name and why it ended. */
export function describeUsernameLink(link: Pick<UsernameLinkView, 'linkedBy' | 'endedBy' | 'replacedAt'>): { linked: string; ended: string | null } {
  return {
    linked: LINKED_BY[link.linkedBy] ?? link.linkedBy,
    ended: link.replacedAt ? (link.endedBy ? (ENDED_BY[link.endedBy] ?? link.endedBy) : 'replaced') : null,
  };
}
