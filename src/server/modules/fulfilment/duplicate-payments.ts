// One paid subscription per buyer. A payment is judged once, when it first
// completes, inside the fulfilment transaction and under a lock on the buyer's e-mail (so two
// sessions of one buyer completing at once on two instances are judged one after the other).
// What the judgement asks of the provider (refunds, cancellations, expiring other checkouts)
// happens after the commit, in `settlePayment`, which is safe to run again: a retried event or
// the buyer's visit to /payment-success finishes what a failed attempt left.
import { grantsAccess, isCanceled } from '@shared/access';
import { judgePayment, unusedPeriodRefund, type PaymentVerdict } from '@shared/payment-rules';
import { isPlanType, isRecurring, type PlanType } from '@shared/plans';
import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import { activeRowsOfBuyer, checkoutStillGrants, findOrderByAnyPaymentId, lockBuyer, type BuyerHolding } from '../entitlements/entitlements.repository';
import { findCheckoutSession, openCheckoutsOfEmail, setDuplicateStatus, updateCheckoutSession } from '../provider-records/checkout-sessions.repository';
import type { Entitlements, EntitlementWriter } from '../entitlements/entitlements';
import type { PaymentsPort, SubscriptionSnapshot } from '../payments/payments.port';

export type SettlementDeps = {
  db: Db;
  payments: PaymentsPort;
  logger: Logger;
  clock: () => Date;
  entitlements: Pick<Entitlements, 'write'>;
  /** Writes a subscription snapshot the provider answered with onto our row (fulfilment's applySubscription). */
  applySubscription: (sub: SubscriptionSnapshot, asOf: Date) => Promise<void>;
};

const holdingOf = (row: BuyerHolding) => ({ planType: row.planType, canceled: isCanceled(row) });

/**
 * Judges a payment that has just completed, in the transaction that wrote its rows. A duplicate
 * loses its access at once and is recorded (refund_pending) for `settlePayment` to refund.
 */
export async function judgeCompletedPayment(
  writer: EntitlementWriter,
  payment: { checkoutSessionId: string; subscriptionId: string | null; planType: PlanType; email: string },
  asOf: Date,
  logger: Logger,
): Promise<PaymentVerdict> {
  const { tx } = writer;
  await lockBuyer(tx, payment.email);
  const held = (await activeRowsOfBuyer(tx, payment.email, payment)).filter((row) => isPlanType(row.planType) && grantsAccess(row, asOf));
  const verdict = judgePayment(payment.planType, held.map(holdingOf));
  if (verdict === 'duplicate') {
    await writer.revokeRows({ checkoutSessionId: payment.checkoutSessionId, subscriptionId: payment.subscriptionId }, 'duplicate');
    await setDuplicateStatus(tx, payment.checkoutSessionId, 'refund_pending');
    logger.warn({ sessionId: payment.checkoutSessionId, planType: payment.planType, held: held.map((row) => row.planType) }, 'duplicate payment: it will be refunded');
  }
  return verdict;
}

/**
 * Carries out what the judgement of a paid session asks of the provider. Safe to repeat:
 * - a duplicate is refunded in full and its subscription cancelled, then marked refunded;
 * - any other payment expires the buyer's other open checkouts, and a lifetime purchase ends the
 *   buyer's recurring subscriptions with a refund of their unused paid time.
 * Throws when the provider fails, so the event is delivered again.
 */
export async function settlePayment(deps: SettlementDeps, sessionId: string): Promise<void> {
  const session = await findCheckoutSession(deps.db, sessionId);
  if (!session?.email || (session.paymentStatus !== 'paid' && session.paymentStatus !== 'no_payment_required')) return;
  if (session.provider !== deps.payments.kind) return;
  if (session.duplicateStatus === 'refund_pending') {
    await refundDuplicate(deps, session);
    return;
  }
  if (session.duplicateStatus) return;
  if (session.completedAt) await expireOtherCheckouts(deps, session.email, session.completedAt);
  // Only while the lifetime purchase itself still counts: a refunded one replaces nothing.
  if (!isRecurring(session.planType) && (await checkoutStillGrants(deps.db, session.id))) {
    await replaceRecurringPlans(deps, session.email, { checkoutSessionId: session.id, subscriptionId: null });
  }
}

async function refundDuplicate(deps: SettlementDeps, session: { id: string; providerPaymentId: string | null; providerSubscriptionId: string | null }): Promise<void> {
  const { db, payments, logger, clock } = deps;
  if (session.providerSubscriptionId) {
    // Cancelled first, so nothing renews even if the refund has to be retried.
    const asOf = clock();
    await deps.applySubscription(await payments.cancelSubscriptionNow(session.providerSubscriptionId), asOf);
  }
  if (session.providerPaymentId) {
    await payments.refundPayment({ paymentId: session.providerPaymentId, amount: null, reason: 'duplicate', idempotencyKey: `duplicate-${session.id}` });
    const order = await findOrderByAnyPaymentId(db, session.providerPaymentId);
    if (order) await deps.entitlements.write((writer) => writer.setOrderStatus(order.id, 'refunded'));
  }
  await setDuplicateStatus(db, session.id, 'refunded');
  logger.warn({ sessionId: session.id }, 'duplicate payment refunded in full and its subscription cancelled');
}

/** The buyer paid: checkouts left open in other tabs (or on /eu) before that can no longer be paid. */
async function expireOtherCheckouts(deps: SettlementDeps, email: string, paidAt: Date): Promise<void> {
  for (const open of await openCheckoutsOfEmail(deps.db, email, deps.payments.kind, paidAt)) {
    try {
      await deps.payments.expireCheckoutSession(open.id);
      await updateCheckoutSession(deps.db, open.id, { status: 'expired' });
    } catch (error) {
      // Not fatal: a payment that completes anyway is judged a duplicate and refunded.
      deps.logger.warn({ err: error, sessionId: open.id }, 'could not expire an open checkout');
    }
  }
}

/**
 * Ends the buyer's recurring subscriptions replaced by a lifetime purchase: each is cancelled
 * now and the unused part of its paid period refunded. Rows the provider already ended are only
 * marked replaced. Returns how many subscriptions were ended.
 */
export async function replaceRecurringPlans(deps: SettlementDeps, email: string, lifetime: { checkoutSessionId: string; subscriptionId: null }): Promise<number> {
  const { db, payments, logger, clock } = deps;
  const now = clock();
  const recurring = (await activeRowsOfBuyer(db, email, lifetime)).filter((row) => isRecurring(row.planType) && row.provider === payments.kind);
  let ended = 0;
  for (const row of recurring) {
    if (row.providerSubscriptionId && row.status !== 'canceled') {
      const sub = await payments.retrieveSubscription(row.providerSubscriptionId);
      if (sub && sub.status !== 'canceled') {
        const refund = await unusedRefund(deps, sub, now);
        if (refund) await payments.refundPayment({ ...refund, reason: 'requested_by_customer', idempotencyKey: `replaced-${sub.id}` });
        const asOf = clock();
        await deps.applySubscription(await payments.cancelSubscriptionNow(sub.id), asOf);
        ended += 1;
        logger.info({ subscriptionId: sub.id, refunded: refund?.amount ?? 0 }, 'subscription replaced by a lifetime purchase: cancelled with a prorated refund');
      }
    }
    await deps.entitlements.write((writer) => writer.revokeRows({ rowIds: [row.id] }, 'replaced'));
  }
  return ended;
}

async function unusedRefund(deps: SettlementDeps, sub: SubscriptionSnapshot, at: Date): Promise<{ paymentId: string; amount: number } | null> {
  if (!sub.latestInvoiceId || !sub.currentPeriodStart || !sub.currentPeriodEnd) return null;
  const invoice = await deps.payments.retrieveInvoice(sub.latestInvoiceId);
  if (!invoice || invoice.status !== 'paid') return null;
  const amount = unusedPeriodRefund({ amountPaid: invoice.amountPaid, periodStart: sub.currentPeriodStart, periodEnd: sub.currentPeriodEnd, at });
  return amount > 0 ? { paymentId: invoice.id, amount } : null;
}
