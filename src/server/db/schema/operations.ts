import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { OperatorAlertKey } from '@shared/operator-alerts';

/**
 * One row per operator alert (the operator console): whether its condition holds, since when, and
 * when it was last checked. Every instance runs the check; only the one whose conditional update
 * flips `active` writes the mails, so operators get one mail per start and one per end.
 */
export const operatorAlerts = pgTable('operator_alerts', {
  key: text('key').$type<OperatorAlertKey>().primaryKey(),
  active: boolean('active').notNull().default(false),
  since: timestamp('since', { withTimezone: true }),
  detail: text('detail'),
  checkedAt: timestamp('checked_at', { withTimezone: true }),
  resolvedAt: timestamp('resolved_at', { withTimezone: true }),
});

export type PaymentEventFailureKind = 'handler' | 'signature';

/**
 * Provider events the fulfilment handler could not apply (kept with the event so an operator can
 * replay it) and webhook deliveries refused for a bad signature (counted for the alert).
 */
export const paymentEventFailures = pgTable(
  'payment_event_failures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').$type<PaymentEventFailureKind>().notNull(),
    eventId: text('event_id'),
    source: text('source'),
    type: text('type'),
    event: jsonb('event').$type<Record<string, unknown>>(),
    error: text('error').notNull(),
    attempts: integer('attempts').notNull().default(1),
    firstFailedAt: timestamp('first_failed_at', { withTimezone: true }).notNull().defaultNow(),
    lastFailedAt: timestamp('last_failed_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('payment_event_failures_event_uq').on(table.eventId), index('payment_event_failures_recent_idx').on(table.kind, table.lastFailedAt)],
);
