// Support in one action, from a member's page in the console: free days, a pause of collection and
// its resumption, and a ban. Each asks the payment provider first (a refusal there changes nothing
// here), then writes the provider's answer through the entitlements core with the audit line in the
// same transaction; the core's access change reaches TradingView, Discord and mail after the commit.
import type { BanMemberRequest, ActionResult } from '@shared/admin-contract';
import { neverExpires } from '@shared/plans';
import { grantsAccess } from '@shared/access';
import { RENEWING_STATUSES } from '@shared/member-actions';
import { freeDaysEnd, freeDaysLeft, type PausedAccess } from '@shared/support-actions';
import type { Db } from '../../db/client';
import type { SessionUser } from '../../http/session-user';
import { serverError } from '../../http/server-errors';
import type { Logger } from '../../logger';
import { banOf, insertBan } from '../billing/member-bans.repository';
import type { Entitlements, EntitlementWriter } from '../entitlements/entitlements';
import { applySubscription } from '../fulfilment/fulfilment';
import type { PaymentsPort, SubscriptionSnapshot } from '../payments/payments.port';
import { recordOperatorAction } from './audit.repository';
import { lastPaidOrder } from './members.repository';
import { subscriptionsOf, switchedOnRowIds } from '../entitlements/entitlement-reads';
import { requireMember } from './members.service';

export type SupportActionsDeps = {
  db: Db;
  clock: () => Date;
  payments: PaymentsPort;
  entitlements: Pick<Entitlements, 'write'>;
  logger: Logger;
};

type SubscriptionRow = Awaited<ReturnType<typeof subscriptionsOf>>[number];


const dayText = (date: Date) => date.toISOString().slice(0, 10);

export function createSupportActions(deps: SupportActionsDeps) {
  const { db, clock, payments, logger } = deps;

  const memberOr404 = (userId: string) => requireMember(db, userId);

  /**
   * The member's renewing subscription at this shop's provider, newest first; a member who holds
   * lifetime instead hears that the action does not apply to it.
   */
  async function renewingPlan(userId: string, action: string, lifetime: 'freeDaysLifetime' | 'pauseLifetime'): Promise<SubscriptionRow & { providerSubscriptionId: string }> {
    const rows = await subscriptionsOf(db, userId);
    const renewing = rows.find((row) => row.provider === payments.kind && row.providerSubscriptionId !== null && row.revokedReason === null && RENEWING_STATUSES.has(row.status));
    if (renewing?.providerSubscriptionId) return { ...renewing, providerSubscriptionId: renewing.providerSubscriptionId };
    if (rows.some((row) => neverExpires(row.planType) && grantsAccess(row, clock()))) throw serverError(lifetime);
    throw serverError('noRenewingPlan', action);
  }

  /** Writes what the provider answered, with the operator's audit line, in one transaction of the core. */
  async function applyWithAudit(snapshots: SubscriptionSnapshot[], asOf: Date, audit: Parameters<typeof recordOperatorAction>[1], more?: (writer: EntitlementWriter) => Promise<void>) {
    await deps.entitlements.write(async (writer) => {
      for (const sub of snapshots) await applySubscription(writer, payments.kind, sub, asOf, logger);
      await more?.(writer);
      await recordOperatorAction(writer.tx, audit);
    });
  }

  return {
    /** Moves the end of the member's paid time `days` later at no charge; the next charge moves with it. */
    async addFreeDays(operator: SessionUser, userId: string, days: number): Promise<ActionResult> {
      await memberOr404(userId);
      const plan = await renewingPlan(userId, 'add free days to', 'freeDaysLifetime');
      const asOf = clock();
      const current = await payments.retrieveSubscription(plan.providerSubscriptionId);
      const currentEnd = current?.currentPeriodEnd ?? plan.expiresAt ?? asOf;
      // beyond it Stripe refuses the trial end: the operator hears how many days are left instead
      if (days > freeDaysLeft(currentEnd, asOf)) throw serverError('freeDaysBeyondHorizon', freeDaysLeft(currentEnd, asOf));
      const until = freeDaysEnd(currentEnd, asOf, days);
      const sub = await payments.extendPeriod(plan.providerSubscriptionId, until);
      await applyWithAudit([sub], asOf, { operator: operator.email, action: 'add_free_days', targetUserId: userId, details: { days, until: until.toISOString(), subscription: sub.id } });
      return { message: `Added ${days} free day${days === 1 ? '' : 's'}: access runs until ${dayText(until)} and the next charge is then.` };
    },

    async pauseCollection(operator: SessionUser, userId: string, access: PausedAccess): Promise<ActionResult> {
      await memberOr404(userId);
      const plan = await renewingPlan(userId, 'pause', 'pauseLifetime');
      if (plan.collectionPaused) throw serverError('alreadyPaused');
      const asOf = clock();
      const sub = await payments.pauseCollection(plan.providerSubscriptionId, access);
      await applyWithAudit([sub], asOf, { operator: operator.email, action: 'pause_collection', targetUserId: userId, details: { access, subscription: sub.id } });
      return {
        message: access === 'keep' ? 'Collection paused: nothing is charged and the member keeps access until you resume it.' : 'Collection paused: nothing is charged and the member has no access until you resume it.',
      };
    },

    async resumeCollection(operator: SessionUser, userId: string): Promise<ActionResult> {
      await memberOr404(userId);
      const plan = await renewingPlan(userId, 'resume', 'pauseLifetime');
      if (!plan.collectionPaused) throw serverError('notPaused');
      const asOf = clock();
      const sub = await payments.resumeCollection(plan.providerSubscriptionId);
      await applyWithAudit([sub], asOf, { operator: operator.email, action: 'resume_collection', targetUserId: userId, details: { subscription: sub.id } });
      return { message: 'Collection resumed: the plan renews and charges as before.' };
    },

    /**
     * Ends the member's access now, cancels every subscription at the provider so that no renewal
     * charges or brings access back, optionally refunds the last payment, and refuses checkout to
     * the account and its e-mail from then on.
     */
    async ban(operator: SessionUser, userId: string, request: BanMemberRequest): Promise<ActionResult> {
      const member = await memberOr404(userId);
      if (await banOf(db, userId)) throw serverError('alreadyBanned');
      const refund = request.refundLastPayment ? await lastPaidOrder(db, userId) : null;
      if (request.refundLastPayment && !refund) throw serverError('noPaymentToRefundOnBan');
      const asOf = clock();
      const live = (await subscriptionsOf(db, userId)).filter((row) => row.provider === payments.kind && row.providerSubscriptionId !== null && row.status !== 'canceled');
      const canceled: SubscriptionSnapshot[] = [];
      for (const row of live) canceled.push(await payments.cancelSubscriptionNow(row.providerSubscriptionId!));
      if (refund) await payments.refundPayment({ paymentId: refund.paymentId, amount: null, reason: 'requested_by_customer', idempotencyKey: `ban:${userId}:${refund.id}` });
      const rows = await switchedOnRowIds(db, userId);
      await applyWithAudit(
        canceled,
        asOf,
        { operator: operator.email, action: 'ban_member', targetUserId: userId, details: { canceled: canceled.map((sub) => sub.id), refunded: refund?.paymentId ?? null, ...(request.reason ? { reason: request.reason } : {}) } },
        async (writer) => {
          await writer.revokeRows({ rowIds: rows }, 'banned');
          await insertBan(writer.tx, { userId, email: member.email, reason: request.reason ?? null, bannedBy: operator.email.toLowerCase(), refundedPaymentId: refund?.paymentId ?? null });
        },
      );
      logger.warn({ userId, canceled: canceled.length, refunded: refund !== null }, 'member banned');
      const parts = [`Banned: access ended now${canceled.length ? `, ${canceled.length} subscription${canceled.length === 1 ? '' : 's'} canceled at the provider` : ''}`];
      if (refund) parts.push(`the last payment refunded`);
      return { message: `${parts.join(', ')}. The account can no longer buy.` };
    },
  };
}

export type SupportActions = ReturnType<typeof createSupportActions>;
