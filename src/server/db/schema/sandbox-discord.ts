import { sql } from 'drizzle-orm';
import { pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

// The sandbox Discord's own state (modules/sandbox/sandbox-discord.ts): its guild's members and the
// OAuth grants its authorize page hands out. The guild's roles are configuration, not rows.

/** Who is in the sandbox guild, with the role ids they hold. */
export const sandboxDiscordMembers = pgTable('sandbox_discord_members', {
  /** A snowflake-like id derived from the username (the same username is the same account). */
  discordUserId: text('discord_user_id').primaryKey(),
  username: text('username').notNull(),
  roles: text('roles').array().notNull().default(sql`'{}'::text[]`),
  joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One-time authorization codes of the sandbox authorize page, kept as hashes until exchanged. */
export const sandboxDiscordCodes = pgTable('sandbox_discord_codes', {
  codeHash: text('code_hash').primaryKey(),
  discordUserId: text('discord_user_id').notNull(),
  username: text('username').notNull(),
  /** The exchange must name the same redirect_uri, as Discord requires. */
  redirectUri: text('redirect_uri').notNull(),
  scopes: text('scopes').array().notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** Access tokens (and their refresh tokens) given for a code, kept as hashes; a refresh replaces the row. */
export const sandboxDiscordTokens = pgTable(
  'sandbox_discord_tokens',
  {
    accessTokenHash: text('access_token_hash').primaryKey(),
    refreshTokenHash: text('refresh_token_hash').notNull(),
    discordUserId: text('discord_user_id').notNull(),
    username: text('username').notNull(),
    scopes: text('scopes').array().notNull(),
    /** When the access token stops working; the refresh token works until it is used. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('sandbox_discord_tokens_refresh_uq').on(table.refreshTokenHash)],
);
