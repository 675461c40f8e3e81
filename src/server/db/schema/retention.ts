// Keeping members (migration 0037): the offers per cancellation reason and the cancellations
// members went through. Written only by modules/retention.
import { index, integer, jsonb, pgTable, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { PlanType } from '@shared/plans';
import type { CancellationOutcome, CancellationReason, RetentionOffer } from '@shared/retention';
import type { RetentionSnapshot } from '@shared/retention-report';
import { user } from './auth';

/** One row per reason that has an offer; a reason without a row cancels without one. */
export const retentionOffers = pgTable('retention_offers', {
  reason: text('reason').$type<CancellationReason>().primaryKey(),
  kind: text('kind').$type<RetentionOffer['kind']>().notNull(),
  percentOff: integer('percent_off'),
  periods: integer('periods'),
  pauseMonths: integer('pause_months'),
  updatedBy: text('updated_by'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const cancellations = pgTable(
  'cancellations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    providerSubscriptionId: text('provider_subscription_id').notNull(),
    planType: text('plan_type').$type<PlanType>().notNull(),
    reason: text('reason').$type<CancellationReason>().notNull(),
    reasonText: text('reason_text'),
    /** The offer the member was shown for the reason (null: none). */
    offer: jsonb('offer').$type<RetentionOffer>(),
    outcome: text('outcome').$type<CancellationOutcome>().notNull(),
    pauseMonths: integer('pause_months'),
    pauseAccessUntil: timestamp('pause_access_until', { withTimezone: true }),
    pauseResumesAt: timestamp('pause_resumes_at', { withTimezone: true }),
    /** pending while the provider is asked; done once it answered (a failure removes the row). */
    state: text('state').$type<'pending' | 'done'>().notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('cancellations_discount_once').on(table.userId).where(sql`${table.outcome} = 'discount'`),
    uniqueIndex('cancellations_pending_one').on(table.providerSubscriptionId).where(sql`${table.state} = 'pending'`),
    index('cancellations_user_idx').on(table.userId, table.createdAt),
    index('cancellations_created_idx').on(table.createdAt),
    index('cancellations_pause_idx').on(table.pauseResumesAt).where(sql`${table.outcome} = 'pause'`),
  ],
);

/** The Retention page's grouped counts, one document recounted hourly (migration 0049, decision 057); written only by modules/retention-report. */
export const retentionReportSnapshots = pgTable('retention_report_snapshots', {
  id: smallint('id').primaryKey().default(1),
  snapshot: jsonb('snapshot').$type<RetentionSnapshot>().notNull(),
  computedAt: timestamp('computed_at', { withTimezone: true }).notNull(),
});
