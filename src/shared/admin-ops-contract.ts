// The operator console's TradingView, payments and alerts API: the shapes both sides
// parse. Dates travel as ISO strings, money as integer minor units with a lowercase currency.
import { z } from 'zod';
import { GRANT_STATUSES } from './tradingview-grants';
import { WINBACK_DAYS_MAX } from './member-mails';
import { OPERATOR_ALERT_KEYS } from './operator-alerts';
import { isPlanType, planTypes } from './plans';
import { tradingViewUsernameSchema } from './validation';

const isoDate = z.string();

// ---------------------------------------------------------------- TradingView

export const tradingViewHealthSchema = z.object({
  adapter: z.enum(['tradingview', 'sandbox']),
  /** The account the session cookie belongs to; null when the session does not answer. */
  account: z.string().nullable(),
  ok: z.boolean(),
  error: z.string().nullable(),
  checkedAt: isoDate,
  /** When the background check last looked (every instance shares it); null before the first. */
  lastBackgroundCheckAt: isoDate.nullable(),
  scripts: z.array(z.object({ scriptId: z.string(), users: z.number().int().nullable() })),
  /** The sandbox's simulated outage; null on the real TradingView. */
  outage: z.boolean().nullable(),
});
export type TradingViewHealth = z.infer<typeof tradingViewHealthSchema>;

export const grantQueueItemSchema = z.object({
  id: z.string(),
  userId: z.string(),
  email: z.string(),
  username: z.string(),
  desired: z.enum(['grant', 'revoke']),
  status: z.enum(GRANT_STATUSES),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  nextAttemptAt: isoDate,
  failingSince: isoDate.nullable(),
  createdAt: isoDate,
});
export type GrantQueueItem = z.infer<typeof grantQueueItemSchema>;
/**
 * Why the grant queue is not calling TradingView (null: it is not paused), as the instance that
 * answered sees it: TradingView throttled it (until `until`) or the session cookie stopped working.
 */
export const grantQueuePauseSchema = z.object({ reason: z.enum(['throttled', 'session_expired']), since: isoDate, until: isoDate.nullable(), detail: z.string() });
export type GrantQueuePause = z.infer<typeof grantQueuePauseSchema>;
/** `grants`: still to do, oldest first; `recent`: the latest settled (granted or revoked), newest first. */
export const grantQueueSchema = z.object({ grants: z.array(grantQueueItemSchema), recent: z.array(grantQueueItemSchema), paused: grantQueuePauseSchema.nullable() });
export type GrantQueue = z.infer<typeof grantQueueSchema>;

export const retryFailedResultSchema = z.object({ retried: z.number().int() });

const memberRef = z.object({ userId: z.string(), email: z.string() });
export const reconciliationSchema = z.object({
  checkedAt: isoDate,
  /** On TradingView through the shop, but no member with this username has paid access. */
  unpaid: z.array(z.object({ username: z.string(), scripts: z.array(z.string()), members: z.array(memberRef) })),
  /** Paying members whose username is missing from some scripts. */
  missing: z.array(memberRef.extend({ username: z.string(), scripts: z.array(z.string()) })),
});
export type Reconciliation = z.infer<typeof reconciliationSchema>;

export const revokeUnpaidRequestSchema = z.object({ username: tradingViewUsernameSchema });
export const grantMissingRequestSchema = z.object({ userId: z.uuid('userId must be a member id.') });
export const fixResultSchema = z.object({ done: z.string() });

// ---------------------------------------------------------------- payments

export const ORDER_STATUSES = ['paid', 'refunded', 'disputed'] as const;

const dayParam = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates are YYYY-MM-DD.');
/** The query string of /admin/payments and its API: overview numbers link here with it. */
export const orderFilterSchema = z.object({
  plan: z.custom<string>((value) => isPlanType(value), { error: () => `plan must be one of: ${planTypes().join(', ')}.` }).optional(),
  status: z.enum(ORDER_STATUSES, { error: `status must be one of: ${ORDER_STATUSES.join(', ')}.` }).optional(),
  from: dayParam.optional(),
  to: dayParam.optional(),
});
export type OrderFilter = z.infer<typeof orderFilterSchema>;

export const orderItemSchema = z.object({
  id: z.string(),
  createdAt: isoDate,
  planType: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  status: z.string(),
  email: z.string().nullable(),
  providerPaymentId: z.string().nullable(),
  /** The member the order belongs to (null: bought and never claimed). */
  userId: z.string().nullable(),
});
export type OrderItem = z.infer<typeof orderItemSchema>;
export const ordersSchema = z.object({ orders: z.array(orderItemSchema), limited: z.boolean() });
export const refundResultSchema = z.object({ message: z.string() });

export const paymentEventsSchema = z.object({
  processed: z.array(z.object({ id: z.string(), source: z.string(), type: z.string(), processedAt: isoDate })),
  failures: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(['handler', 'signature']),
      eventId: z.string().nullable(),
      type: z.string().nullable(),
      error: z.string(),
      attempts: z.number().int(),
      firstFailedAt: isoDate,
      lastFailedAt: isoDate,
      resolvedAt: isoDate.nullable(),
    }),
  ),
});
export type PaymentEvents = z.infer<typeof paymentEventsSchema>;
export const replayResultSchema = z.object({ result: z.enum(['processed', 'duplicate', 'ignored']) });

// ---------------------------------------------------------------- alerts and sandbox tools

export const operatorAlertSchema = z.object({ key: z.enum(OPERATOR_ALERT_KEYS), title: z.string(), detail: z.string().nullable(), since: isoDate });
export type OperatorAlert = z.infer<typeof operatorAlertSchema>;
export const operatorAlertsSchema = z.object({ alerts: z.array(operatorAlertSchema) });

export const outageRequestSchema = z.object({ down: z.boolean({ error: 'down must be true or false.' }) });
export const sandboxToolsSchema = z.object({
  /** null: TradingView is the real one, there is nothing to simulate. */
  tradingViewOutage: z.boolean().nullable(),
  /** Sandbox customers with their portal, where "Simulate period end" renews now. */
  subscriptions: z.array(z.object({ email: z.string().nullable(), planType: z.string(), status: z.string(), customerId: z.string() })),
  /** Whether the member mails may be run days ahead: only while mails stay in the outbox and payments in the sandbox. */
  memberMailsAhead: z.boolean(),
});
export type SandboxTools = z.infer<typeof sandboxToolsSchema>;

// as far ahead as the win-back mail's longest wait
const aheadDays = `A whole number of days from 1 to ${WINBACK_DAYS_MAX}.`;
export const memberMailsAheadRequestSchema = z.object({ days: z.int({ error: aheadDays }).min(1, { error: aheadDays }).max(WINBACK_DAYS_MAX, { error: aheadDays }) });
/** The pass's clock (now + days) and the mails it wrote (mails already written for a member are not written again). */
export const memberMailsAheadSchema = z.object({ asOf: isoDate, winback: z.number().int(), reminders: z.number().int() });
export type MemberMailsAhead = z.infer<typeof memberMailsAheadSchema>;
