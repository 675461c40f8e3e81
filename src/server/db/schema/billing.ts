import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { PaidDay } from '@shared/admin-reports';
import type { DuplicateStatus, RevokedReason } from '@shared/payment-rules';
import type { PlanType } from '@shared/plans';
import type { PausedAccess } from '@shared/support-actions';
import type { TaxBehavior } from '@shared/vat';
import { user } from './auth';

const createdAt = timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** A paid checkout as our app knows it; claimed once, only by the owner of its e-mail. */
export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    id: text('id').primaryKey(),
    provider: text('provider').notNull(),
    planType: text('plan_type').$type<PlanType>().notNull(),
    email: text('email'),
    amountTotal: integer('amount_total'),
    // the tax part of amount_total (null: not recorded)
    amountTax: integer('amount_tax'),
    // the promotion code the buyer used and what it took off (amount_total is after it)
    promotionCode: text('promotion_code'),
    amountDiscount: integer('amount_discount').notNull().default(0),
    currency: text('currency'),
    status: text('status').notNull().default('open'),
    paymentStatus: text('payment_status').notNull().default('unpaid'),
    originPage: text('origin_page').notNull().default('/'),
    fbc: text('fbc'),
    fbp: text('fbp'),
    userAgent: text('user_agent'),
    providerCustomerId: text('provider_customer_id'),
    // the Stripe mode the customer id belongs to (null: not recorded)
    providerLivemode: boolean('provider_livemode'),
    providerSubscriptionId: text('provider_subscription_id'),
    providerPaymentId: text('provider_payment_id'),
    claimedByUserId: uuid('claimed_by_user_id').references(() => user.id, { onDelete: 'set null' }),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /** A paid duplicate of the buyer's active subscription: refunded automatically. */
    duplicateStatus: text('duplicate_status').$type<DuplicateStatus>(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt,
    updatedAt,
  },
  (table) => [
    index('checkout_sessions_email_idx').on(table.email),
    index('checkout_sessions_duplicate_idx').on(table.duplicateStatus).where(sql`${table.duplicateStatus} IS NOT NULL`),
    index('checkout_sessions_promotion_idx').on(table.promotionCode).where(sql`${table.promotionCode} IS NOT NULL`),
    index('checkout_sessions_claimed_by_idx').on(table.claimedByUserId),
    // the funnel's checkouts started and paid per day (migration 0039)
    index('checkout_sessions_created_idx').on(table.createdAt),
    index('checkout_sessions_completed_idx').on(table.completedAt).where(sql`${table.completedAt} IS NOT NULL`),
  ],
);

export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => user.id, { onDelete: 'set null' }),
    checkoutSessionId: text('checkout_session_id').references(() => checkoutSessions.id),
    planType: text('plan_type').$type<PlanType>().notNull(),
    amount: integer('amount').notNull(),
    // the tax part of amount (null: not recorded)
    amountTax: integer('amount_tax'),
    // the promotion code of the payment and what it took off (amount is what was charged)
    promotionCode: text('promotion_code'),
    amountDiscount: integer('amount_discount').notNull().default(0),
    currency: text('currency').notNull(),
    status: text('status').notNull().default('paid'),
    providerPaymentId: text('provider_payment_id'),
    // charges and disputes name the payment intent; subscription orders are keyed by invoice
    providerPaymentIntentId: text('provider_payment_intent_id'),
    providerSubscriptionId: text('provider_subscription_id'),
    createdAt,
  },
  (table) => [
    index('orders_provider_payment_intent_idx').on(table.providerPaymentIntentId),
    uniqueIndex('orders_checkout_session_uq').on(table.checkoutSessionId),
    index('orders_user_id_idx').on(table.userId),
    index('orders_provider_payment_idx').on(table.providerPaymentId),
    index('orders_promotion_idx').on(table.promotionCode).where(sql`${table.promotionCode} IS NOT NULL`),
    // No partial index of the paid orders by created_at: migration 0022's price trigger asks for a
    // subscription's newest paid order, and the planner then walks such an index backwards over
    // every paid order (seeding 100,000 subscriptions went from 9 s to over 4 minutes).
    index('orders_created_idx').on(table.createdAt),
    index('orders_provider_subscription_idx').on(table.providerSubscriptionId),
    // the overview's refunds and disputes (migration 0023 adds amount as an INCLUDE column)
    index('orders_reversed_idx').on(table.status, table.currency).where(sql`status IN ('refunded', 'disputed')`),
  ],
);

export const userSubscriptions = pgTable(
  'user_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // null until the buyer claims the paid session (creates or signs in to the account)
    userId: uuid('user_id').references(() => user.id, { onDelete: 'cascade' }),
    planType: text('plan_type').$type<PlanType>().notNull(),
    status: text('status').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    orderId: uuid('order_id').references(() => orders.id),
    provider: text('provider').notNull(),
    providerCustomerId: text('provider_customer_id'),
    // the Stripe mode the customer id belongs to: test ids are unknown to a live key (null: not recorded)
    providerLivemode: boolean('provider_livemode'),
    providerSubscriptionId: text('provider_subscription_id'),
    checkoutSessionId: text('checkout_session_id').references(() => checkoutSessions.id),
    // the provider object's own timestamp: an older snapshot never overwrites a newer one
    providerUpdatedAt: timestamp('provider_updated_at', { withTimezone: true }),
    /** Set when the row gives no access whatever the provider says (a refund, a duplicate…). */
    revokedReason: text('revoked_reason').$type<RevokedReason>(),
    /** The provider collects no payment for now (Stripe's pause_collection); access follows the vendor's choice. */
    collectionPaused: boolean('collection_paused').notNull().default(false),
    // a plan change in flight: concurrent changes of one subscription queue behind it
    planChangeTarget: text('plan_change_target'),
    planChangeStartedAt: timestamp('plan_change_started_at', { withTimezone: true }),
    // What a period costs, for the console's MRR: the newest paid order's amount, currency and
    // promotion code, and since when the subscription has had the code. Kept by the database's
    // triggers (migration 0022) whoever writes orders or rows; never written by the code.
    priceAmount: integer('price_amount'),
    priceCurrency: text('price_currency'),
    priceDiscount: integer('price_discount'),
    pricePromotionCode: text('price_promotion_code'),
    pricePromotionSince: timestamp('price_promotion_since', { withTimezone: true }),
    // Where a subscription no checkout of this shop sold was bought (an import, migration 0063):
    // the price list its provider price names (null: none named) and the currency the provider
    // bills it in, which never changes. Written once with the row; a checkout's page says it for the others.
    boughtOnList: text('bought_on_list'),
    boughtOnCurrency: text('bought_on_currency'),
    createdAt,
    updatedAt,
  },
  (table) => [
    uniqueIndex('user_subscriptions_provider_sub_uq').on(table.providerSubscriptionId),
    uniqueIndex('user_subscriptions_checkout_uq').on(table.checkoutSessionId),
    index('user_subscriptions_user_idx').on(table.userId, table.createdAt),
    index('user_subscriptions_customer_idx').on(table.providerCustomerId),
    index('user_subscriptions_order_idx').on(table.orderId),
    // the member list's standing filters (migration 0023 adds status, provider, plan and expiry as INCLUDE columns)
    index('user_subscriptions_access_idx').on(table.userId).where(sql`is_active`),
    // the overview's changes of the day (migration 0025, with user_id as an INCLUDE column): stretches of access ending since an instant, rows begun since one
    index('user_subscriptions_access_until_idx')
      .on(sql`subscription_access_until(${table.isActive}, ${table.planType}, ${table.expiresAt}, ${table.updatedAt})`)
      .where(sql`${table.userId} IS NOT NULL`),
    index('user_subscriptions_created_idx').on(table.createdAt).where(sql`${table.userId} IS NOT NULL`),
    // canceled rows still granting access, by expiry: the expiry watch's "ending soon" (migration 0058)
    index('user_subscriptions_canceled_end_idx')
      .on(table.expiresAt)
      .where(sql`${table.userId} IS NOT NULL AND ${table.isActive} AND (${table.cancelAtPeriodEnd} OR ${table.status} = 'canceled')`),
  ],
);

/** The overview chart's members with access on each past UTC day, as last counted (migration 0025; a trigger forgets the days a write changes). */
export const memberCountsByDay = pgTable('member_counts_by_day', {
  day: date('day').primaryKey(),
  members: integer('members').notNull(),
  computedAt: timestamp('computed_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The overview's member movement as it stood at the start of a UTC day (migration 0025). */
export const memberMovementByDay = pgTable('member_movement_by_day', {
  day: date('day').primaryKey(),
  newMembers: integer('new_members').notNull(),
  churned: integer('churned').notNull(),
  computedAt: timestamp('computed_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The overview's paid orders of each past UTC day, per plan and currency, as last summed (migration 0064; a trigger forgets the days a write changes). */
export const paidOrderDays = pgTable('paid_orders_by_day', {
  day: date('day').primaryKey(),
  lines: jsonb('lines').$type<Omit<PaidDay, 'day'>[]>().notNull(),
  computedAt: timestamp('computed_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Provider events already applied; written in the same transaction as their effects. */
export const processedEvents = pgTable(
  'processed_events',
  {
    id: text('id').primaryKey(),
    source: text('source').notNull(),
    type: text('type').notNull(),
    processedAt: timestamp('processed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('processed_events_processed_idx').on(table.processedAt)],
);

// The sandbox payment provider's own records: what Stripe would keep on its side.
export const sandboxCustomers = pgTable('sandbox_customers', {
  id: text('id').primaryKey(),
  email: text('email').notNull(),
  // with tax on: the billing address the checkout collected (ISO country), the buyer's tax ID, and
  // whether the prices paid hold the tax (every later invoice is taxed the same way, as at Stripe)
  country: text('country'),
  taxId: text('tax_id'),
  taxBehavior: text('tax_behavior').$type<TaxBehavior>(),
  createdAt,
});

export const sandboxCheckoutSessions = pgTable('sandbox_checkout_sessions', {
  id: text('id').primaryKey(),
  mode: text('mode').notNull(),
  planType: text('plan_type').$type<PlanType>().notNull(),
  unitAmount: integer('unit_amount').notNull(),
  currency: text('currency').notNull(),
  customerEmail: text('customer_email'),
  successUrl: text('success_url').notNull(),
  cancelUrl: text('cancel_url').notNull(),
  status: text('status').notNull().default('open'),
  paymentStatus: text('payment_status').notNull().default('unpaid'),
  customerId: text('customer_id'),
  subscriptionId: text('subscription_id'),
  paymentIntentId: text('payment_intent_id'),
  metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
  /** subscription_data.trial_period_days of the checkout; null: no trial. */
  trialPeriodDays: integer('trial_period_days'),
  // the promotion code applied (preset as `discounts`, or typed by the buyer when allowed) and its amount
  promotionCodeId: text('promotion_code_id'),
  amountDiscount: integer('amount_discount').notNull().default(0),
  allowPromotionCodes: boolean('allow_promotion_codes').notNull().default(false),
  createdAt,
  updatedAt,
}, (table) => [
  // the open sessions past their lifetime, which the sandbox expires (migration 0039)
  index('sandbox_checkout_sessions_open_idx').on(table.createdAt).where(sql`${table.status} = 'open'`),
  // each customer's card, the newest completed checkout's, which every renewal charges (migration 0065)
  index('sandbox_checkout_sessions_card_idx').on(table.customerId, table.updatedAt).where(sql`${table.status} = 'complete'`),
]);

export const sandboxSubscriptions = pgTable('sandbox_subscriptions', {
  id: text('id').primaryKey(),
  customerId: text('customer_id').notNull(),
  planType: text('plan_type').$type<PlanType>().notNull(),
  unitAmount: integer('unit_amount').notNull(),
  currency: text('currency').notNull(),
  status: text('status').notNull(),
  currentPeriodStart: timestamp('current_period_start', { withTimezone: true }).notNull(),
  currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
  cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
  canceledAt: timestamp('canceled_at', { withTimezone: true }),
  /** The free trial's end (null: none); the reminder (trial_will_end) is sent once, at trialRemindedAt. */
  trialEnd: timestamp('trial_end', { withTimezone: true }),
  trialRemindedAt: timestamp('trial_reminded_at', { withTimezone: true }),
  // the subscription's discount: its promotion code and when it started (its coupon says how long it lasts)
  promotionCodeId: text('promotion_code_id'),
  discountStart: timestamp('discount_start', { withTimezone: true }),
  /** Collection paused (null: collecting), with the access the vendor chose to leave meanwhile. */
  pausedAccess: text('paused_access').$type<PausedAccess>(),
  /** A member's pause (decision 052): access runs to `pauseAccessUntil`, collection resumes by itself at `pauseResumesAt` (Stripe's resumes_at). */
  pauseAccessUntil: timestamp('pause_access_until', { withTimezone: true }),
  pauseResumesAt: timestamp('pause_resumes_at', { withTimezone: true }),
  /** Stripe's cancellation_details: the member's reason (feedback) and words (comment). */
  cancellationDetails: jsonb('cancellation_details').$type<{ feedback: string; comment: string | null }>(),
  metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
  createdAt,
  updatedAt,
});

export const sandboxInvoices = pgTable(
  'sandbox_invoices',
  {
    id: text('id').primaryKey(),
    customerId: text('customer_id').notNull(),
    subscriptionId: text('subscription_id'),
    amountDue: integer('amount_due').notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    billingReason: text('billing_reason').notNull(),
    lines: jsonb('lines').$type<{ description: string; amount: number; proration: boolean }[]>().notNull(),
    // the invoice doubles as the sandbox's charge
    paymentIntentId: text('payment_intent_id'),
    amountRefunded: integer('amount_refunded').notNull().default(0),
    disputeStatus: text('dispute_status'),
    planType: text('plan_type').$type<PlanType>(),
    // the tax in amount_due, at tax_rate basis points for the billing country (src/shared/vat.ts)
    amountTax: integer('amount_tax').notNull().default(0),
    taxRate: integer('tax_rate').notNull().default(0),
    taxBehavior: text('tax_behavior').$type<TaxBehavior>(),
    billingCountry: text('billing_country'),
    taxId: text('tax_id'),
    // what the subscription's discount took off this invoice (amount_due is after it)
    amountDiscount: integer('amount_discount').notNull().default(0),
    promotionCodeId: text('promotion_code_id'),
    createdAt,
  },
  (table) => [index('sandbox_invoices_customer_idx').on(table.customerId)],
);

/** Events the sandbox emits, delivered to the same handler as Stripe webhooks. */
export const sandboxEvents = pgTable(
  'sandbox_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    payload: jsonb('payload').notNull(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    // a deliverer's claim: others skip the event until it is delivered or this passes
    leasedUntil: timestamp('leased_until', { withTimezone: true }),
    createdAt,
  },
  (table) => [index('sandbox_events_pending_idx').on(table.createdAt, table.id).where(sql`delivered_at IS NULL`)],
);
