// Fulfilment: the one idempotent handler that Stripe webhooks and sandbox events go through
// (docs/decisions/007). Each event only names objects; the handler re-reads them from the provider (or
// takes the ones the sandbox read for a whole batch of its events, decision 038) and writes our
// rows from what it read, stamped with the moment of reading. So a duplicate changes
// nothing, a late event cannot overwrite newer state, and concurrent deliveries of one event
// queue on the record of processed events (provider-records), written in the same transaction as the effects.
import { chargeRevokes } from '@shared/payment-rules';
import { isPlanType, type PlanType } from '@shared/plans';
import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import { queuePaymentFailedMail, queuePurchaseMails } from '../mail/lifecycle-mails';
import { findAccountById, findOrderByAnyPaymentId, findRowBySubscriptionId, type SubscriptionRecord } from '../entitlements/entitlements.repository';
import { insertCheckoutSession, lockCheckoutSession, markCheckoutCompleted, updateCheckoutSession, type CheckoutSessionRow } from '../provider-records/checkout-sessions.repository';
import { isEventProcessed } from '../provider-records/processed-events.repository';
import type { Entitlements, EntitlementWriter, ProviderState, WrittenRow } from '../entitlements/entitlements';
import { judgeCompletedPayment, replaceRecurringPlans, settlePayment, type SettlementDeps } from './duplicate-payments';
import { recordEventFailure, recordProcessedEvent, resolveEventFailure } from './payment-event-failures.repository';
import { discountColumns } from '../promotions/promotion-facts';
import type { ChargeSnapshot, CheckoutSessionSnapshot, InvoiceSnapshot, PaymentEvent, PaymentsPort, ProviderObjects, SubscriptionSnapshot } from '../payments/payments.port';
import { serverError } from '../../http/server-errors';

/** A past_due member keeps access this long after the paid period while the provider retries. */
export const PAST_DUE_GRACE_MS = 3 * 24 * 60 * 60 * 1000;

/**
 * Our row's state for a provider subscription (active, trialing, canceled, plus the provider's others).
 * `previous` is our row before this snapshot: a subscription ended while its renewal was unpaid
 * keeps only what was paid.
 */
export function recurringRowState(sub: SubscriptionSnapshot, planType: PlanType, asOf: Date, previous?: Pick<SubscriptionRecord, 'status' | 'expiresAt'> | null): ProviderState {
  const state = providerRowState(sub, planType, asOf, previous);
  if (sub.pausedAccess !== 'stop') return state;
  // A member's pause (decision 052) keeps what was paid: access runs to the paid period's end, then stops until it resumes.
  const paidUntil = sub.pauseAccessUntil ?? null;
  if (paidUntil && state.isActive && paidUntil.getTime() > asOf.getTime()) return { ...state, expiresAt: paidUntil };
  // Collection paused with access stopped (the vendor's choice in the console): no access until resumed.
  return { ...state, isActive: false };
}

function providerRowState(sub: SubscriptionSnapshot, planType: PlanType, asOf: Date, previous?: Pick<SubscriptionRecord, 'status' | 'expiresAt'> | null): ProviderState {
  const base = { planType, cancelAtPeriodEnd: sub.cancelAtPeriodEnd, collectionPaused: sub.pausedAccess !== null, asOf };
  switch (sub.status) {
    case 'active':
    case 'trialing':
      return { ...base, status: sub.status, isActive: true, expiresAt: sub.currentPeriodEnd };
    case 'past_due': {
      // The provider already moved the period on; access runs to the paid period's end plus grace.
      const paidUntil = sub.currentPeriodStart ?? sub.currentPeriodEnd;
      const graceEnd = paidUntil ? new Date(paidUntil.getTime() + PAST_DUE_GRACE_MS) : null;
      const expiresAt = graceEnd && sub.currentPeriodEnd && graceEnd > sub.currentPeriodEnd ? sub.currentPeriodEnd : graceEnd;
      return { ...base, status: 'past_due', isActive: true, expiresAt };
    }
    case 'canceled':
      return { ...base, status: 'canceled', ...paidAfterCancel(sub, asOf, previous) };
    case 'incomplete_expired':
      return { ...base, status: 'canceled', isActive: false, expiresAt: sub.endedAt ?? sub.currentPeriodEnd };
    default:
      // incomplete (awaiting first payment), unpaid, paused: no access, status kept for support
      return { ...base, status: sub.status, isActive: false, expiresAt: sub.currentPeriodEnd };
  }
}

/**
 * A cancelled subscription keeps access to the end of the period it paid for (a canceled plan
 * keeps access until expiry), also when it was ended at once from the provider's dashboard.
 * Refunds take access away separately (revoked rows). After an unpaid renewal only the grace
 * already granted is left; a subscription that never got paid keeps nothing.
 */
function paidAfterCancel(sub: SubscriptionSnapshot, asOf: Date, previous?: Pick<SubscriptionRecord, 'status' | 'expiresAt'> | null): Pick<ProviderState, 'isActive' | 'expiresAt'> {
  let paidUntil = sub.currentPeriodEnd ?? sub.endedAt;
  if (previous?.status === 'past_due') paidUntil = previous.expiresAt;
  else if (previous && ['incomplete', 'unpaid', 'paused'].includes(previous.status)) paidUntil = null;
  if (!paidUntil || paidUntil.getTime() <= asOf.getTime()) return { isActive: false, expiresAt: sub.endedAt ?? sub.currentPeriodEnd };
  return { isActive: true, expiresAt: paidUntil };
}

export type FulfilmentDeps = {
  db: Db;
  payments: PaymentsPort;
  logger: Logger;
  clock: () => Date;
  /** The one writer of subscription rows and orders; it tells the integrations what changed. */
  entitlements: Entitlements;
  /** Runs after every applied or repeated delivery (free trials: records, repeats, reminders); safe to repeat. */
  afterEvent?: (event: Pick<PaymentEvent, 'type' | 'checkoutSessionId' | 'subscriptionId'>) => Promise<void>;
};

/** What settling a payment needs: the provider, and a way to write the subscriptions it answers with. */
export function settlementDeps(deps: FulfilmentDeps): SettlementDeps {
  return {
    ...deps,
    applySubscription: async (sub, asOf) => {
      await deps.entitlements.write((writer) => applySubscription(writer, deps.payments.kind, sub, asOf, deps.logger));
    },
  };
}

export type SessionFacts = { session: CheckoutSessionSnapshot; subscription: SubscriptionSnapshot | null; asOf: Date };

/** Reads a checkout session and its subscription from the provider, stamped with the reading time. */
export async function readSessionFacts(deps: FulfilmentDeps, sessionId: string): Promise<SessionFacts | null> {
  const asOf = deps.clock();
  const session = await deps.payments.retrieveCheckoutSession(sessionId);
  if (!session) return null;
  const subscription = session.subscriptionId ? await deps.payments.retrieveSubscription(session.subscriptionId) : null;
  return { session, subscription, asOf };
}

const isPaid = (session: { paymentStatus: string }) => session.paymentStatus === 'paid' || session.paymentStatus === 'no_payment_required';

/**
 * Writes a checkout session as the provider sees it: status, and when paid the order and the
 * subscription row. Rows stay without a user until claimed, except when the signed-in member who
 * started the checkout paid with their own e-mail (then it is claimed by them right here).
 */
export async function applyCheckoutSession(writer: EntitlementWriter, provider: PaymentsPort['kind'], facts: SessionFacts, logger: Logger): Promise<void> {
  const { tx } = writer;
  const { session, subscription, asOf } = facts;
  let row = await lockCheckoutSession(tx, session.id);
  const planType = row && isPlanType(row.planType) ? row.planType : session.planType;
  if (!planType) {
    logger.warn({ sessionId: session.id }, 'checkout session without a plan type: not ours, ignored');
    return;
  }
  if (!row) {
    // Started outside this app (e.g. a payment link carrying our metadata): keep a record all the same.
    await insertCheckoutSession(tx, { id: session.id, provider, planType, originPage: session.metadata.originPage === '/eu' ? '/eu' : '/' });
    row = await lockCheckoutSession(tx, session.id);
    if (!row) throw new Error(`checkout session ${session.id} vanished`);
  }
  const email = session.email?.trim().toLowerCase() ?? row.email;
  const firstCompletion = !isPaid(row) && isPaid(session);
  const discount = await discountColumns(tx, session.discount, row.promotionCode);
  await updateCheckoutSession(tx, session.id, {
    status: session.status,
    paymentStatus: session.paymentStatus,
    email,
    amountTotal: session.amountTotal ?? row.amountTotal,
    amountTax: session.amountTax ?? row.amountTax,
    ...discount,
    currency: session.currency?.toLowerCase() ?? row.currency,
    providerCustomerId: session.customerId ?? row.providerCustomerId,
    providerLivemode: session.customerId ? session.livemode : row.providerLivemode,
    providerSubscriptionId: session.subscriptionId ?? row.providerSubscriptionId,
    providerPaymentId: session.paymentId ?? row.providerPaymentId,
  });
  if (firstCompletion) await markCheckoutCompleted(tx, session.id);
  if (!isPaid(session)) return;

  const claimedBy = row.claimedByUserId;
  const orderId = await writer.ensureCheckoutOrder({
    checkoutSessionId: session.id,
    planType,
    amount: session.amountTotal ?? row.amountTotal ?? 0,
    amountTax: session.amountTax ?? row.amountTax,
    ...discount,
    currency: (session.currency ?? row.currency ?? 'usd').toLowerCase(),
    providerPaymentId: session.paymentId,
    providerPaymentIntentId: session.paymentIntentId,
    providerSubscriptionId: session.subscriptionId,
    userId: claimedBy,
  });
  const link = { provider, providerCustomerId: session.customerId, providerLivemode: session.livemode, userId: claimedBy, orderId };

  let owner: string | null;
  if (session.mode === 'payment') {
    const reversed = session.paymentReversed;
    owner = await writer.upsertOneTimeRow(session.id, { planType, status: reversed ? 'canceled' : 'active', isActive: !reversed, expiresAt: null, cancelAtPeriodEnd: false, asOf }, link);
  } else if (subscription) {
    const subPlan = subscription.planType ?? planType;
    const previous = await writer.findRecurringRow(subscription.id);
    const written = await writer.upsertRecurringRow(
      subscription.id,
      recurringRowState(subscription, subPlan, asOf, previous),
      { ...link, providerCustomerId: subscription.customerId, providerLivemode: subscription.livemode, checkoutSessionId: session.id, orderId: subPlan === planType ? orderId : null },
      previous,
    );
    owner = written?.userId ?? null;
  } else {
    logger.error({ sessionId: session.id }, 'paid subscription checkout without a subscription');
    return;
  }
  const verdict =
    firstCompletion && email ? await judgeCompletedPayment(writer, { checkoutSessionId: session.id, subscriptionId: session.subscriptionId, planType, email }, asOf, logger) : null;
  // A duplicate is refunded, not welcomed: no receipt and no set-up link for it, on any delivery.
  const duplicate = verdict === 'duplicate' || row.duplicateStatus !== null;

  const starter = session.metadata.userId;
  if (!claimedBy && starter && UUID.test(starter) && email) {
    const account = await findAccountById(tx, starter);
    if (account && account.email.toLowerCase() === email) {
      await claimLockedSession(writer, { ...row, email, providerSubscriptionId: session.subscriptionId ?? row.providerSubscriptionId }, account.id);
      owner = account.id;
    }
  }
  if (!duplicate) {
    await queuePurchaseMails(tx, {
      sessionId: session.id,
      email,
      planType,
      amount: session.amountTotal ?? row.amountTotal ?? 0,
      amountTax: session.amountTax ?? row.amountTax ?? 0,
      currency: (session.currency ?? row.currency ?? 'usd').toLowerCase(),
      renewsAt: subscription?.currentPeriodEnd ?? null,
      unclaimed: owner === null,
      trial: subscription?.status === 'trialing' && subscription.currentPeriodEnd ? { endsAt: subscription.currentPeriodEnd.toISOString(), amount: subscription.unitAmount ?? 0 } : null,
    });
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * True when writing `state` onto the row would change nothing: the row was written from a later
 * reading of the subscription (an older snapshot never overwrites state, and applySubscription
 * brings no links), or from this same reading with the same outcome. A renewal's invoice.paid and
 * customer.subscription.updated carry one reading of the subscription (decision 038), so the
 * second costs no write.
 */
function holdsSnapshot(row: SubscriptionRecord, state: ProviderState, sub: SubscriptionSnapshot): boolean {
  if (row.providerUpdatedAt === null || row.providerCustomerId !== sub.customerId || row.providerLivemode !== sub.livemode) return false;
  const written = row.providerUpdatedAt.getTime();
  const reading = state.asOf.getTime();
  if (written !== reading) return written > reading;
  return (
    row.planType === state.planType &&
    row.status === state.status &&
    row.isActive === (row.revokedReason === null && state.isActive) &&
    (row.expiresAt?.getTime() ?? null) === (state.expiresAt?.getTime() ?? null) &&
    row.cancelAtPeriodEnd === state.cancelAtPeriodEnd &&
    row.collectionPaused === (state.collectionPaused ?? false)
  );
}

/** The state a snapshot gives the subscription's row (`existing`: the row now, whose plan a snapshot of an unknown price keeps); null: not ours. */
function subscriptionRowState(sub: SubscriptionSnapshot, asOf: Date, existing: SubscriptionRecord | null): ProviderState | null {
  const planType = sub.planType ?? (existing && isPlanType(existing.planType) ? existing.planType : null);
  return planType ? recurringRowState(sub, planType, asOf, existing) : null;
}

/** True when `row` already holds what `sub`, read at `asOf`, says: applying it would write nothing. */
function rowHoldsSubscription(row: SubscriptionRecord, sub: SubscriptionSnapshot, asOf: Date): boolean {
  const state = subscriptionRowState(sub, asOf, row);
  return state !== null && holdsSnapshot(row, state, sub);
}

/**
 * Writes a subscription snapshot onto the row that already tracks it (rows are born at checkout).
 * Answers the row as written (null: not ours, ignored).
 */
export async function applySubscription(writer: EntitlementWriter, provider: PaymentsPort['kind'], sub: SubscriptionSnapshot, asOf: Date, logger: Logger): Promise<WrittenRow | null> {
  const existing = await writer.findRecurringRow(sub.id);
  const state = subscriptionRowState(sub, asOf, existing);
  if (!state) {
    logger.warn({ subscriptionId: sub.id }, 'subscription with an unknown price: not ours, ignored');
    return null;
  }
  if (existing && holdsSnapshot(existing, state, sub)) return { userId: existing.userId, planType: existing.planType };
  return writer.upsertRecurringRow(
    sub.id,
    state,
    { provider, providerCustomerId: sub.customerId, providerLivemode: sub.livemode, userId: null, checkoutSessionId: null, orderId: null },
    existing,
  );
}

/** A paid renewal or plan-change invoice becomes an order of the owner of the subscription's row, as just written. */
async function recordInvoiceOrder(writer: EntitlementWriter, invoice: InvoiceSnapshot, row: WrittenRow): Promise<void> {
  const { tx } = writer;
  if (invoice.status !== 'paid' || !invoice.subscriptionId) return;
  if (invoice.billingReason === 'subscription_create') return; // the checkout's own order
  // written once per invoice: a repeated event finds its order
  await writer.insertOrderOfPayment({
    userId: row.userId,
    // the plan the invoice charged for: the row may already show a later plan change
    planType: invoice.planType ?? row.planType,
    amount: invoice.amountPaid,
    amountTax: invoice.amountTax,
    ...(await discountColumns(tx, invoice.discount, null)),
    currency: invoice.currency.toLowerCase(),
    status: 'paid',
    providerPaymentId: invoice.id,
    providerPaymentIntentId: invoice.paymentIntentId,
    providerSubscriptionId: invoice.subscriptionId,
  });
}

/**
 * A refund or dispute of any payment, one-time or recurring (the charge names the payment intent;
 * orders are found by it or by their invoice). A full refund or a dispute not won takes access
 * from what the order paid for; a dispute the vendor won gives it back; a partial refund is
 * goodwill and changes nothing.
 */
async function applyCharge(writer: EntitlementWriter, charge: ChargeSnapshot, logger: Logger): Promise<void> {
  if (!charge.paymentId) return;
  const order = await findOrderByAnyPaymentId(writer.tx, charge.paymentId);
  if (!order) {
    logger.info({ chargeId: charge.id }, 'charge of no known order');
    return;
  }
  const rows = { checkoutSessionId: order.checkoutSessionId, subscriptionId: order.providerSubscriptionId, orderId: order.id };
  const reason = chargeRevokes(charge);
  if (reason) {
    await writer.setOrderStatus(order.id, reason);
    const owners = await writer.revokeRows(rows, reason);
    logger.warn({ orderId: order.id, chargeId: charge.id, reason, members: owners.length }, 'payment reversed: access removed');
    return;
  }
  if (order.status !== 'disputed' || charge.dispute !== 'won') return;
  await writer.setOrderStatus(order.id, 'paid');
  const owners = await writer.restoreRows(rows, 'disputed');
  logger.info({ orderId: order.id, chargeId: charge.id, members: owners.length }, 'dispute won: access restored');
}

// ---------------------------------------------------------------- claiming

export type ClaimResult = { userId: string; planType: string; rowIds: string[]; alreadyClaimed: boolean };

async function claimLockedSession(writer: EntitlementWriter, session: CheckoutSessionRow, userId: string): Promise<string[]> {
  await updateCheckoutSession(writer.tx, session.id, { claimedByUserId: userId, claimedAt: new Date() });
  return writer.linkSessionToUser(session, userId);
}

/**
 * Links a paid checkout session (its subscription row and order) to the account `userId`. Only
 * the account whose e-mail paid may claim it, and only once: the same account claiming again is
 * a no-op (retries are safe), any other account is refused. Call after the session is fulfilled
 * (billing service `loadPaidSession`), or it answers session_not_paid.
 */
export async function claimCheckoutSession(entitlements: Entitlements, sessionId: string, userId: string): Promise<ClaimResult> {
  return entitlements.write(async (writer) => {
    const { tx } = writer;
    const session = await lockCheckoutSession(tx, sessionId);
    if (!session) throw serverError('sessionNotFound');
    if (!isPaid(session)) throw serverError('sessionNotPaid');
    if (session.claimedByUserId && session.claimedByUserId !== userId) {
      throw serverError('sessionClaimed');
    }
    const account = await findAccountById(tx, userId);
    if (!account || !session.email || account.email.toLowerCase() !== session.email.toLowerCase()) {
      throw serverError('emailMismatch');
    }
    if (session.claimedByUserId === userId) {
      // Still link rows written after the first claim (a subscription event arriving late).
      const rowIds = await writer.linkSessionToUser(session, userId);
      return { userId, planType: session.planType, rowIds, alreadyClaimed: true };
    }
    const rowIds = await claimLockedSession(writer, session, userId);
    return { userId, planType: session.planType, rowIds, alreadyClaimed: false };
  });
}

// ---------------------------------------------------------------- the event handler

export type HandleResult = 'processed' | 'duplicate' | 'ignored';

type Facts =
  | { kind: 'session'; facts: SessionFacts }
  | { kind: 'subscription'; sub: SubscriptionSnapshot; invoice: InvoiceSnapshot | null; asOf: Date }
  | { kind: 'charge'; charge: ChargeSnapshot; asOf: Date }
  | { kind: 'none' };

const SESSION_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded', 'checkout.session.async_payment_failed', 'checkout.session.expired']);
const SUBSCRIPTION_EVENTS = new Set([
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.paused',
  'customer.subscription.resumed',
  'customer.subscription.pending_update_applied',
  'customer.subscription.pending_update_expired',
  'customer.subscription.trial_will_end',
]);
// payment_action_required: a renewal or plan change waits for the member's 3-D Secure; the
// re-read subscription says what that means (past_due, or a pending update on the old plan).
const INVOICE_EVENTS = new Set(['invoice.paid', 'invoice.payment_failed', 'invoice.payment_action_required']);
const CHARGE_EVENTS = new Set(['charge.refunded', 'charge.refund.updated', 'charge.dispute.created', 'charge.dispute.updated', 'charge.dispute.closed', 'charge.dispute.funds_reinstated']);

export function createPaymentEventHandler(deps: FulfilmentDeps) {
  const { db, payments, logger } = deps;

  /** The provider's subscriptions and invoices: the ones handed over with the event, else re-read now. */
  function reader(objects: ProviderObjects | undefined) {
    if (objects) {
      return {
        asOf: objects.asOf,
        subscription: async (id: string) => objects.subscriptions.get(id) ?? null,
        invoice: async (id: string) => objects.invoices.get(id) ?? null,
      };
    }
    return { asOf: deps.clock(), subscription: (id: string) => payments.retrieveSubscription(id), invoice: (id: string) => payments.retrieveInvoice(id) };
  }

  async function read(event: PaymentEvent, objects: ProviderObjects | undefined): Promise<Facts | null> {
    if (SESSION_EVENTS.has(event.type) && event.checkoutSessionId) {
      const facts = await readSessionFacts(deps, event.checkoutSessionId);
      return facts ? { kind: 'session', facts } : { kind: 'none' };
    }
    if (SUBSCRIPTION_EVENTS.has(event.type) && event.subscriptionId) {
      const provider = reader(objects);
      const sub = await provider.subscription(event.subscriptionId);
      return sub ? { kind: 'subscription', sub, invoice: null, asOf: provider.asOf } : { kind: 'none' };
    }
    if (INVOICE_EVENTS.has(event.type) && event.invoiceId) {
      const provider = reader(objects);
      const invoice = await provider.invoice(event.invoiceId);
      const subscriptionId = invoice?.subscriptionId ?? event.subscriptionId;
      // A one-time payment's invoice (invoice_creation): its checkout session carries the order.
      if (!subscriptionId) return invoice ? null : { kind: 'none' };
      const sub = await provider.subscription(subscriptionId);
      return sub ? { kind: 'subscription', sub, invoice, asOf: provider.asOf } : { kind: 'none' };
    }
    if (CHARGE_EVENTS.has(event.type) && event.chargeId) {
      const asOf = deps.clock();
      const charge = await payments.retrieveCharge(event.chargeId);
      return charge ? { kind: 'charge', charge, asOf } : { kind: 'none' };
    }
    return null;
  }

  /**
   * Applies one provider event exactly once; throws (so the provider retries) when it cannot.
   * `objects`: the subscriptions and invoices the provider handed over with its events (the
   * sandbox's), taken instead of re-reading them.
   */
  async function handle(event: PaymentEvent, source: PaymentsPort['kind'] = payments.kind, objects?: ProviderObjects): Promise<HandleResult> {
    try {
      const { result, failureResolved } = await apply(event, source, objects);
      // After the commit, and on every delivery: a retried event finishes a settlement that failed.
      if (result !== 'ignored' && SESSION_EVENTS.has(event.type) && event.checkoutSessionId) await settlePayment(settlementDeps(deps), event.checkoutSessionId);
      if (result !== 'ignored') await deps.afterEvent?.(event);
      if (!failureResolved) await resolveEventFailure(db, event.id, deps.clock());
      return result;
    } catch (error) {
      // Kept for the operator console (failures list, replay); the provider retries as well.
      await recordEventFailure(db, event, source, error, deps.clock()).catch((failure: unknown) => logger.error({ err: failure, eventId: event.id }, 'could not record a failed payment event'));
      throw error;
    }
  }

  /** `failureResolved`: a failure kept of the event was resolved by the transaction that recorded it. */
  async function apply(event: PaymentEvent, source: PaymentsPort['kind'], objects: ProviderObjects | undefined): Promise<{ result: HandleResult; failureResolved: boolean }> {
    // Only to spare the provider a re-read of a repeat: the processed event's record in the transaction decides.
    if (!objects && (await isEventProcessed(db, event.id))) return { result: 'duplicate', failureResolved: false };
    const facts = await read(event, objects);
    if (facts === null) {
      logger.debug({ eventId: event.id, type: event.type }, 'payment event type not handled');
      return { result: 'ignored', failureResolved: false };
    }
    const record = { id: event.id, source, type: event.type };
    if (objects && facts.kind === 'subscription' && SUBSCRIPTION_EVENTS.has(event.type)) {
      // A renewal's customer.subscription.updated carries the reading its invoice.paid just wrote
      // (decision 038): the row holds it, so the event writes nothing but the record that it was
      // applied, two statements instead of a transaction of four round trips. Safe outside a
      // transaction: a row that holds this reading (or a later one) keeps holding it whatever
      // commits meanwhile (provider_updated_at never moves back, an older reading never
      // overwrites), and a concurrent delivery of this event still queues on the record. Only for
      // objects handed over: a re-read (Stripe's) is newer than the row, which then never holds
      // it, so the read would be spent for nothing.
      const row = await findRowBySubscriptionId(db, facts.sub.id);
      if (row && rowHoldsSubscription(row, facts.sub, facts.asOf)) {
        return { result: (await recordProcessedEvent(db, record, deps.clock())) ? 'processed' : 'duplicate', failureResolved: true };
      }
    }
    const result = await deps.entitlements.write(async (writer) => {
      const { tx } = writer;
      if (!(await recordProcessedEvent(tx, record, deps.clock()))) return 'duplicate';
      switch (facts.kind) {
        case 'session':
          await applyCheckoutSession(writer, payments.kind, facts.facts, logger);
          break;
        case 'subscription': {
          const row = await applySubscription(writer, payments.kind, facts.sub, facts.asOf, logger);
          if (row && facts.invoice && event.type === 'invoice.paid') await recordInvoiceOrder(writer, facts.invoice, row);
          if (event.type === 'invoice.payment_failed') {
            logger.warn({ subscriptionId: facts.sub.id, status: facts.sub.status }, 'renewal payment failed');
            if (facts.invoice) await queuePaymentFailedMail(tx, facts.invoice);
          }
          if (event.type === 'invoice.payment_action_required') logger.info({ subscriptionId: facts.sub.id, invoiceId: facts.invoice?.id }, 'payment waits for the member to authenticate');
          break;
        }
        case 'charge':
          await applyCharge(writer, facts.charge, logger);
          break;
        case 'none':
          logger.warn({ eventId: event.id, type: event.type }, 'payment event names an object the provider does not know');
          break;
      }
      return 'processed' as const;
    });
    return { result, failureResolved: true };
  }

  return { handle };
}

export type PaymentEventHandler = ReturnType<typeof createPaymentEventHandler>;

/**
 * What billing asks of fulfilment: provider facts turned into rows, outside of any event (a buyer
 * back before the webhook, a sync, a plan change the member just made), plus the event handler.
 */
export function createFulfilment(deps: FulfilmentDeps) {
  const settlement = settlementDeps(deps);
  return {
    ...createPaymentEventHandler(deps),
    /** Re-reads a checkout session and writes what it says (idempotent; no event id needed), then settles it. */
    async fulfilFromProvider(sessionId: string): Promise<void> {
      const facts = await readSessionFacts(deps, sessionId);
      if (!facts) return;
      await deps.entitlements.write((writer) => applyCheckoutSession(writer, deps.payments.kind, facts, deps.logger));
      await settlePayment(settlement, sessionId);
      await deps.afterEvent?.({ type: 'checkout.session.completed', checkoutSessionId: sessionId });
    },
    /** Writes a subscription snapshot the provider answered with, read at `asOf`. */
    applySubscription: settlement.applySubscription,
    settle: (sessionId: string) => settlePayment(settlement, sessionId),
    claim: (sessionId: string, userId: string) => claimCheckoutSession(deps.entitlements, sessionId, userId),
    replaceRecurringPlans: (email: string, lifetime: { checkoutSessionId: string; subscriptionId: null }) => replaceRecurringPlans(settlement, email, lifetime),
  };
}

export type Fulfilment = ReturnType<typeof createFulfilment>;
