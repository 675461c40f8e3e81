import { sql } from 'drizzle-orm';
import { bigint, boolean, customType, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { ContentKind } from '@shared/content-studio';
import { user } from './auth';

// The content studio's tables (migration 0036): see modules/content.

const createdAt = timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/** What members see of a piece: the draft's fields as they were when it was published. */
export type PublishedContent = { frontMatter: Record<string, unknown>; body: string; plans: string[]; dripDays: number };

export const contentItems = pgTable(
  'content_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').$type<ContentKind>().notNull(),
    slug: text('slug').notNull(),
    // a feature's product guide; null for the others
    parentSlug: text('parent_slug'),
    // a feature's place among its guide's features
    position: integer('position').notNull().default(0),
    // the working draft
    frontMatter: jsonb('front_matter').$type<Record<string, unknown>>().notNull(),
    body: text('body').notNull(),
    plans: text('plans').array().$type<string[]>().notNull().default(sql`'{}'`),
    dripDays: integer('drip_days').notNull().default(0),
    // what members see from publish_at; null: never published
    published: jsonb('published').$type<PublishedContent>(),
    publishAt: timestamp('publish_at', { withTimezone: true }),
    // 'import' (content/ of the repository) or 'console'
    origin: text('origin').notNull().default('console'),
    updatedBy: text('updated_by'),
    createdAt,
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('content_items_slug_uq').on(table.kind, sql`coalesce(${table.parentSlug}, '')`, table.slug)],
);

export const contentRevisions = pgTable(
  'content_revisions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    itemId: uuid('item_id')
      .notNull()
      .references(() => contentItems.id, { onDelete: 'cascade' }),
    // save, publish, schedule, unpublish, restore, import
    action: text('action').notNull(),
    frontMatter: jsonb('front_matter').$type<Record<string, unknown>>().notNull(),
    body: text('body').notNull(),
    plans: text('plans').array().$type<string[]>().notNull().default(sql`'{}'`),
    dripDays: integer('drip_days').notNull().default(0),
    createdBy: text('created_by'),
    createdAt,
  },
  (table) => [index('content_revisions_item_idx').on(table.itemId, table.id)],
);

export const contentImages = pgTable('content_images', {
  name: text('name').primaryKey(),
  contentType: text('content_type').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  byteSize: integer('byte_size').notNull(),
  // the bytes with the database storage; null when a disk or bucket holds them
  bytes: bytea('bytes'),
  storage: text('storage').notNull(),
  createdBy: text('created_by'),
  createdAt,
});

/** One row: the version every instance compares with its copy of the published content. */
export const contentState = pgTable('content_state', {
  id: smallint('id').primaryKey().default(1),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
  importedAt: timestamp('imported_at', { withTimezone: true }),
});

export const announcements = pgTable(
  'announcements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    scriptId: text('script_id'),
    plans: text('plans').array().$type<string[]>().notNull().default(sql`'{}'`),
    mailsQueued: integer('mails_queued').notNull().default(0),
    // not_posted, posted, failed: <message>, off
    discordStatus: text('discord_status').notNull().default('not_posted'),
    /** What each integration answered when posting it (migration 0045): 'posted', 'off', 'failed: …'. */
    posts: jsonb('posts').$type<Record<string, string>>().notNull().default({}),
    createdBy: text('created_by'),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('announcements_published_idx').on(table.publishedAt)],
);

export const announcementReads = pgTable(
  'announcement_reads',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    announcementId: uuid('announcement_id')
      .notNull()
      .references(() => announcements.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ name: 'announcement_reads_pk', columns: [table.userId, table.announcementId] })],
);

export const memberPreferences = pgTable('member_preferences', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  announcementMails: boolean('announcement_mails').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** What the sandbox Discord bot posted to a channel (the real bot posts to Discord). */
export const sandboxDiscordMessages = pgTable('sandbox_discord_messages', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
  channelId: text('channel_id').notNull(),
  content: text('content').notNull(),
  createdAt,
});
