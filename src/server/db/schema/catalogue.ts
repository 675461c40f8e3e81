// The catalogue as data (migration 0027, decision record 045).
import { boolean, integer, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';

const createdAt = timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const cataloguePlans = pgTable('catalogue_plans', {
  slug: text('slug').primaryKey(),
  name: text('name').notNull(),
  periodUnit: text('period_unit').$type<'day' | 'week' | 'month' | 'year'>(),
  periodCount: integer('period_count'),
  neverExpires: boolean('never_expires').notNull().default(false),
  variantOf: text('variant_of'),
  regularPrice: integer('regular_price'),
  badge: text('badge'),
  popular: boolean('popular').notNull().default(false),
  buttonText: text('button_text'),
  features: text('features').array().notNull().default([]),
  position: integer('position').notNull().default(0),
  periodLabel: text('period_label'),
  perMonth: boolean('per_month').notNull().default(false),
  trialDays: integer('trial_days'),
  discordRoleIds: text('discord_role_ids').array().notNull().default([]),
  archived: boolean('archived').notNull().default(false),
  createdAt,
  updatedAt,
});

export const cataloguePriceLists = pgTable('catalogue_price_lists', {
  slug: text('slug').primaryKey(),
  currency: text('currency').notNull(),
  header: text('header'),
  countdown: boolean('countdown').notNull().default(false),
  position: integer('position').notNull().default(0),
  createdAt,
  updatedAt,
});

export const cataloguePrices = pgTable(
  'catalogue_prices',
  {
    listSlug: text('list_slug')
      .notNull()
      .references(() => cataloguePriceLists.slug, { onDelete: 'cascade' }),
    planSlug: text('plan_slug')
      .notNull()
      .references(() => cataloguePlans.slug),
    price: integer('price').notNull(),
    stripePriceId: text('stripe_price_id'),
    updatedAt,
  },
  (table) => [primaryKey({ columns: [table.listSlug, table.planSlug] })],
);

export const catalogueSales = pgTable('catalogue_sales', {
  id: text('id').primaryKey(),
  label: text('label').notNull(),
  listSlug: text('list_slug')
    .notNull()
    .references(() => cataloguePriceLists.slug, { onDelete: 'cascade' }),
  startsAt: timestamp('starts_at', { withTimezone: true }),
  endsAt: timestamp('ends_at', { withTimezone: true }),
  countdown: boolean('countdown').notNull().default(true),
  createdAt,
  updatedAt,
});

export const catalogueSalePrices = pgTable(
  'catalogue_sale_prices',
  {
    saleId: text('sale_id')
      .notNull()
      .references(() => catalogueSales.id, { onDelete: 'cascade' }),
    planSlug: text('plan_slug')
      .notNull()
      .references(() => cataloguePlans.slug),
    price: integer('price').notNull(),
    stripePriceId: text('stripe_price_id'),
  },
  (table) => [primaryKey({ columns: [table.saleId, table.planSlug] })],
);

export const catalogueState = pgTable('catalogue_state', {
  id: smallint('id').primaryKey(),
  version: integer('version').notNull(),
  updatedAt,
});

/** The slugs of plans that never expire, for the SQL access rules (migration 0040): only ever added to. */
export const oneTimePlans = pgTable('one_time_plans', {
  slug: text('slug').primaryKey(),
});
