import { date, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const createdAt = timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/**
 * Landing visits per UTC day and source, as counters: each instance adds the tally it kept in
 * memory. '' stands for "none" in the source columns so that they can make the key.
 */
export const funnelVisits = pgTable(
  'funnel_visits',
  {
    day: date('day').notNull(),
    /** The landing page, i.e. its price list: '/', '/eu'. */
    page: text('page').notNull(),
    utmSource: text('utm_source').notNull().default(''),
    utmMedium: text('utm_medium').notNull().default(''),
    utmCampaign: text('utm_campaign').notNull().default(''),
    affiliateCode: text('affiliate_code').notNull().default(''),
    /** Page loads by people (crawlers and prefetches left out). */
    visits: integer('visits').notNull().default(0),
    /** Of which the first of a browser that day (a daily salted hash, kept in memory only). */
    visitors: integer('visitors').notNull().default(0),
  },
  (table) => [
    primaryKey({
      name: 'funnel_visits_pk',
      columns: [table.day, table.page, table.utmSource, table.utmMedium, table.utmCampaign, table.affiliateCode],
    }),
  ],
);

/** The UTM a checkout was started under (the shop's own first-party cookie set on the landing visit). */
export const funnelCheckoutSources = pgTable('funnel_checkout_sources', {
  checkoutSessionId: text('checkout_session_id').primaryKey(),
  utmSource: text('utm_source').notNull().default(''),
  utmMedium: text('utm_medium').notNull().default(''),
  utmCampaign: text('utm_campaign').notNull().default(''),
  createdAt,
});

/** A recovery mail sent for an abandoned checkout; the link's token is kept hashed. */
export const checkoutRecoveries = pgTable(
  'checkout_recoveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    checkoutSessionId: text('checkout_session_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('checkout_recoveries_token_uq').on(table.tokenHash),
    uniqueIndex('checkout_recoveries_session_uq').on(table.checkoutSessionId),
    index('checkout_recoveries_email_idx').on(table.email, table.sentAt),
  ],
);

/** An address that asked for no more recovery mails. */
export const checkoutRecoveryOptouts = pgTable('checkout_recovery_optouts', {
  email: text('email').primaryKey(),
  createdAt,
});
