// Checkout recovery: when a checkout with a known e-mail expires unpaid (Stripe's and the
// sandbox's checkout.session.expired), its buyer gets one mail whose link reopens it, unless the
// address heard from us in the last week, bought since, or opted out. The link goes through the
// shop, which checks again that nothing was bought meanwhile before sending the buyer on.
import { createHash, randomBytes } from 'node:crypto';
import { recoveryDecision, RECOVERY_TOKEN, type RecoveryLinkOutcome } from '@shared/checkout-recovery';
import { isPlanType } from '@shared/plans';
import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import { enqueueMail } from '../mail/outbox.repository';
import type { PaymentEvent, PaymentsPort } from '../payments/payments.port';
import { paidSince } from '../provider-records/checkout-session-reads';
import { abandonedCheckout, insertRecovery, isOptedOut, lastRecoveryMail, lockAddress, markUsed, optOut, recoveryByTokenHash } from './checkout-recovery.repository';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function createCheckoutRecovery(deps: {
  db: Db;
  payments: Pick<PaymentsPort, 'resumeCheckoutSession'>;
  clock: () => Date;
  logger: Logger;
  kickMailer: () => void;
  /** The operator's switch of this mail (the console's Mails card, decision 056). */
  switchedOn: () => Promise<boolean>;
}) {
  const { db, clock, logger } = deps;

  /** Writes the recovery mail of an abandoned checkout when the rules allow it; true when written. */
  async function offer(sessionId: string): Promise<boolean> {
    const checkout = await abandonedCheckout(db, sessionId);
    if (!checkout?.email || !isPlanType(checkout.planType)) return false;
    if (!(await deps.switchedOn())) {
      logger.info({ sessionId }, 'no checkout recovery mail: switched off');
      return false;
    }
    const { email, planType } = checkout;
    const now = clock();
    const token = randomBytes(32).toString('base64url');
    const written = await db.transaction(async (tx) => {
      await lockAddress(tx, email);
      const decision = recoveryDecision(
        {
          email,
          paid: checkout.paid,
          optedOut: await isOptedOut(tx, email),
          lastMailAt: await lastRecoveryMail(tx, email),
          boughtSince: await paidSince(tx, email, checkout.createdAt),
        },
        now,
      );
      if (decision !== 'send') {
        logger.info({ sessionId, decision }, 'no checkout recovery mail');
        return false;
      }
      if (
        !(await insertRecovery(tx, {
          email,
          checkoutSessionId: sessionId,
          tokenHash: hashToken(token),
          sentAt: now,
        }))
      )
        return false;
      return enqueueMail(tx, {
        template: 'checkout_recovery',
        to: email,
        data: { token, planType },
        dedupeKey: `checkout_recovery:${sessionId}`,
      });
    });
    if (written) deps.kickMailer();
    return written;
  }

  return {
    offer,

    /** Fulfilment's afterEvent: an expired checkout may earn its buyer a recovery mail. */
    async afterPaymentEvent(event: Pick<PaymentEvent, 'type' | 'checkoutSessionId'>): Promise<void> {
      if (event.type !== 'checkout.session.expired' || !event.checkoutSessionId) return;
      try {
        await offer(event.checkoutSessionId);
      } catch (error) {
        // a missed reminder must not make the provider retry the event
        logger.warn({ err: error, sessionId: event.checkoutSessionId }, 'checkout recovery mail not written');
      }
    },

    /** Opening the mailed link: on to the checkout, or why not. */
    async resume(token: string): Promise<RecoveryLinkOutcome> {
      if (!RECOVERY_TOKEN.test(token)) return { kind: 'unknown' };
      const link = await recoveryByTokenHash(db, hashToken(token));
      if (!link) return { kind: 'unknown' };
      if (await paidSince(db, link.email, link.sessionCreatedAt ?? link.sentAt)) return { kind: 'purchased' };
      const url = await deps.payments.resumeCheckoutSession(link.checkoutSessionId);
      if (!url) return { kind: 'gone' };
      await markUsed(db, link.id, clock());
      return { kind: 'resume', url };
    },

    /** The mail's unsubscribe link: no more recovery mails to its address; false for an unknown link. */
    async unsubscribe(token: string): Promise<boolean> {
      if (!RECOVERY_TOKEN.test(token)) return false;
      const link = await recoveryByTokenHash(db, hashToken(token));
      if (!link) return false;
      await optOut(db, link.email);
      return true;
    },
  };
}

export type CheckoutRecovery = ReturnType<typeof createCheckoutRecovery>;
