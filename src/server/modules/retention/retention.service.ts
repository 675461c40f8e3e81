// The cancellation flow (decision record 052): the member gives a reason, sees the operator's offer
// for it (a retention discount once per member, or a pause of 1–3 months) and takes it or cancels
// at the period's end. The choice is written first as pending (one in flight per subscription, one
// discount per member: unique indexes), then the provider is asked, then the provider's answer is
// written through the entitlements core: a refusal there keeps nothing, a repeat applies nothing twice.
import { grantsAccess } from '@shared/access';
import { neverExpires, planPeriodInterval } from '@shared/plans';
import {
  CANCELLATION_REASONS,
  describeOffer,
  discountMonths,
  eligibleOffer,
  pauseWindow,
  STRIPE_FEEDBACK,
  type RetentionOffer,
  type RetentionOffers,
} from '@shared/retention';
import type { CancellationOptions, CancellationRequest, CancellationResponse, CancellationsReport } from '@shared/retention-contract';
import type { Db } from '../../db/client';
import { serverError } from '../../http/server-errors';
import type { SessionUser } from '../../http/session-user';
import type { Logger } from '../../logger';
import { activeFlagRowsOfUser } from '../entitlements/entitlements.repository';
import type { CancellationFeedback, PaymentsPort, SubscriptionSnapshot } from '../payments/payments.port';
import {
  beginCancellation,
  cancellationCounts,
  discountUsed,
  dropCancellation,
  finishCancellation,
  pausedNowCount,
  readOffers,
  recentCancellations,
  runningPause,
  writeOffers,
} from './retention.repository';
import { renewingSubscriptionOf } from '../entitlements/entitlement-reads';

export type RetentionDeps = {
  db: Db;
  clock: () => Date;
  payments: PaymentsPort;
  /** Writes the provider's answer through the entitlements core (the member's access follows it). */
  applySubscription: (sub: SubscriptionSnapshot, asOf: Date) => Promise<void>;
  /** The operator's audit line for an edit of the offers. */
  audit: (entry: { operator: string; action: string; details: Record<string, unknown> }) => Promise<void>;
  logger: Logger;
};

const dayText = (date: Date) => date.toISOString().slice(0, 10);
const REPORT_ROWS = 200;

export function createRetentionService(deps: RetentionDeps) {
  const { db, clock, payments, logger } = deps;

  /** Why this member cannot start a cancellation now (a text for the dialog), or their plan. */
  type Plan = NonNullable<Awaited<ReturnType<typeof renewingSubscriptionOf>>> & { providerSubscriptionId: string };
  async function cancellable(userId: string, now: Date): Promise<{ blocked: string } | { plan: Plan }> {
    const rows = await activeFlagRowsOfUser(db, userId);
    if (rows.some((row) => neverExpires(row.planType) && grantsAccess(row, now))) return { blocked: 'Lifetime is paid once: there is nothing to cancel or pause.' };
    const plan = await renewingSubscriptionOf(db, userId, payments.kind);
    if (!plan?.providerSubscriptionId) return { blocked: 'You have no plan that renews.' };
    if (plan.cancelAtPeriodEnd) return { blocked: `Your plan is already canceled: it ends on ${plan.expiresAt ? dayText(plan.expiresAt) : 'its period end'}.` };
    return { plan: { ...plan, providerSubscriptionId: plan.providerSubscriptionId } };
  }

  async function offersFor(userId: string, now: Date): Promise<RetentionOffers> {
    const [offers, usedDiscount, pause] = await Promise.all([readOffers(db), discountUsed(db, userId), runningPause(db, userId, now)]);
    return Object.fromEntries(CANCELLATION_REASONS.map((reason) => [reason, eligibleOffer(offers[reason], { discountUsed: usedDiscount, paused: pause !== null })])) as RetentionOffers;
  }

  return {
    async options(user: SessionUser): Promise<CancellationOptions> {
      const now = clock();
      const [state, offers, pause] = await Promise.all([cancellable(user.id, now), offersFor(user.id, now), runningPause(db, user.id, now)]);
      return {
        subscription: 'plan' in state ? { planType: state.plan.planType, currentPeriodEnd: state.plan.expiresAt?.toISOString() ?? null } : null,
        blocked: 'blocked' in state ? state.blocked : null,
        offers,
        pause: pause?.pauseAccessUntil && pause.pauseResumesAt ? { accessUntil: pause.pauseAccessUntil.toISOString(), resumesAt: pause.pauseResumesAt.toISOString() } : null,
      };
    },

    async choose(user: SessionUser, request: CancellationRequest): Promise<CancellationResponse> {
      const now = clock();
      const state = await cancellable(user.id, now);
      if ('blocked' in state) throw serverError('cancellationBlocked', state.blocked);
      const { plan } = state;
      const offered: RetentionOffer | null = (await offersFor(user.id, now))[request.reason];
      const text = request.text?.trim() ? request.text.trim() : null;
      const feedback: CancellationFeedback = { feedback: STRIPE_FEEDBACK[request.reason], comment: text, reason: request.reason, outcome: request.choice };
      const base = { userId: user.id, provider: payments.kind, providerSubscriptionId: plan.providerSubscriptionId, planType: plan.planType, reason: request.reason, reasonText: text, offer: offered, createdAt: now };

      if (request.choice === 'discount') {
        if (offered?.kind !== 'discount') throw serverError('offerNotAvailable', (await discountUsed(db, user.id)) ? 'You have already used your retention discount.' : 'There is no discount for this reason.');
        const months = discountMonths(offered.periods, planPeriodInterval(plan.planType)?.months ?? 1);
        return run({ ...base, outcome: 'discount', pauseMonths: null, pauseAccessUntil: null, pauseResumesAt: null }, () =>
          payments.applyRetentionDiscount(plan.providerSubscriptionId, { percentOff: offered.percentOff, months, feedback }),
        ).then(() => ({ outcome: 'discount' as const, message: `Thank you for staying: ${describeOffer(offered)}.` }));
      }

      if (request.choice === 'pause') {
        if (offered?.kind !== 'pause') throw serverError('offerNotAvailable', plan.collectionPaused || (await runningPause(db, user.id, now)) ? 'Your plan is already paused.' : 'There is no pause for this reason.');
        const months = request.pauseMonths ?? offered.months;
        if (months > offered.months) throw serverError('offerNotAvailable', `You can pause for at most ${offered.months} month${offered.months === 1 ? '' : 's'}.`);
        const periodEnd = plan.expiresAt && plan.expiresAt.getTime() > now.getTime() ? plan.expiresAt : now;
        const window = pauseWindow(periodEnd, months);
        await run({ ...base, outcome: 'pause', pauseMonths: months, pauseAccessUntil: window.accessUntil, pauseResumesAt: window.resumesAt }, () =>
          payments.pauseForMember(plan.providerSubscriptionId, { ...window, feedback }),
        );
        return {
          outcome: 'pause',
          message: `Your plan is paused: access stays until ${dayText(window.accessUntil)}, nothing is charged until ${dayText(window.resumesAt)}, and we will e-mail you before it resumes.`,
        };
      }

      await run({ ...base, outcome: 'declined', pauseMonths: null, pauseAccessUntil: null, pauseResumesAt: null }, () => payments.cancelAtPeriodEnd(plan.providerSubscriptionId, feedback));
      return { outcome: 'declined', message: `Your plan is canceled: you keep access until ${plan.expiresAt ? dayText(plan.expiresAt) : 'the end of the period'} and nothing more is charged.` };
    },

    async offers(): Promise<RetentionOffers> {
      return readOffers(db);
    },

    async setOffers(operator: SessionUser, offers: RetentionOffers): Promise<RetentionOffers> {
      await writeOffers(db, offers, operator.email.toLowerCase(), clock());
      await deps.audit({ operator: operator.email, action: 'set_retention_offers', details: { offers } });
      return readOffers(db);
    },

    async report(query: { days: number; userId?: string }): Promise<CancellationsReport> {
      const now = clock();
      const since = new Date(now.getTime() - query.days * 24 * 60 * 60 * 1000);
      const [entries, counts, pausedNow] = await Promise.all([recentCancellations(db, since, REPORT_ROWS, query.userId), cancellationCounts(db, since, query.userId), pausedNowCount(db, now, query.userId)]);
      const byReason = CANCELLATION_REASONS.map((reason) => {
        const of = (outcome: string) => counts.find((row) => row.reason === reason && row.outcome === outcome)?.n ?? 0;
        return { reason, declined: of('declined'), discount: of('discount'), pause: of('pause') };
      });
      return {
        days: query.days,
        total: counts.reduce((sum, row) => sum + row.n, 0),
        byReason,
        pausedNow,
        entries: entries.map((row) => ({ ...row, pauseResumesAt: row.pauseResumesAt?.toISOString() ?? null, createdAt: row.createdAt.toISOString() })),
      };
    },
  };

  /** Pending row, provider call, the answer written, the row done; a refusal anywhere keeps nothing of ours. */
  async function run(row: Parameters<typeof beginCancellation>[1], call: () => Promise<SubscriptionSnapshot>): Promise<void> {
    const begun = await beginCancellation(db, row);
    if ('conflict' in begun) throw serverError('offerNotAvailable', begun.conflict === 'discount_used' ? 'You have already used your retention discount.' : 'Your last choice is still being saved. Please refresh in a moment.');
    let sub: SubscriptionSnapshot;
    try {
      sub = await call();
    } catch (error) {
      await dropCancellation(db, begun.id);
      throw error;
    }
    await deps.applySubscription(sub, clock());
    await finishCancellation(db, begun.id);
    logger.info({ userId: row.userId, reason: row.reason, outcome: row.outcome }, 'cancellation flow answered');
  }
}

export type RetentionService = ReturnType<typeof createRetentionService>;
