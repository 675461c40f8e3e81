// The sandbox provider's free trials, as Stripe runs them: a trialing subscription whose period is
// the trial, a reminder event three days before its end (customer.subscription.trial_will_end),
// `trial_end: now` that charges the first invoice at once, and the card fingerprint of the
// subscription's card. The trial's natural end is a renewal (sandbox-subscriptions.ts).
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { planPeriodEnd } from '@shared/plans';
import { trialReminderAt } from '@shared/trials';
import { sandboxCheckoutSessions, sandboxSubscriptions } from '../../db/schema';
import type { SandboxPaymentsPort, SubscriptionSnapshot } from '../payments/payments.port';
import { cardOf } from './sandbox-checkout';
import { insertInvoice, planName } from './sandbox-invoices';
import { emit, emitAll, type SandboxDeps } from './sandbox-store';
import { serverError } from '../../http/server-errors';

type TrialCalls = Pick<SandboxPaymentsPort, 'endTrialNow' | 'cardFingerprint'> & {
  /** Emits trial_will_end for every trialing subscription whose reminder is due by `now`; returns how many. */
  remindTrials(now: Date): Promise<number>;
};

export function createSandboxTrials(deps: Pick<SandboxDeps, 'db' | 'clock'>, retrieve: (id: string) => Promise<SubscriptionSnapshot | null>): TrialCalls {
  const { db, clock } = deps;
  return {
    async endTrialNow(id) {
      const now = clock();
      await db.transaction(async (tx) => {
        const [sub] = await tx.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, id)).for('update').limit(1);
        if (!sub) throw serverError('noCustomer');
        if (sub.status === 'trialing') {
          const end = planPeriodEnd(sub.planType, now);
          if (!end) throw new Error(`plan ${sub.planType} has no billing period`);
          const card = await cardOf(tx, sub.customerId);
          const paid = !card?.laterChargesFail;
          const line = { description: `1 × ${planName(sub.planType)} (${now.toISOString().slice(0, 10)} – ${end.toISOString().slice(0, 10)})`, amount: sub.unitAmount, proration: false };
          // Stripe's invoice for trial_end=now is a subscription update; its period starts now.
          const invoice = await insertInvoice(tx, now, { customerId: sub.customerId, subscriptionId: id, lines: [line], billingReason: 'subscription_update', paid, currency: sub.currency, planType: sub.planType });
          await tx
            .update(sandboxSubscriptions)
            .set({ status: paid ? 'active' : 'past_due', currentPeriodStart: now, currentPeriodEnd: end, trialEnd: now, updatedAt: now })
            .where(eq(sandboxSubscriptions.id, id));
          await emitAll(tx, now, [
            [paid ? 'invoice.paid' : 'invoice.payment_failed', { invoiceId: invoice.id, subscriptionId: id }],
            ['customer.subscription.updated', { subscriptionId: id }],
          ]);
        }
      });
      const snapshot = await retrieve(id);
      if (!snapshot) throw new Error(`subscription ${id} vanished`);
      return snapshot;
    },

    async cardFingerprint(id) {
      const [row] = await db.select({ metadata: sandboxCheckoutSessions.metadata }).from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.subscriptionId, id)).limit(1);
      return row?.metadata.card_fingerprint ?? null;
    },

    async remindTrials(now) {
      const trialing = await db
        .select()
        .from(sandboxSubscriptions)
        .where(and(eq(sandboxSubscriptions.status, 'trialing'), isNotNull(sandboxSubscriptions.trialEnd), isNull(sandboxSubscriptions.trialRemindedAt)))
        .limit(100);
      let count = 0;
      for (const sub of trialing) {
        if (!sub.trialEnd || trialReminderAt(sub.currentPeriodStart, sub.trialEnd).getTime() > now.getTime()) continue;
        const reminded = await db.transaction(async (tx) => {
          const [claimed] = await tx
            .update(sandboxSubscriptions)
            .set({ trialRemindedAt: now })
            .where(and(eq(sandboxSubscriptions.id, sub.id), isNull(sandboxSubscriptions.trialRemindedAt)))
            .returning({ id: sandboxSubscriptions.id });
          if (claimed) await emit(tx, now, 'customer.subscription.trial_will_end', { subscriptionId: sub.id });
          return Boolean(claimed);
        });
        if (reminded) count += 1;
      }
      return count;
    },
  };
}
