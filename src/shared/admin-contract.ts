// The operator console's JSON API: paths and response schemas shared by the server's
// routes and the console's calls, so a change on one side fails the other's typecheck or parse.
import { z } from 'zod';
import { ACCESS_CHANGE_KINDS } from './access-changes';
import { OPERATOR_STANDINGS } from './operator-standing';
import { FREE_DAYS_MAX, FREE_DAYS_MIN, PAUSED_ACCESS } from './support-actions';
import { rulesNamedPasswordSchema } from './password-rules';
import { emailSchema } from './validation';

export const ADMIN_API = '/api/admin';

/** A linked community account's state in its integration's reconciler: pending → processing → synced, or failed (retried). */
export const LINKED_ACCOUNT_STATUSES = ['pending', 'processing', 'synced', 'failed'] as const;
export type LinkedAccountStatus = (typeof LINKED_ACCOUNT_STATUSES)[number];

export const MEMBER_STATUSES = ['active', 'comp', 'past_due', 'churned', 'none'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

const money = z.object({ currency: z.string(), amount: z.number().int() });
const revenueLine = z.object({ plan: z.string(), currency: z.string(), amount: z.number().int(), orders: z.number().int() });

/**
 * GET /api/operator: whether the signed-in user may open the console, and if they are named but
 * may not yet, what is missing (src/shared/operator-standing.ts).
 */
export const OPERATOR_STATUS_PATH = '/api/operator';
export const operatorStatusSchema = z.object({ operator: z.boolean(), standing: z.enum(OPERATOR_STANDINGS) });
export type OperatorStatus = z.infer<typeof operatorStatusSchema>;

/** GET /api/admin/operators: every named operator and how far their account has proven itself. */
export const operatorListSchema = z.object({
  operators: z.array(
    z.object({
      email: z.string(),
      /** 'ADMIN_EMAILS', or who added or invited them ('command-line', an operator's e-mail). */
      namedBy: z.string(),
      account: z.object({ emailVerified: z.boolean(), twoFactorEnabled: z.boolean() }).nullable(),
    }),
  ),
  twoFactorRequired: z.boolean(),
});
export type OperatorList = z.infer<typeof operatorListSchema>;

/** POST /api/admin/operators/invite: names the address an operator and mails a one-time link. */
export const operatorInviteRequestSchema = z.object({ email: emailSchema });

/** GET /api/operator-invitations/:token, POST /api/operator-invitations/accept (no session needed: the link is the proof). */
export const OPERATOR_INVITATIONS_PATH = '/api/operator-invitations';
export const operatorInvitationSchema = z.object({ email: z.string(), accountExists: z.boolean(), expiresAt: z.string() });
export const operatorInvitationAcceptSchema = z.object({ token: z.string().min(1).max(128), password: rulesNamedPasswordSchema });
export const operatorInvitationAcceptedSchema = z.object({ email: z.string(), signedIn: z.boolean() });
export type OperatorInvitationView = z.infer<typeof operatorInvitationSchema>;
export type OperatorInvitationAccepted = z.infer<typeof operatorInvitationAcceptedSchema>;

export const overviewSchema = z.object({
  revenue: z.object({ today: z.array(revenueLine), days7: z.array(revenueLine), days30: z.array(revenueLine) }),
  activeMembers: z.array(z.object({ plan: z.string(), members: z.number().int() })),
  mrr: z.array(money),
  /** First access within the last 30 days; `since` is the first of those days (YYYY-MM-DD). */
  newMembers: z.object({ count: z.number().int(), since: z.string() }),
  /** Had access 30 days ago and none now. */
  churnedMembers: z.number().int(),
  refunds: z.object({ count: z.number().int(), amounts: z.array(money) }),
  disputes: z.object({ count: z.number().int(), amounts: z.array(money) }),
  attention: z.object({ duplicatesRefunded: z.number().int(), duplicatesPending: z.number().int(), failedRenewals: z.number().int() }),
  chart: z.array(z.object({ day: z.string(), revenue: z.record(z.string(), z.number()), members: z.number().int() })),
});
export type Overview = z.infer<typeof overviewSchema>;

export const memberListQuerySchema = z.object({
  q: z.string().trim().max(200).optional(),
  status: z.enum(MEMBER_STATUSES).optional(),
  plan: z.string().trim().max(40).optional(),
  /** Members whose first subscription started on or after this day (YYYY-MM-DD). */
  since: z.iso.date().optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type MemberListQuery = z.infer<typeof memberListQuerySchema>;

export const MEMBERS_PAGE_SIZE = 25;

export const memberListSchema = z.object({
  members: z.array(
    z.object({
      id: z.string(),
      email: z.string(),
      tradingviewUsername: z.string().nullable(),
      status: z.enum(MEMBER_STATUSES),
      plan: z.string().nullable(),
      createdAt: z.string(),
      /** An operator of this shop (ADMIN_EMAILS or stored): marked in the list. */
      isOperator: z.boolean(),
    }),
  ),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type MemberList = z.infer<typeof memberListSchema>;

export const memberDetailSchema = z.object({
  /** isOperator: an operator of this shop (ADMIN_EMAILS or stored), to whom member actions such as comp access do not apply. */
  account: z.object({ id: z.string(), email: z.string(), name: z.string(), createdAt: z.string(), emailVerified: z.boolean(), status: z.enum(MEMBER_STATUSES), isOperator: z.boolean() }),
  subscriptions: z.array(
    z.object({
      id: z.string(),
      plan: z.string(),
      status: z.string(),
      isActive: z.boolean(),
      expiresAt: z.string().nullable(),
      cancelAtPeriodEnd: z.boolean(),
      provider: z.string(),
      providerCustomerId: z.string().nullable(),
      providerSubscriptionId: z.string().nullable(),
      checkoutSessionId: z.string().nullable(),
      revokedReason: z.string().nullable(),
      collectionPaused: z.boolean(),
      tradingviewUsername: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
  orders: z.array(
    z.object({
      id: z.string(),
      plan: z.string(),
      amount: z.number().int(),
      currency: z.string(),
      status: z.string(),
      /** The payment at the provider a refund goes back through (null: none known). */
      providerPaymentId: z.string().nullable(),
      checkoutSessionId: z.string().nullable(),
      duplicateStatus: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
  grants: z.array(
    z.object({
      username: z.string(),
      desired: z.string(),
      status: z.string(),
      expiresAt: z.string().nullable(),
      attempts: z.number().int(),
      lastError: z.string().nullable(),
      nextAttemptAt: z.string().nullable(),
      /** Per script: whether the shop has given this username access on TradingView, and until when (null: no expiry). */
      scripts: z.array(z.object({ scriptId: z.string(), name: z.string(), granted: z.boolean(), grantedUntil: z.string().nullable() })),
    }),
  ),
  securityEvents: z.array(z.object({ id: z.string(), event: z.string(), count: z.number().int(), ipAddress: z.string().nullable(), createdAt: z.string() })),
  /** Where the operator opens this customer at the payment provider (null: no customer there). */
  customerUrl: z.string().nullable(),
  /** Set when an operator banned the member: checkout refuses the account and its e-mail. */
  ban: z.object({ bannedBy: z.string(), reason: z.string().nullable(), refundedPaymentId: z.string().nullable(), createdAt: z.string() }).nullable(),
  /**
   * The member's last MEMBER_ACCESS_HISTORY_SIZE access changes, newest first (access-changes.ts):
   * the plan after the change (for one that ended access, the plan that ended), whether the member
   * has access after it, and until when.
   */
  accessHistory: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(ACCESS_CHANGE_KINDS),
      planType: z.string(),
      previousPlanType: z.string().nullable(),
      hasAccess: z.boolean(),
      expiresAt: z.string().nullable(),
      occurredAt: z.string(),
    }),
  ),
  /**
   * The member's accounts in each community integration, each with the current link first, then
   * older ones kept until what they were given is taken back: the ids of what the account should
   * hold and holds (roles, chats), named in `names` where the shop knows them without asking the
   * service (Discord's roles are named by GET /api/admin/discord/roles).
   */
  communities: z.array(
    z.object({
      /** The integration's name and title: discord and Discord. */
      name: z.string(),
      title: z.string(),
      /** What an account is given there, in words: "roles", "chats". */
      gives: z.string(),
      /** The names of what is given that the shop knows without asking the service. */
      names: z.record(z.string(), z.string()),
      accounts: z.array(
        z.object({
          /** The account's id there (the service's user id). */
          accountId: z.string(),
          username: z.string(),
          current: z.boolean(),
          wanted: z.array(z.string()),
          held: z.array(z.string()),
          status: z.enum(LINKED_ACCOUNT_STATUSES),
          attempts: z.number().int(),
          lastError: z.string().nullable(),
          /** When the next pass is due (null when synced or under way). */
          nextAttemptAt: z.string().nullable(),
          linkedAt: z.string(),
        }),
      ),
    }),
  ),
  /**
   * Every TradingView username the member linked, the current one first: who linked it, when it
   * stopped being current and why (a change, a correction, a transfer: decision 048).
   */
  usernameHistory: z.array(
    z.object({
      username: z.string(),
      linkedAt: z.string(),
      linkedBy: z.string(),
      replacedAt: z.string().nullable(),
      endedBy: z.string().nullable(),
    }),
  ),
});
export type MemberDetail = z.infer<typeof memberDetailSchema>;

export const MEMBER_ACCESS_HISTORY_SIZE = 50;

/**
 * GET /api/admin/access-changes: per subscriber (tradingview, mail…), the access changes it has yet
 * to take: how many wait, how many of those failed at least once, since when the oldest waits (the
 * moment of its change) and the latest error. A subscriber with nothing waiting is not listed.
 */
export const accessChangesBacklogSchema = z.object({
  subscribers: z.array(
    z.object({
      subscriber: z.string(),
      waiting: z.number().int(),
      failing: z.number().int(),
      oldest: z.string().nullable(),
      lastError: z.string().nullable(),
    }),
  ),
});
export type AccessChangesBacklog = z.infer<typeof accessChangesBacklogSchema>;

export const compAccessRequestSchema = z.object({ until: z.iso.date({ message: 'Choose the last day of the complimentary access.' }) });
export const usernameCorrectionSchema = z.object({ username: z.string().trim().min(1, 'Enter the TradingView username.').max(64) });

/** Every member action answers with what happened, in words the console shows as its result. */

const FREE_DAYS_MESSAGE = `Free days are a whole number from ${FREE_DAYS_MIN} to ${FREE_DAYS_MAX}.`;
export const freeDaysRequestSchema = z.object({ days: z.number({ message: FREE_DAYS_MESSAGE }).int(FREE_DAYS_MESSAGE).min(FREE_DAYS_MIN, FREE_DAYS_MESSAGE).max(FREE_DAYS_MAX, FREE_DAYS_MESSAGE) });
export const pauseCollectionRequestSchema = z.object({
  access: z.enum(PAUSED_ACCESS, { message: 'Choose whether the member keeps access while collection is paused: keep or stop.' }),
});
export const banMemberRequestSchema = z.object({
  refundLastPayment: z.boolean({ message: 'refundLastPayment is true or false.' }).default(false),
  reason: z.string().trim().max(500, 'Keep the reason under 500 characters.').optional(),
});
export type BanMemberRequest = z.infer<typeof banMemberRequestSchema>;

export const actionResultSchema = z.object({ message: z.string() });
export type ActionResult = z.infer<typeof actionResultSchema>;

export const auditLogQuerySchema = z.object({ page: z.coerce.number().int().min(1).max(10_000).default(1), member: z.uuid().optional() });
export const AUDIT_PAGE_SIZE = 50;

export const auditLogSchema = z.object({
  entries: z.array(
    z.object({
      id: z.string(),
      operatorEmail: z.string(),
      action: z.string(),
      targetUserId: z.string().nullable(),
      targetEmail: z.string().nullable(),
      details: z.record(z.string(), z.unknown()),
      createdAt: z.string(),
    }),
  ),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type AuditLog = z.infer<typeof auditLogSchema>;

// ---------------------------------------------------------------- the console's Discord page

/** A managed role: its id, and its name in the guild (null when Discord could not be asked). */
export const discordRoleRefSchema = z.object({ id: z.string(), name: z.string().nullable() });
export type DiscordRoleRef = z.infer<typeof discordRoleRefSchema>;

/**
 * GET /api/admin/discord/overview: members with a current link, and the linked accounts (old links
 * still losing their roles included) by where the reconciler has them.
 */
export const discordOverviewSchema = z.object({
  adapter: z.enum(['discord', 'sandbox']),
  linkedMembers: z.number().int(),
  synced: z.number().int(),
  /** pending or under way (processing). */
  pending: z.number().int(),
  failing: z.number().int(),
});
export type DiscordOverview = z.infer<typeof discordOverviewSchema>;

/** GET /api/admin/discord/roles: the guild's roles by name; `error` says why there are none (the page shows ids). */
export const discordRolesSchema = z.object({ roles: z.array(z.object({ id: z.string(), name: z.string() })), error: z.string().nullable() });
export type DiscordRoles = z.infer<typeof discordRolesSchema>;

export const discordAccountsQuerySchema = z.object({
  /** Only the accounts whose last pass failed. */
  failing: z
    .enum(['true', 'false', '1', '0'], { error: 'failing must be true or false.' })
    .optional()
    .transform((value) => value === 'true' || value === '1'),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type DiscordAccountsQuery = z.infer<typeof discordAccountsQuerySchema>;

export const DISCORD_ACCOUNTS_PAGE_SIZE = 25;

export const discordAccountSchema = z.object({
  /** The account row's id (the retry's target). */
  id: z.string(),
  userId: z.string(),
  email: z.string(),
  discordUserId: z.string(),
  username: z.string(),
  /** The member's linked account; false for one they replaced or unlinked. */
  current: z.boolean(),
  wantedRoles: z.array(discordRoleRefSchema),
  heldRoles: z.array(discordRoleRefSchema),
  status: z.enum(LINKED_ACCOUNT_STATUSES),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  /** When the next pass is due (null when synced or under way). */
  nextAttemptAt: z.string().nullable(),
  failingSince: z.string().nullable(),
  linkedAt: z.string(),
});
export type DiscordAccount = z.infer<typeof discordAccountSchema>;

/** GET /api/admin/discord/accounts: linked accounts, failing first, a page at a time. */
export const discordAccountsSchema = z.object({
  accounts: z.array(discordAccountSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type DiscordAccounts = z.infer<typeof discordAccountsSchema>;

export const DISCORD_REPAIRS_SHOWN = 20;

/** GET /api/admin/discord/repairs: the audit's latest DISCORD_REPAIRS_SHOWN repairs, newest first. */
export const discordRepairsSchema = z.object({
  repairs: z.array(
    z.object({
      id: z.string(),
      repairedAt: z.string(),
      /** The member whose account it was (null: a guild member no member linked). */
      userId: z.string().nullable(),
      email: z.string().nullable(),
      discordUserId: z.string(),
      /** The Discord username as linked, when a member linked the account. */
      username: z.string().nullable(),
      role: discordRoleRefSchema,
      action: z.enum(['added', 'removed']),
      reason: z.string(),
    }),
  ),
});
export type DiscordRepairs = z.infer<typeof discordRepairsSchema>;

/** POST /api/admin/discord/audit: what the audit read and changed. */
export const discordAuditSummarySchema = z.object({
  checked: z.number().int(),
  added: z.number().int(),
  removed: z.number().int(),
  requeued: z.number().int(),
});
export type DiscordAuditSummary = z.infer<typeof discordAuditSummarySchema>;
