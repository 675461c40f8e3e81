import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth';

// Telegram chats that follow payment (modules/telegram). The managed chats and the plans that open
// them are the operator's data (the console's Telegram page), keyed by plan slug.

/** A chat (group or channel) the shop lets paying members into and takes them out of. */
export const telegramChats = pgTable('telegram_chats', {
  chatId: text('chat_id').primaryKey(),
  title: text('title').notNull(),
  /** Every member with access belongs here, whatever the plan; otherwise telegram_plan_chats says which plans. */
  everyPlan: boolean('every_plan').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The plans (by slug) that open a chat that is not for every plan. */
export const telegramPlanChats = pgTable(
  'telegram_plan_chats',
  {
    planSlug: text('plan_slug').notNull(),
    chatId: text('chat_id')
      .notNull()
      .references(() => telegramChats.chatId, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.planSlug, table.chatId] })],
);

/** One-time tokens of the bot's deep link (t.me/<bot>?start=<token>), kept as hashes. */
export const telegramLinkTokens = pgTable(
  'telegram_link_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [index('telegram_link_tokens_user_idx').on(table.userId)],
);

/**
 * One row per Telegram account a member linked: the managed chats it should be in (from the
 * member's access) and those the last pass let it into, reconciled like Discord roles. A relinked
 * member keeps the old account's row, no longer current, until it is out of every chat.
 */
export const telegramMembers = pgTable(
  'telegram_members',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    telegramUserId: text('telegram_user_id').notNull(),
    username: text('username').notNull(),
    current: boolean('current').notNull().default(true),
    desiredChats: text('desired_chats').array().notNull().default(sql`'{}'::text[]`),
    appliedChats: text('applied_chats').array().notNull().default(sql`'{}'::text[]`),
    /** pending → processing (leased) → synced, or failed (retried with back-off). */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    leasedUntil: timestamp('leased_until', { withTimezone: true }),
    lastError: text('last_error'),
    failingSince: timestamp('failing_since', { withTimezone: true }),
    linkedAt: timestamp('linked_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('telegram_members_user_account_uq').on(table.userId, table.telegramUserId),
    uniqueIndex('telegram_members_current_account_uq').on(table.telegramUserId).where(sql`${table.current}`),
    index('telegram_members_open_due_idx').on(table.nextAttemptAt).where(sql`status IN ('pending', 'processing', 'failed')`),
  ],
);

/** The invite link made for one account and chat (member_limit 1, short expiry), shown in the member area. */
export const telegramInvites = pgTable(
  'telegram_invites',
  {
    memberId: uuid('member_id')
      .notNull()
      .references(() => telegramMembers.id, { onDelete: 'cascade' }),
    chatId: text('chat_id').notNull(),
    inviteLink: text('invite_link').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.memberId, table.chatId] })],
);

/** What the audit changed in a chat, for the console. */
export const telegramRepairs = pgTable(
  'telegram_repairs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    telegramUserId: text('telegram_user_id').notNull(),
    userId: uuid('user_id').references(() => user.id, { onDelete: 'set null' }),
    chatId: text('chat_id').notNull(),
    action: text('action').$type<'invited' | 'removed'>().notNull(),
    reason: text('reason').notNull(),
    repairedAt: timestamp('repaired_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('telegram_repairs_at_idx').on(table.repairedAt)],
);

// ---------------------------------------------------------------- the sandbox Telegram's own state

export const sandboxTelegramUsers = pgTable(
  'sandbox_telegram_users',
  {
    id: text('id').primaryKey(),
    username: text('username').notNull(),
  },
  (table) => [uniqueIndex('sandbox_telegram_users_username_uq').on(sql`lower(${table.username})`)],
);

export const sandboxTelegramChats = pgTable('sandbox_telegram_chats', {
  id: text('id').primaryKey(),
  title: text('title').notNull(),
  type: text('type').notNull(),
});

/** Who is in a sandbox chat: 'member', or 'kicked' (banned). */
export const sandboxTelegramChatMembers = pgTable(
  'sandbox_telegram_chat_members',
  {
    chatId: text('chat_id').notNull(),
    userId: text('user_id').notNull(),
    status: text('status').$type<'member' | 'kicked'>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.chatId, table.userId] })],
);

export const sandboxTelegramInvites = pgTable('sandbox_telegram_invites', {
  inviteLink: text('invite_link').primaryKey(),
  chatId: text('chat_id').notNull(),
  memberLimit: integer('member_limit'),
  expireAt: timestamp('expire_at', { withTimezone: true }),
  uses: integer('uses').notNull().default(0),
  revoked: boolean('revoked').notNull().default(false),
  createsJoinRequest: boolean('creates_join_request').notNull().default(false),
});

export const sandboxTelegramJoinRequests = pgTable(
  'sandbox_telegram_join_requests',
  {
    chatId: text('chat_id').notNull(),
    userId: text('user_id').notNull(),
    status: text('status').$type<'pending' | 'approved' | 'declined'>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.chatId, table.userId] })],
);

/** What the sandbox bot sent to a chat or a user (migration 0045); the real bot sends to Telegram. */
export const sandboxTelegramMessages = pgTable('sandbox_telegram_messages', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
  chatId: text('chat_id').notNull(),
  text: text('text').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
