import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { AccessChangeKind } from '@shared/access-changes';
import type { PlanType } from '@shared/plans';
import { user } from './auth';

/**
 * Every change of a member's entitlement, written by the entitlements core in the transaction that
 * changed the rows. Kept as the member's history; delivery to subscribers is tracked per row below.
 */
export const accessChanges = pgTable(
  'access_changes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<AccessChangeKind>().notNull(),
    planType: text('plan_type').$type<PlanType>().notNull(),
    previousPlanType: text('previous_plan_type').$type<PlanType>(),
    hasAccess: boolean('has_access').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    // The subscription row behind the change and what the mails need of it (migration 0058; null
    // and false in changes recorded before). No foreign key: the history outlives a deleted row.
    rowId: uuid('row_id'),
    canceled: boolean('row_canceled').notNull().default(false),
    complimentary: boolean('row_complimentary').notNull().default(false),
    periodEnd: timestamp('period_end', { withTimezone: true }),
  },
  (table) => [
    index('access_changes_user_idx').on(table.userId, table.id),
    // `ending_soon` once per row and period end, whichever instance or pass records it
    uniqueIndex('access_changes_ending_soon_uq').on(table.rowId, table.periodEnd).where(sql`kind = 'ending_soon'`),
  ],
);

/**
 * One row per change and subscriber that has yet to take it (an outbox): written with the change,
 * deleted once the subscriber's callback succeeded, retried with back-off while it fails.
 */
export const accessChangeDeliveries = pgTable(
  'access_change_deliveries',
  {
    changeId: bigint('change_id', { mode: 'number' })
      .notNull()
      .references(() => accessChanges.id, { onDelete: 'cascade' }),
    subscriber: text('subscriber').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    leasedUntil: timestamp('leased_until', { withTimezone: true }),
    lastError: text('last_error'),
  },
  (table) => [primaryKey({ columns: [table.changeId, table.subscriber] }), index('access_change_deliveries_due_idx').on(table.nextAttemptAt)],
);

/** How far the core has looked for access that ended with time alone (no write tells of it). */
export const accessExpiryWatch = pgTable('access_expiry_watch', {
  id: smallint('id').primaryKey().default(1),
  sweptUntil: timestamp('swept_until', { withTimezone: true }).notNull(),
});
