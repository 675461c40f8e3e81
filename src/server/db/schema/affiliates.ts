import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { AffiliateTerms, CommissionStatus } from '@shared/affiliates';
import { user } from './auth';
import { orders } from './billing';

const createdAt = timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** The program's terms: one row (absent: the defaults of src/shared/affiliates.ts). */
export const affiliateProgram = pgTable('affiliate_program', {
  id: integer('id').primaryKey().default(1),
  terms: jsonb('terms').$type<AffiliateTerms>().notNull(),
  updatedBy: text('updated_by').notNull(),
  updatedAt,
});

/** A person who sells the shop: their account, code (upper case), payout address and bound promotion code. */
export const affiliates = pgTable(
  'affiliates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    code: text('code').notNull(),
    status: text('status').$type<'active' | 'suspended'>().notNull().default('active'),
    suspendedReason: text('suspended_reason'),
    payoutEmail: text('payout_email'),
    promotionCode: text('promotion_code'),
    joinedBy: text('joined_by').notNull(),
    createdAt,
    updatedAt,
  },
  (table) => [
    uniqueIndex('affiliates_user_uq').on(table.userId),
    uniqueIndex('affiliates_code_uq').on(table.code),
    uniqueIndex('affiliates_promotion_code_uq').on(table.promotionCode).where(sql`${table.promotionCode} IS NOT NULL`),
  ],
);

/** A click on a link, counted once per browser (visitor id) and UTC day. */
export const affiliateClicks = pgTable(
  'affiliate_clicks',
  {
    affiliateId: uuid('affiliate_id')
      .notNull()
      .references(() => affiliates.id, { onDelete: 'cascade' }),
    visitor: text('visitor').notNull(),
    day: date('day').notNull(),
    createdAt,
  },
  (table) => [primaryKey({ name: 'affiliate_clicks_pk', columns: [table.affiliateId, table.day, table.visitor] })],
);

/** A checkout started with an affiliate's cookie (`link`) or bound promotion code (`promotion`). */
export const affiliateReferrals = pgTable(
  'affiliate_referrals',
  {
    checkoutSessionId: text('checkout_session_id').primaryKey(),
    affiliateId: uuid('affiliate_id')
      .notNull()
      .references(() => affiliates.id, { onDelete: 'cascade' }),
    source: text('source').$type<'link' | 'promotion'>().notNull(),
    createdAt,
  },
  (table) => [index('affiliate_referrals_affiliate_idx').on(table.affiliateId)],
);

/** The buyer (lower-case e-mail, as their account and checkouts carry it) an affiliate brought: their later payments follow it. */
export const affiliateAttributions = pgTable(
  'affiliate_attributions',
  {
    email: text('email').primaryKey(),
    affiliateId: uuid('affiliate_id')
      .notNull()
      .references(() => affiliates.id, { onDelete: 'cascade' }),
    source: text('source').$type<'link' | 'promotion'>().notNull(),
    /** The attributed checkout started a free trial. */
    trial: boolean('trial').notNull().default(false),
    /** The first payment that earned (null: none yet, e.g. a running trial): the start of N months. */
    firstPaidAt: timestamp('first_paid_at', { withTimezone: true }),
    attributedAt: timestamp('attributed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('affiliate_attributions_affiliate_idx').on(table.affiliateId)],
);

export const affiliatePayouts = pgTable(
  'affiliate_payouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    affiliateId: uuid('affiliate_id')
      .notNull()
      .references(() => affiliates.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    payoutEmail: text('payout_email').notNull(),
    paidBy: text('paid_by').notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('affiliate_payouts_affiliate_idx').on(table.affiliateId)],
);

/**
 * One per attributed order: pending until `approvable_at`, approved, paid (`payout_id`), reversed
 * (refund or lost dispute; one reversed after it was paid is taken from the payout `clawback_payout_id`),
 * or refused with the reason (the affiliate's own purchase, a suspended affiliate).
 */
export const affiliateCommissions = pgTable(
  'affiliate_commissions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    affiliateId: uuid('affiliate_id')
      .notNull()
      .references(() => affiliates.id, { onDelete: 'cascade' }),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    buyerEmail: text('buyer_email'),
    planType: text('plan_type').notNull(),
    currency: text('currency').notNull(),
    baseAmount: integer('base_amount').notNull(),
    amount: integer('amount').notNull(),
    status: text('status').$type<CommissionStatus>().notNull(),
    reason: text('reason'),
    approvableAt: timestamp('approvable_at', { withTimezone: true }),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    payoutId: uuid('payout_id').references(() => affiliatePayouts.id),
    reversedAt: timestamp('reversed_at', { withTimezone: true }),
    clawbackPayoutId: uuid('clawback_payout_id').references(() => affiliatePayouts.id),
    /** Told in a "you earned a commission" digest. */
    mailed: boolean('mailed').notNull().default(false),
    createdAt,
    updatedAt,
  },
  (table) => [
    uniqueIndex('affiliate_commissions_order_uq').on(table.orderId),
    index('affiliate_commissions_affiliate_idx').on(table.affiliateId, table.status),
    // the console list's grouped passes (migration 0062 adds status, currency and the amounts as INCLUDE columns)
    index('affiliate_commissions_buyers_idx').on(table.affiliateId, table.buyerEmail),
    index('affiliate_commissions_open_idx').on(table.status).where(sql`status IN ('pending', 'approved', 'paid', 'reversed')`),
  ],
);
