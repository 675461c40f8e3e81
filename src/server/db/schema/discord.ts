import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth';

/**
 * One row per Discord account a member linked: the roles the shop wants it to hold in the guild
 * (from the member's access) and the roles it last applied, reconciled like TradingView grants.
 * A relinked member keeps the old account's row, no longer current, until its roles are gone.
 */
export const discordMembers = pgTable(
  'discord_members',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    discordUserId: text('discord_user_id').notNull(),
    username: text('username').notNull(),
    /** The member's linked account; false for an account they unlinked or replaced. */
    current: boolean('current').notNull().default(true),
    /** Managed role ids this account should hold (empty: none, the member has no access). */
    desiredRoles: text('desired_roles').array().notNull().default(sql`'{}'::text[]`),
    /** Managed role ids the last successful pass left on the account. */
    appliedRoles: text('applied_roles').array().notNull().default(sql`'{}'::text[]`),
    /** DISCORD_ON_END=kick: take the account out of the guild instead of only its roles. */
    removeFromGuild: boolean('remove_from_guild').notNull().default(false),
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
    uniqueIndex('discord_members_user_account_uq').on(table.userId, table.discordUserId),
    // a Discord account is the current link of one member at most
    uniqueIndex('discord_members_current_account_uq').on(table.discordUserId).where(sql`${table.current}`),
    // the open rows only: the claim's order would otherwise walk every synced member first
    index('discord_members_open_due_idx').on(table.nextAttemptAt).where(sql`status IN ('pending', 'processing', 'failed')`),
  ],
);

/** What the audit changed in the guild, for the console: a role given back or taken away. */
export const discordRepairs = pgTable(
  'discord_repairs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    discordUserId: text('discord_user_id').notNull(),
    userId: uuid('user_id').references(() => user.id, { onDelete: 'set null' }),
    roleId: text('role_id').notNull(),
    action: text('action').$type<'added' | 'removed'>().notNull(),
    reason: text('reason').notNull(),
    repairedAt: timestamp('repaired_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('discord_repairs_at_idx').on(table.repairedAt)],
);
