import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { PlanType } from '@shared/plans';
import type { PromotionDuration } from '@shared/promotions';

/**
 * The operator's promotion codes (upper-case) and the provider objects that mirror them: a coupon
 * plus a promotion code, made in the mode `provider`/`provider_livemode` names. `provider_error`
 * holds the last failure to mirror (the code then waits to be mirrored again).
 */
export const promotionCodes = pgTable(
  'promotion_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code').notNull(),
    percentOff: integer('percent_off'),
    amountOff: integer('amount_off'),
    currency: text('currency'),
    duration: text('duration').$type<PromotionDuration>().notNull(),
    durationInMonths: integer('duration_in_months'),
    // null: every plan
    planTypes: text('plan_types').array().$type<PlanType[]>(),
    firstTimeOnly: boolean('first_time_only').notNull().default(false),
    /** Win-back (migration 0048): only for a member whose access ended; checked by the shop. */
    churnedOnly: boolean('churned_only').notNull().default(false),
    maxRedemptions: integer('max_redemptions'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    active: boolean('active').notNull().default(true),
    provider: text('provider'),
    providerLivemode: boolean('provider_livemode'),
    providerCouponId: text('provider_coupon_id'),
    providerPromotionCodeId: text('provider_promotion_code_id'),
    providerError: text('provider_error'),
    providerSyncedAt: timestamp('provider_synced_at', { withTimezone: true }),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('promotion_codes_code_uq').on(sql`upper(${table.code})`),
    index('promotion_codes_provider_code_idx').on(table.providerPromotionCodeId).where(sql`${table.providerPromotionCodeId} IS NOT NULL`),
  ],
);

// The sandbox payment provider's coupons and promotion codes: what Stripe keeps on its side.
export const sandboxCoupons = pgTable('sandbox_coupons', {
  id: text('id').primaryKey(),
  percentOff: integer('percent_off'),
  amountOff: integer('amount_off'),
  currency: text('currency'),
  duration: text('duration').$type<PromotionDuration>().notNull(),
  durationInMonths: integer('duration_in_months'),
  // Stripe's applies_to (products); the sandbox's products are its plans
  appliesToPlans: text('applies_to_plans').array().$type<PlanType[]>(),
  metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const sandboxPromotionCodes = pgTable(
  'sandbox_promotion_codes',
  {
    id: text('id').primaryKey(),
    code: text('code').notNull(),
    couponId: text('coupon_id').notNull(),
    active: boolean('active').notNull().default(true),
    maxRedemptions: integer('max_redemptions'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    firstTimeTransaction: boolean('first_time_transaction').notNull().default(false),
    timesRedeemed: integer('times_redeemed').notNull().default(0),
    metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('sandbox_promotion_codes_code_idx').on(sql`upper(${table.code})`)],
);
