import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth';

const createdAt = timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/**
 * TradingView access as reconciled state (DESIGN.md decision 7): one row per (user, username);
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
    status: text('status').notNull().default('pending'),
    grantedExpiresAt: timestamp('granted_expires_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt,
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('tradingview_grants_user_username_uq').on(table.userId, table.username),
    index('tradingview_grants_due_idx').on(table.nextAttemptAt),
  ],
);

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

export const securityEvents = pgTable(
  'security_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => user.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>(),
    ipAddress: text('ip_address'),
    createdAt,
  },
  (table) => [index('security_events_user_created_idx').on(table.userId, table.createdAt)],
);

/** Mail written by the outbox adapter; the sandbox mailbox page reads it. */
export const outbox = pgTable('outbox', {
  id: uuid('id').primaryKey().defaultRandom(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html').notNull(),
  createdAt,
});
