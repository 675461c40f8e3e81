import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { MailTemplate, OutboxStatus } from '@shared/mail-intents';
import type { PlanType } from '@shared/plans';
import { user } from './auth';

const createdAt = timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/**
 * TradingView access as reconciled state (docs/decisions/008): one row per (user, username);
 * the reconciler moves it towards `desired` and records each attempt.
 */
export const tradingviewGrants = pgTable(
  'tradingview_grants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    username: text('username').notNull(),
    desired: text('desired').notNull().default('grant'),
    desiredExpiresAt: timestamp('desired_expires_at', { withTimezone: true }),
    /** The scripts a grant covers (its member's plans' bundle); null on rows from before bundles: TRADINGVIEW_SCRIPT_IDS. */
    desiredScripts: text('desired_scripts').array(),
    status: text('status').notNull().default('pending'),
    grantedExpiresAt: timestamp('granted_expires_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    /** When the current run of failures began (null while not failing): the alert and the console's queue age. */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    createdAt,
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('tradingview_grants_user_username_uq').on(table.userId, table.username),
    // the open rows only: the claim's order would otherwise walk every settled grant first
    index('tradingview_grants_open_due_idx').on(table.nextAttemptAt).where(sql`status IN ('pending', 'processing', 'failed')`),
    index('tradingview_grants_status_idx').on(table.status, table.updatedAt),
    index('tradingview_grants_lower_username_idx').on(sql`lower(${table.username})`),
    index('tradingview_grants_trgm_idx').using('gin', sql`lower(${table.username}) gin_trgm_ops`),
    index('tradingview_grants_expiry_idx').on(table.desiredExpiresAt).where(sql`desired = 'grant'`),
  ],
);

/**
 * The TradingView usernames a member linked, with history: the current one has no replaced_at
 * (at most one per member); a change marks it replaced and adds the new one. Only the
 * TradingView module writes it.
 */
export const tradingviewUsernames = pgTable(
  'tradingview_usernames',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    username: text('username').notNull(),
    linkedAt: timestamp('linked_at', { withTimezone: true }).notNull().defaultNow(),
    replacedAt: timestamp('replaced_at', { withTimezone: true }),
    /** Who linked it: member, operator (a correction), transfer (moved by an operator), import. */
    linkedBy: text('linked_by').notNull().default('member'),
    /** Why it stopped being current: member, operator, transfer, claimed (lapsed, claimed by a member with access), duplicate. */
    endedBy: text('ended_by'),
  },
  (table) => [
    uniqueIndex('tradingview_usernames_current_uq').on(table.userId).where(sql`${table.replacedAt} IS NULL`),
    // one member holds a name at a time (decision 048)
    uniqueIndex('tradingview_usernames_name_uq').on(sql`lower(${table.username})`).where(sql`${table.replacedAt} IS NULL`),
    index('tradingview_usernames_user_idx').on(table.userId, table.linkedAt),
    index('tradingview_usernames_lower_idx').on(sql`lower(${table.username})`),
    index('tradingview_usernames_trgm_idx').using('gin', sql`lower(${table.username}) gin_trgm_ops`),
  ],
);

/**
 * TradingView access the shop gave (per script, username in lowercase) and the expiry it set:
 * the reconciler changes or removes only these, never access the vendor gave by hand.
 */
export const tradingviewShopAccess = pgTable(
  'tradingview_shop_access',
  {
    scriptId: text('script_id').notNull(),
    username: text('username').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ name: 'tradingview_shop_access_pk', columns: [table.scriptId, table.username] })],
);

/**
 * The grant queue's pause (grant-reconciler.ts, QueuePause), shared by every instance: a throttle
 * until its Retry-After, or an expired session cookie until a check finds it working. At most one row.
 */
export const tradingviewQueuePause = pgTable('tradingview_queue_pause', {
  id: smallint('id').primaryKey().default(1),
  reason: text('reason').$type<'throttled' | 'session_expired'>().notNull(),
  since: timestamp('since', { withTimezone: true }).notNull(),
  until: timestamp('until', { withTimezone: true }),
  detail: text('detail').notNull(),
});

/**
 * The script catalog: the vendor's invite-only scripts and the plans that grant each (the bundle
 * of a plan is every script naming it). Only the TradingView module writes it.
 */
export const tradingviewScripts = pgTable('tradingview_scripts', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  planTypes: text('plan_types').array().notNull().default(sql`'{}'`).$type<PlanType[]>(),
  /** When TradingView last listed it (null: known only from TRADINGVIEW_SCRIPT_IDS). */
  syncedAt: timestamp('synced_at', { withTimezone: true }),
  createdAt,
});

/** The sandbox TradingView's own access list: what TradingView would hold per script. */
export const sandboxTradingviewAccess = pgTable(
  'sandbox_tradingview_access',
  {
    scriptId: text('script_id').notNull(),
    username: text('username').notNull(),
    expiration: timestamp('expiration', { withTimezone: true }),
    createdAt,
  },
  (table) => [uniqueIndex('sandbox_tradingview_access_uq').on(table.scriptId, table.username)],
);

/** Sandbox switches every instance must see alike (the simulated TradingView outage). */
export const sandboxSwitches = pgTable('sandbox_switches', {
  name: text('name').primaryKey(),
  enabled: boolean('enabled').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const securityEvents = pgTable(
  'security_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => user.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>(),
    ipAddress: text('ip_address'),
    /** Repeats folded into this row (REPEAT_FOLD_WINDOW_MS); lastSeenAt is the newest, null: createdAt. */
    count: integer('count').notNull().default(1),
    createdAt,
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
  },
  (table) => [index('security_events_user_created_idx').on(table.userId, table.createdAt)],
);

/** Rate-limit state per key (src/shared/throttle.ts decides; every instance shares the rows). */
export const throttles = pgTable(
  'throttles',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    since: timestamp('since', { withTimezone: true }).notNull(),
    blockedUntil: timestamp('blocked_until', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('throttles_expires_idx').on(table.expiresAt)],
);

/**
 * The durable mail outbox (docs/decisions/013): each row is a mail intent written in the
 * transaction of the event that causes it, at most once per dedupe key; the mail worker renders
 * it (subject, text, html filled then) and sends it, retrying with back-off.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    template: text('template').$type<MailTemplate>().notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    dedupeKey: text('dedupe_key'),
    to: text('to').notNull(),
    status: text('status').$type<OutboxStatus>().notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    subject: text('subject'),
    text: text('text'),
    html: text('html'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt,
  },
  (table) => [uniqueIndex('outbox_dedupe_key_uq').on(table.dedupeKey), index('outbox_due_idx').on(table.status, table.nextAttemptAt)],
);
