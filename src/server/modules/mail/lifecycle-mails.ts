// The event-driven mails, each written with the transaction of the event that causes it (the
// caller passes `tx`), so the event and its mail commit together or not at all. The dedupe keys
// turn duplicated and reordered provider events into one mail.
import type { PlanType } from '@shared/plans';
import type { Db } from '../../db/client';
import { mailKeys, type TrialReceipt } from '@shared/mail-intents';
import { emailOfUser } from './lifecycle-mail.repository';
import { recipientOfSubscription } from '../entitlements/entitlement-reads';
import { enqueueMail, isMailKeyTaken } from './outbox.repository';

export type PaidCheckout = {
  sessionId: string;
  email: string | null;
  planType: PlanType;
  amount: number;
  currency: string;
  /** The next renewal; null for lifetime. */
  renewsAt: Date | null;
  /** No account holds the purchase yet: the buyer gets the "finish setting up" link. */
  unclaimed: boolean;
  /** The tax included in amount (0: none). */
  amountTax?: number;
  /** A free trial's checkout: nothing paid today, the plan charged when the trial ends. */
  trial?: TrialReceipt | null;
};

/** Receipt / welcome, plus "Finish setting up your access" while no account holds the purchase. */
export async function queuePurchaseMails(tx: Db, paid: PaidCheckout): Promise<void> {
  if (!paid.email) return;
  const { sessionId, planType } = paid;
  if (paid.unclaimed) await enqueueMail(tx, { template: 'finish_setup', to: paid.email, data: { sessionId, planType }, dedupeKey: mailKeys.finishSetup(sessionId) });
  await enqueueMail(tx, {
    template: 'receipt',
    to: paid.email,
    data: { planType, amount: paid.amount, currency: paid.currency, renewsAt: paid.renewsAt?.toISOString() ?? null, ...(paid.trial ? { trial: paid.trial } : {}), ...(paid.amountTax ? { amountTax: paid.amountTax } : {}) },
    dedupeKey: mailKeys.receipt(sessionId),
  });
}

/** "Payment failed — update your card", once per failed renewal invoice. */
export async function queuePaymentFailedMail(tx: Db, invoice: { id: string; subscriptionId: string | null; billingReason: string | null }): Promise<void> {
  // The first invoice is the checkout itself: the buyer is still on the payment page.
  if (!invoice.subscriptionId || invoice.billingReason === 'subscription_create') return;
  const recipient = await recipientOfSubscription(tx, invoice.subscriptionId);
  if (!recipient) return;
  await enqueueMail(tx, { template: 'payment_failed', to: recipient.email, data: { planType: recipient.planType }, dedupeKey: mailKeys.paymentFailed(invoice.id) });
}

/**
 * "Your TradingView access is active", once per grant (user and username) once it is read back.
 * `scriptNames`: the names of the scripts the grant gave. Every renewal's extension is confirmed
 * again and comes here: a grant already told reads nothing more.
 */
export async function queueAccessActiveMail(tx: Db, grant: { id: string; userId: string; username: string }, scriptNames: () => Promise<string[]>): Promise<void> {
  const dedupeKey = mailKeys.tradingviewActive(grant.id, grant.username);
  if (await isMailKeyTaken(tx, dedupeKey)) return;
  const email = await emailOfUser(tx, grant.userId);
  if (!email) return;
  await enqueueMail(tx, { template: 'tradingview_active', to: email, data: { username: grant.username, scripts: await scriptNames() }, dedupeKey });
}
