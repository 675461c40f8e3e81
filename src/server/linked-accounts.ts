// What the rest of the shop reads of a member's accounts in a community integration (decision
// 060): each integration keeps its link rows to itself and answers these reads, so that the
// console's member page, the /metrics gauges, the funnel's "community linked" step and the set-up
// reminders name no integration's table, and a new community answers them the same way.
import type { SQL } from 'drizzle-orm';
import { LINKED_ACCOUNT_STATUSES, type LinkedAccountStatus } from '@shared/admin-contract';

/** One account a member linked in a community, as its integration's reconciler keeps it. */
export type LinkedAccount = {
  userId: string;
  /** The account's id there (the service's user id) and its name. */
  accountId: string;
  username: string;
  /** The member's linked account; false for one unlinked or replaced, kept until it holds nothing. */
  current: boolean;
  /** The ids of what the account should hold there (roles, chats) and of what the last pass gave it. */
  wanted: string[];
  held: string[];
  status: LinkedAccountStatus;
  attempts: number;
  lastError: string | null;
  /** When its next pass is due; null when synced or under way. */
  nextAttemptAt: Date | null;
  linkedAt: Date;
};

export type MemberLinkReads = {
  /** What an account is given there, in words: "roles", "chats". */
  gives: string;
  /**
   * Every account these members linked, each member's current one first, and the names of what
   * they are given that the shop knows without asking the service (none for Discord's roles).
   */
  accountsOf: (userIds: readonly string[]) => Promise<{ accounts: LinkedAccount[]; names: Record<string, string> }>;
  /** Accounts due a pass at `now` (pending, under way or retrying) and those whose last attempt failed. */
  backlog: (now: Date) => Promise<{ due: number; failed: number }>;
  /**
   * A SELECT of user_id and linked_at, a row for every account ever linked there: the funnel takes
   * each member's first link to any community in one statement over every integration's.
   */
  linkTimes: () => SQL;
};

/** A link row as both integrations keep it (their own columns renamed to these). */
type LinkRow = Omit<LinkedAccount, 'status' | 'nextAttemptAt'> & { status: string; nextAttemptAt: Date };

const isStatus = (status: string): status is LinkedAccountStatus => (LINKED_ACCOUNT_STATUSES as readonly string[]).includes(status);

/** A row's status as the console names it (an unknown one reads as pending). */
export const accountStatusOf = (status: string): LinkedAccountStatus => (isStatus(status) ? status : 'pending');

/** When the row's next pass is due: only a row waiting for one (pending, or failed and backing off) has it. */
export const nextAttemptOf = (row: { status: string; nextAttemptAt: Date }): Date | null => (row.status === 'pending' || row.status === 'failed' ? row.nextAttemptAt : null);

/** A link row as the rest of the shop reads it: its state named, its next attempt only while one is due. */
export const linkedAccount = (row: LinkRow): LinkedAccount => ({
  userId: row.userId,
  accountId: row.accountId,
  username: row.username,
  current: row.current,
  wanted: row.wanted,
  held: row.held,
  status: accountStatusOf(row.status),
  attempts: row.attempts,
  lastError: row.lastError,
  nextAttemptAt: nextAttemptOf(row),
  linkedAt: row.linkedAt,
});

/** An integration whose members link accounts there, with its reads. */
export type Community = { name: string; title: string; links: MemberLinkReads };

/** The community integrations among the built ones (integration.ts): those that answer `links` in this shop. */
export const communitiesOf = (integrations: readonly { name: string; title: string; links?: MemberLinkReads }[]): Community[] =>
  integrations.flatMap(({ name, title, links }) => (links ? [{ name, title, links }] : []));
