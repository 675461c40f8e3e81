// Free trials, one per person. Checkout asks whether a buyer may have one (by e-mail and, for a
// member, TradingView username); after payment every trial is recorded with its card's
// fingerprint and judged against earlier trials, and judged again when a TradingView username is
// attached. A repeat is charged at once (the provider's "end trial now") and told why by mail and
// on the member's pages. Provider events move a trial to converted or canceled and send the
// "trial ends soon" reminder. Every step is safe to repeat: events arrive more than once.
import { planHasTrial, checkoutTrialDays, conversionRate, repeatReason, REPEAT_REASONS, TRIAL_OUTCOMES, type TrialSettings } from '@shared/trials';
import type { MemberTrial, TrialsReport } from '@shared/trials-contract';
import { mailKeys } from '@shared/mail-intents';
import { isSubscriptionEvent } from '@shared/payment-events';
import type { PlanType } from '@shared/plans';
import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import { findCheckoutSession } from '../provider-records/checkout-sessions.repository';
import { enqueueMail } from '../mail/outbox.repository';
import type { PaymentEvent, PaymentsPort, SubscriptionSnapshot } from '../payments/payments.port';
import { currentUsername } from '../tradingview/tradingview.repository';
import {
  buyerTrialHistory,
  earlierTrialsSharingKeys,
  endRunningTrial,
  findTrialByCheckoutSession,
  findTrialBySubscription,
  recordTrial,
  trialsOfMember,
  trialsReport,
  updateTrialFacts,
  type TrialRow,
} from './trials.repository';

export type TrialsServiceDeps = {
  db: Db;
  payments: PaymentsPort;
  settings: TrialSettings;
  logger: Logger;
  clock: () => Date;
  /** Writes a subscription snapshot onto our rows (fulfilment's applySubscription through the entitlements core). */
  applySubscription: (sub: SubscriptionSnapshot, asOf: Date) => Promise<void>;
  /** Wakes the mail worker after a mail is queued. */
  kickMailer: () => void;
};

const DAY_MS = 24 * 60 * 60 * 1000;
const isPaid = (status: string) => status === 'paid' || status === 'no_payment_required';

function toMemberTrial(row: TrialRow): MemberTrial {
  return {
    planType: row.planType,
    outcome: row.outcome,
    startedAt: row.startedAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    amount: row.amount,
    currency: row.currency,
    repeatReason: row.repeatReason,
  };
}

export function createTrialsService(deps: TrialsServiceDeps) {
  const { db, payments, settings, logger, clock } = deps;

  /** Ends a repeat's trial at the provider (the plan is charged), records why, and tells the buyer. */
  async function refuseIfRepeat(trial: TrialRow): Promise<void> {
    if (trial.outcome !== 'running') return;
    const earlier = await earlierTrialsSharingKeys(db, trial);
    const reason = repeatReason(trial, earlier);
    if (!reason) return;
    const first = earlier.find((other) => repeatReason(trial, [other]) === reason);
    const asOf = clock();
    const sub = await payments.endTrialNow(trial.providerSubscriptionId);
    await deps.applySubscription(sub, asOf);
    const refused = await db.transaction(async (tx) => {
      if (!(await endRunningTrial(tx, trial.id, 'refused_repeat', asOf, { reason, of: first?.id ?? trial.id }))) return false;
      await enqueueMail(tx, {
        template: 'trial_refused',
        to: trial.email,
        data: { planType: trial.planType, reason, amount: trial.amount, currency: trial.currency },
        dedupeKey: mailKeys.trialRefused(trial.providerSubscriptionId),
      });
      return true;
    });
    if (refused) {
      deps.kickMailer();
      logger.warn({ subscriptionId: trial.providerSubscriptionId, reason, repeatOf: first?.id }, 'free trial refused as a repeat: the plan was charged');
    }
  }

  /** Records the trial of a paid checkout the first time it is seen trialing, then judges it. */
  async function recordFromSession(sessionId: string): Promise<void> {
    const session = await findCheckoutSession(db, sessionId);
    if (!session?.email || !session.providerSubscriptionId || !isPaid(session.paymentStatus) || session.provider !== payments.kind) return;
    let trial = await findTrialBySubscription(db, session.providerSubscriptionId);
    if (!trial) {
      // A trial's checkout charges nothing today; any other purchase costs no provider call here.
      if (session.amountTotal !== 0) return;
      const sub = await payments.retrieveSubscription(session.providerSubscriptionId);
      if (sub?.status !== 'trialing' || !sub.currentPeriodStart || !sub.currentPeriodEnd) return;
      const fingerprint = await payments.cardFingerprint(sub.id);
      const username = session.claimedByUserId ? await currentUsername(db, session.claimedByUserId) : null;
      trial = await recordTrial(db, {
        provider: payments.kind,
        providerSubscriptionId: sub.id,
        checkoutSessionId: session.id,
        email: session.email,
        cardFingerprint: fingerprint,
        tradingviewUsername: username,
        planType: (sub.planType ?? session.planType) as PlanType,
        amount: sub.unitAmount ?? 0,
        currency: sub.currency.toLowerCase(),
        days: Math.max(1, Math.round((sub.currentPeriodEnd.getTime() - sub.currentPeriodStart.getTime()) / DAY_MS)),
        startedAt: sub.currentPeriodStart,
        endsAt: sub.currentPeriodEnd,
      });
      logger.info({ subscriptionId: sub.id, endsAt: sub.currentPeriodEnd }, 'free trial started');
    }
    await refuseIfRepeat(trial);
  }

  /** Follows a trial's subscription: the reminder before its end, and how it ended. */
  async function followSubscription(subscriptionId: string, type: string): Promise<void> {
    const trial = await findTrialBySubscription(db, subscriptionId);
    if (!trial || trial.outcome !== 'running') return;
    const sub = await payments.retrieveSubscription(subscriptionId);
    if (!sub) return;
    const now = clock();
    if (sub.status === 'trialing') {
      if (sub.currentPeriodEnd && sub.currentPeriodEnd.getTime() !== trial.endsAt.getTime()) await updateTrialFacts(db, trial.id, { endsAt: sub.currentPeriodEnd }, now);
      // Stripe also sends trial_will_end when a trial is ended at once; only a trial still running is reminded.
      if (type === 'customer.subscription.trial_will_end' && !sub.cancelAtPeriodEnd && sub.currentPeriodEnd && sub.currentPeriodEnd.getTime() > now.getTime()) {
        const queued = await enqueueMail(db, {
          template: 'trial_ending',
          to: trial.email,
          data: { planType: trial.planType, endsAt: sub.currentPeriodEnd.toISOString(), amount: sub.unitAmount ?? trial.amount, currency: trial.currency },
          dedupeKey: mailKeys.trialEnding(subscriptionId, sub.currentPeriodEnd),
        });
        if (queued) deps.kickMailer();
      }
      return;
    }
    if (sub.status === 'active') {
      if (await endRunningTrial(db, trial.id, 'converted', now)) logger.info({ subscriptionId }, 'free trial converted');
    } else if (sub.status === 'canceled' || sub.status === 'incomplete_expired') {
      if (await endRunningTrial(db, trial.id, 'canceled', now)) logger.info({ subscriptionId }, 'free trial canceled before it was charged');
    }
  }

  return {
    settings,

    /** Trial days for a checkout of `planType` by this buyer; null: no trial in this checkout. */
    async checkoutTrialDays(planType: PlanType, buyer: { email: string | null; userId: string | null }): Promise<number | null> {
      if (!planHasTrial(settings, planType)) return null;
      const username = buyer.userId ? await currentUsername(db, buyer.userId) : null;
      return checkoutTrialDays(settings, planType, await buyerTrialHistory(db, { email: buyer.email, tradingviewUsername: username }));
    },

    /** Fulfilment's afterEvent: every delivery of a session, subscription or invoice event. */
    async afterPaymentEvent(event: Pick<PaymentEvent, 'type' | 'checkoutSessionId' | 'subscriptionId'>): Promise<void> {
      if (event.checkoutSessionId && event.type === 'checkout.session.completed') await recordFromSession(event.checkoutSessionId);
      else if (event.checkoutSessionId && event.type === 'checkout.session.async_payment_succeeded') await recordFromSession(event.checkoutSessionId);
      // What ends a trial is its subscription's status, which changes only with a subscription
      // event of its own: an invoice's event (a renewal's invoice.paid) would read for nothing.
      if (event.subscriptionId && isSubscriptionEvent(event.type)) await followSubscription(event.subscriptionId, event.type);
    },

    /** The TradingView username a member just attached: kept on their trials and judged against earlier ones. */
    async usernameAttached(userId: string, username: string): Promise<void> {
      for (const trial of await trialsOfMember(db, userId)) {
        if (trial.tradingviewUsername) continue;
        await updateTrialFacts(db, trial.id, { tradingviewUsername: username }, clock());
        await refuseIfRepeat({ ...trial, tradingviewUsername: username.trim().toLowerCase() });
      }
    },

    /**
     * The trial a paid checkout started, for its payment page. The buyer may arrive before the
     * provider's event: the trial is then recorded (and judged) here, once, as the event would.
     */
    async trialOfCheckout(sessionId: string): Promise<MemberTrial | null> {
      let trial = await findTrialByCheckoutSession(db, sessionId);
      if (!trial) {
        await recordFromSession(sessionId);
        trial = await findTrialByCheckoutSession(db, sessionId);
      }
      return trial ? toMemberTrial(trial) : null;
    },

    /** The member's latest trial, for settings and the payment pages. */
    async memberTrial(userId: string): Promise<MemberTrial | null> {
      const [latest] = await trialsOfMember(db, userId);
      return latest ? toMemberTrial(latest) : null;
    },

    async report(query: { days: number; userId?: string | undefined }): Promise<TrialsReport> {
      const until = clock();
      const since = new Date(until.getTime() - query.days * DAY_MS);
      const { byOutcome, byReason, latest } = await trialsReport(db, since, until, 50);
      const rows = query.userId ? await trialsOfMember(db, query.userId) : latest;
      const counts = Object.fromEntries(TRIAL_OUTCOMES.map((outcome) => [outcome, byOutcome.find((row) => row.outcome === outcome)?.count ?? 0])) as TrialsReport['counts'];
      return {
        trialDays: settings.days,
        days: query.days,
        started: Object.values(counts).reduce((sum, count) => sum + count, 0),
        counts,
        conversionRate: conversionRate(counts),
        refusedByReason: Object.fromEntries(REPEAT_REASONS.map((reason) => [reason, byReason.find((row) => row.reason === reason)?.count ?? 0])) as TrialsReport['refusedByReason'],
        trials: rows.map((row) => ({ ...toMemberTrial(row), id: row.id, email: row.email, tradingviewUsername: row.tradingviewUsername, outcomeAt: row.outcomeAt?.toISOString() ?? null })),
      };
    },
  };
}

export type TrialsService = ReturnType<typeof createTrialsService>;
