// What the outbox stores for each mail: the template and the facts it needs, never rendered text
// (the worker renders at send time with the current brand and PUBLIC_URL). The dedupe key makes
// "one mail per purchase, grant, failed invoice, reminder" a unique index, not a hope.
import type { PlanType } from './plans';
import type { RepeatReason } from './trials';

/** A receipt of a trial's checkout: nothing paid today, `amount` charged at `endsAt` (ISO). */
export type TrialReceipt = { endsAt: string; amount: number };

export type MailIntentData = {
  /** Finish setting up your access: the signed link continues /payment-success for this session. */
  finish_setup: { sessionId: string; planType: PlanType };
  finish_setup_reminder: { sessionId: string; planType: PlanType };
  /** renewsAt: ISO date of the next renewal; null for lifetime. */
  receipt: { planType: PlanType; amount: number; currency: string; renewsAt: string | null; trial?: TrialReceipt; /** The tax included in amount (absent: none). */ amountTax?: number };
  /** scripts: the names of the scripts granted (absent on mails queued before bundles: TRADINGVIEW_SCRIPT_IDS). */
  tradingview_active: { username: string; scripts?: string[] };
  payment_failed: { planType: PlanType };
  access_ending: { planType: PlanType; endsAt: string };
  access_ended: { planType: PlanType };
  /** Complimentary access an operator gave, which no one bought: nothing was canceled, nothing renews. */
  comp_ending: { endsAt: string };
  comp_ended: { endedAt: string };
  plan_changed: { from: PlanType; to: PlanType };
  /** A free trial ends soon (Stripe's trial_will_end): `amount` is charged at `endsAt` unless canceled. */
  trial_ending: { planType: PlanType; endsAt: string; amount: number; currency: string };
  /** A trial refused as a repeat after payment: the plan was charged at once. */
  trial_refused: { planType: PlanType; reason: RepeatReason; amount: number; currency: string };
  password_reset: { url: string };
  verify_email: { url: string };
  /** A member brought in by the import of an existing business: `url` sets their password (valid `days`). */
  access_moved: { url: string; planType: PlanType; days: number };
  /** A one-time link to become an operator, from the operator who invited. */
  operator_invitation: { url: string; invitedBy: string };
  /** To each operator: an alert of the console started (title and detail as measured) or ended. */
  operator_alert: { title: string; detail: string | null; since: string };
  operator_alert_resolved: { title: string; since: string; resolvedAt: string };
  /** An operator's update (What's new) to a member who did not turn these mails off. */
  announcement: { announcementId: string; title: string; body: string; scriptId: string | null };
  /** To an affiliate, at most once a day: the commissions earned since the last such mail (amounts per currency). */
  affiliate_commission: { count: number; amounts: { amount: number; currency: string }[]; holdDays: number };
  /** To an affiliate: a payout was marked sent to their PayPal or Wise address. */
  affiliate_payout: { amount: number; currency: string; payoutEmail: string };
  /** To a buyer who left a checkout: `token` opens /checkout/recover/{token} (resume) and its unsubscribe page. */
  checkout_recovery: { token: string; planType: PlanType };
  /** A member's pause from the cancellation flow ends soon: the plan renews and charges at `resumesAt` (decision 052). */
  pause_resuming: { planType: PlanType; resumesAt: string };
  /** The operator moved the member to the plan's current price (decision 058): `amount` is charged from the renewal at `from` on, before any discount they have. */
  price_moved: { planType: PlanType; amount: number; currency: string; from: string };
  /** N days after a member's access ended (decision 056): `code` (churned-only) and what it gives; `unsubscribe` is the signed path part of /mail/unsubscribe/{unsubscribe}. */
  winback: { code: string; offer: string; unsubscribe: string };
  /** A set-up step still missing after the purchase: 'tradingview' or a community integration's name (`reminder`: 1 for the first of the cadence). */
  setup_reminder: { step: string; reminder: number; unsubscribe: string };
};

export type MailTemplate = keyof MailIntentData;

export const MAIL_TEMPLATES = [
  'finish_setup',
  'finish_setup_reminder',
  'receipt',
  'tradingview_active',
  'payment_failed',
  'access_ending',
  'access_ended',
  'comp_ending',
  'comp_ended',
  'plan_changed',
  'trial_ending',
  'trial_refused',
  'password_reset',
  'verify_email',
  'access_moved',
  'operator_invitation',
  'operator_alert',
  'operator_alert_resolved',
  'announcement',
  'affiliate_commission',
  'affiliate_payout',
  'checkout_recovery',
  'pause_resuming',
  'price_moved',
  'winback',
  'setup_reminder',
] as const satisfies readonly MailTemplate[];

/** queued → sending (claimed, leased) → sent; a failed try goes to failing (retried) or failed (gave up). */
export const OUTBOX_STATUSES = ['queued', 'sending', 'sent', 'failing', 'failed'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

/** One mail to write: `dedupeKey` null for mails that may repeat (a second reset request). */
export type MailIntent = {
  [T in MailTemplate]: { template: T; to: string; data: MailIntentData[T]; dedupeKey: string | null };
}[MailTemplate];

/** The dedupe keys: one mail per thing that happened, whatever the number of events telling it. */
export const mailKeys = {
  finishSetup: (sessionId: string) => `finish_setup:${sessionId}`,
  finishSetupReminder: (sessionId: string) => `finish_setup_reminder:${sessionId}`,
  receipt: (sessionId: string) => `receipt:${sessionId}`,
  tradingviewActive: (grantId: string, username: string) => `tradingview_active:${grantId}:${username.toLowerCase()}`,
  paymentFailed: (invoiceId: string) => `payment_failed:${invoiceId}`,
  accessEnding: (rowId: string, endsAt: Date) => `access_ending:${rowId}:${endsAt.toISOString()}`,
  accessEnded: (rowId: string, endedAt: Date) => `access_ended:${rowId}:${endedAt.toISOString()}`,
  planChanged: (accessChangeId: string) => `plan_changed:${accessChangeId}`,
  pauseResuming: (cancellationId: string) => `pause_resuming:${cancellationId}`,
  /** Once per subscription and Price it was moved to (the lookup key names the amount). */
  priceMoved: (subscriptionId: string, lookupKey: string) => `price_moved:${subscriptionId}:${lookupKey}`,
  /** Once per churn: the member and when their access ended. */
  winback: (userId: string, endedAt: Date) => `winback:${userId}:${endedAt.toISOString()}`,
  /** Each reminder of the cadence once per member, step and stretch of access: a member who comes back gets a new series. */
  setupReminder: (step: string, userId: string, startedAt: Date, reminder: number) => `setup_reminder:${step}:${userId}:${startedAt.toISOString()}:${reminder}`,
  trialEnding: (subscriptionId: string, endsAt: Date) => `trial_ending:${subscriptionId}:${endsAt.toISOString()}`,
  trialRefused: (subscriptionId: string) => `trial_refused:${subscriptionId}`,
  accessMoved: (userId: string) => `access_moved:${userId}`,
  operatorAlert: (key: string, since: Date, to: string) => `operator_alert:${key}:${since.toISOString()}:${to.toLowerCase()}`,
  operatorAlertResolved: (key: string, since: Date, to: string) => `operator_alert_resolved:${key}:${since.toISOString()}:${to.toLowerCase()}`,
} as const;
