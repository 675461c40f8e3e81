import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { PlanType } from '@shared/plans';
import type { RepeatReason, TrialOutcome } from '@shared/trials';

/**
 * Every free trial, one per provider subscription, with the keys that identify its person
 * (lowercased e-mail and TradingView username, the card's fingerprint) and how it ended.
 * Written only by modules/trials.
 */
export const trials = pgTable(
  'trials',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    provider: text('provider').notNull(),
    providerSubscriptionId: text('provider_subscription_id').notNull(),
    checkoutSessionId: text('checkout_session_id'),
    email: text('email').notNull(),
    /** The person the e-mail reaches (normaliseEmailIdentity): what repeat checks compare. */
    emailIdentity: text('email_identity').notNull(),
    cardFingerprint: text('card_fingerprint'),
    tradingviewUsername: text('tradingview_username'),
    planType: text('plan_type').$type<PlanType>().notNull(),
    /** What the plan charges when the trial ends, in minor units. */
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    days: integer('days').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    outcome: text('outcome').$type<TrialOutcome>().notNull().default('running'),
    repeatReason: text('repeat_reason').$type<RepeatReason>(),
    repeatOfTrialId: uuid('repeat_of_trial_id'),
    outcomeAt: timestamp('outcome_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('trials_subscription_uq').on(table.providerSubscriptionId),
    index('trials_email_idx').on(table.email),
    index('trials_email_identity_idx').on(table.emailIdentity),
    index('trials_card_idx').on(table.cardFingerprint).where(sql`${table.cardFingerprint} IS NOT NULL`),
    index('trials_username_idx').on(table.tradingviewUsername).where(sql`${table.tradingviewUsername} IS NOT NULL`),
    index('trials_started_idx').on(table.startedAt),
  ],
);
