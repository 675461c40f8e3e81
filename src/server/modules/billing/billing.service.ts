// Billing orchestration behind the billing API calls: checkout, payment details, the member's
// subscription view, sync, plan changes, cleanup after a lifetime purchase and the portal.
import { randomUUID } from 'node:crypto';
import { grantsAccess } from '@shared/access';
import type { CreateCheckoutRequest, CreateCheckoutResponse, CustomerPortalResponse, GetPaymentDetailsResponse, PaymentUserStatus, PreviewUpgradeCostResponse, SubscriptionViewDto } from '@shared/api-contract';
import { COMP_PROVIDER } from '@shared/admin-reports';
import { refusalMessage } from '@shared/promotions';
import { basePlan, isPlanType, isRecurring, neverExpires, toEuPlan, type PlanType } from '@shared/plans';
import { activeSubscriptionRows, buildSubscriptionDto, needsForcedSync, selectSubscriptionRow, type OrderSummary } from '@shared/subscription-view';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import type { SessionUser } from '../../http/session-user';
import { maskEmail } from './checkout-proof';
import { recordSecurityEvent } from '../security/security.repository';
import {
  abandonPlanChange,
  activeFlagRowsOfUser,
  beginPlanChange,
  customerIdOfUser,
  findAccountByEmail,
  forgetCustomerId,
  findPlanChange,
  PLAN_CHANGE_REPEAT_MS,
  createSubscriptionViewQuery,
  syncableRowsOfUser,
  type SubscriptionViewRecord,
} from '../entitlements/entitlements.repository';
import {
  findCheckoutSession,
  deleteCheckoutSession,
  insertCheckoutSession,
  openSessionsForEmail,
  updateCheckoutSession,
  type CheckoutSessionRow,
} from '../provider-records/checkout-sessions.repository';
import type { Fulfilment } from '../fulfilment/fulfilment';
import type { PromotionsService } from '../promotions/promotions.service';
import { UnknownCustomerError, type CreateCheckoutInput, type PaymentsPort } from '../payments/payments.port';
import { currentUsername } from '../tradingview/tradingview.repository';
import type { TrialsService } from '../trials/trials.service';
import { isBanned } from './member-bans.repository';
import { serverError } from '../../http/server-errors';
import type { CatalogueStore } from '../catalogue/catalogue-store';

export type BillingServiceDeps = {
  db: Db;
  payments: PaymentsPort;
  config: Config;
  logger: Logger;
  clock: () => Date;
  /** Writes what the provider answers (sessions, subscriptions) through the entitlements core. */
  fulfilment: Fulfilment;
  /** Free trials: whether this checkout includes one. Absent: no trials. */
  trials?: Pick<TrialsService, 'checkoutTrialDays' | 'trialOfCheckout'>;
  /** Promotion codes: checks the code a checkout names. Absent: codes are refused as unknown. */
  promotions?: Pick<PromotionsService, 'forCheckout'>;
  /** The catalogue's prices: what a member without an order is shown for a plan the seed does not have. */
  catalogue?: Pick<CatalogueStore, 'campaign'>;
};

/** How long a previewed proration date is honoured by the change that follows it. */
const PREVIEW_TTL_MS = 10 * 60 * 1000;
/** Unpaid checkouts younger than this are re-checked by a sync (a webhook may have been missed). */
const RECENT_CHECKOUT_MS = 24 * 60 * 60 * 1000;

const isPaid = (row: Pick<CheckoutSessionRow, 'paymentStatus'>) => row.paymentStatus === 'paid' || row.paymentStatus === 'no_payment_required';

/** The one recurring subscription a plan change applies to: the newest that grants access now. */
function changeableSubscription(rows: readonly SubscriptionViewRecord[], now: Date, provider: string): SubscriptionViewRecord | null {
  return rows.find((row) => row.provider === provider && row.providerSubscriptionId && isRecurring(row.planType) && grantsAccess(row, now) && row.status !== 'canceled') ?? null;
}

/**
 * What /payment-success shows (its userStatus), decided from the paid session:
 * - new: no account has the paid e-mail;
 * - existing_needs_login: an account has it, but the caller is not signed in as that account;
 * - existing_complete: signed in as it, and a TradingView username is on file;
 * - new_needs_tv: signed in as it, no username, and the account was made for this purchase
 *   (it claimed this session and did not exist when the checkout started);
 * - existing_needs_tv: signed in as it, no username, any other case.
 */
function paymentUserStatus(input: {
  account: { id: string; createdAt: Date } | null;
  callerId: string | null;
  hasUsername: boolean;
  session: { claimedByUserId: string | null; createdAt: Date };
}): PaymentUserStatus {
  const { account, callerId, hasUsername, session } = input;
  if (!account) return 'new';
  if (callerId !== account.id) return 'existing_needs_login';
  if (hasUsername) return 'existing_complete';
  const madeForThisPurchase = session.claimedByUserId === account.id && account.createdAt.getTime() >= session.createdAt.getTime();
  return madeForThisPurchase ? 'new_needs_tv' : 'existing_needs_tv';
}

export function createBillingService(deps: BillingServiceDeps) {
  const { db, payments, config, logger, clock } = deps;
  const { fulfilment } = deps;
  // Proration dates shown in a preview, so the change that follows charges exactly what was shown.
  // Kept in memory: on another instance or after a restart the change uses "now", seconds later.
  const previews = new Map<string, { prorationDate: number; subscriptionId: string; at: number }>();
  const subscriptionView = createSubscriptionViewQuery(db);

  /**
   * A stored customer id the provider does not know (test ids after going live): forgotten, so
   * the member pays by e-mail and the new payment's customer takes its place.
   */
  async function repairUnknownCustomer(userId: string, error: UnknownCustomerError): Promise<void> {
    const rows = await forgetCustomerId(db, userId, error.customerId);
    logger.warn({ userId, customerId: error.customerId, rows, livemode: payments.livemode }, 'stored customer unknown to the payment provider: forgotten, paying by e-mail');
  }

  /**
   * The purchase guards for the account `userId`: no purchase over a lifetime plan, and no second
   * subscription of a plan (or its EU variant) the account already holds.
   */
  async function assertMayBuy(userId: string, planType: PlanType): Promise<void> {
    const now = clock();
    // Complimentary access an operator gave does not stop the member from paying for a plan.
    const rows = (await activeFlagRowsOfUser(db, userId)).filter((row) => grantsAccess(row, now) && row.provider !== COMP_PROVIDER);
    if (rows.some((row) => neverExpires(row.planType))) throw serverError('lifetimeOwned');
    if (rows.some((row) => basePlan(row.planType) === basePlan(planType))) throw serverError('subscriptionExists');
  }

  /**
   * Our row of a paid session: when the buyer arrives before the provider's event, the session is
   * read from the provider and fulfilled right here. Throws the spec's errors otherwise.
   */
  async function loadPaidSession(sessionId: string): Promise<CheckoutSessionRow> {
    let row = await findCheckoutSession(db, sessionId);
    if (!row) throw serverError('sessionNotFound');
    if (!isPaid(row)) {
      await fulfilment.fulfilFromProvider(sessionId);
      row = await findCheckoutSession(db, sessionId);
      if (!row) throw serverError('sessionNotFound');
    }
    if (!isPaid(row)) throw serverError('sessionNotPaid');
    if (row.duplicateStatus) {
      // The buyer already holds a subscription: this payment is refunded, never activated.
      if (row.duplicateStatus === 'refund_pending') await fulfilment.settle(sessionId);
      throw serverError('duplicatePayment');
    }
    return row;
  }

  async function syncRows(userId: string): Promise<boolean> {
    let ok = true;
    const rows = await syncableRowsOfUser(db, userId);
    const subscriptionIds = new Set(rows.map((row) => row.providerSubscriptionId).filter((id): id is string => id !== null));
    const sessionIds = new Set(rows.filter((row) => !row.providerSubscriptionId && row.checkoutSessionId).map((row) => row.checkoutSessionId as string));
    for (const id of subscriptionIds) {
      try {
        const asOf = clock();
        const sub = await payments.retrieveSubscription(id);
        if (sub) await fulfilment.applySubscription(sub, asOf);
      } catch (error) {
        ok = false;
        logger.warn({ err: error, subscriptionId: id }, 'subscription sync failed');
      }
    }
    for (const id of sessionIds) {
      try {
        await fulfilment.fulfilFromProvider(id);
      } catch (error) {
        ok = false;
        logger.warn({ err: error, sessionId: id }, 'one-time purchase sync failed');
      }
    }
    return ok;
  }

  /** Applies a claimed plan change at the provider and writes the result. */
  async function changePlan(user: SessionUser, current: SubscriptionViewRecord & { providerSubscriptionId: string }, planType: PlanType, ipAddress: string | null) {
      const now = clock();
      const subscriptionId = current.providerSubscriptionId;
      const key = `${user.id}:${planType}`;
      const previewed = previews.get(key);
      const usable = previewed && previewed.subscriptionId === subscriptionId && now.getTime() - previewed.at <= PREVIEW_TTL_MS;
      const prorationDate = usable ? previewed.prorationDate : Math.floor(now.getTime() / 1000);
      const asOf = clock();
      const sub = await payments.applyPlanChange({ subscriptionId, planType, prorationDate });
      previews.delete(key);
      // Written now (not only when the event arrives) so the member's next read shows the new plan;
      // the change of plan reaches the mail module as an access change.
      await fulfilment.applySubscription(sub, asOf);
      await recordSecurityEvent(db, { userId: user.id, event: 'SUBSCRIPTION_CHANGE', details: { from: current.planType, to: planType }, ipAddress });
      logger.info({ userId: user.id, from: current.planType, to: planType }, 'plan changed');
      return { success: true as const, planType };
  }

  async function checkoutPromotion(code: string, planType: PlanType, email: string | null, signedIn: boolean) {
    if (!deps.promotions) throw serverError('promotionRefused', refusalMessage('unknown', code));
    return deps.promotions.forCheckout(code, { planType, email, signedIn });
  }

  async function isRepeatedChange(rowId: string, planType: PlanType, now: Date): Promise<boolean> {
    const change = await findPlanChange(db, rowId);
    return change?.target === planType && change.startedAt !== null && now.getTime() - change.startedAt.getTime() <= PLAN_CHANGE_REPEAT_MS;
  }

  return {
    loadPaidSession,

    /** Whether an account already uses `email` (the after-payment page may not create a second). */
    async accountExists(email: string): Promise<boolean> {
      return (await findAccountByEmail(db, email)) !== null;
    },

    /** Links a paid session's rows to the account that paid it (fulfilment's rules: once, same e-mail only). */
    claimCheckoutSession: fulfilment.claim,

    /** `baseUrl`: where the provider sends the buyer back (PUBLIC_URL, or the request's address in development). */
    async createCheckout(user: SessionUser | null, input: CreateCheckoutRequest, baseUrl: string): Promise<CreateCheckoutResponse> {
      const planType = toEuPlan(input.planType, input.originPage);
      const email = (user?.email ?? input.customerEmail)?.toLowerCase() ?? null;
      // Only members hear what they already hold. An anonymous checkout is answered the same
      // whoever owns the e-mail it names, or it would tell anyone who subscribes to what; a
      // member's second plan bought that way is judged a duplicate and refunded after payment.
      if (await isBanned(db, { userId: user?.id ?? null, email })) throw serverError('accountBanned');
      if (user) await assertMayBuy(user.id, planType);
      // The landing page's code is checked again here: it may have expired or run out since.
      const promotion = input.promotionCode ? await checkoutPromotion(input.promotionCode, planType, email, user !== null) : null;

      const cancelUrl = `${baseUrl}/payment-canceled${input.originPage === '/eu' ? '?from=/eu' : ''}`;
      const metadata: Record<string, string> = { planType, originPage: input.originPage, ...(user ? { userId: user.id } : {}) };
      let customerId = user ? await customerIdOfUser(db, user.id, payments) : null;
      // Our row first, under a provisional id: were it refused, no provider session is left behind.
      const provisionalId = `creating_${randomUUID()}`;
      await insertCheckoutSession(db, {
        id: provisionalId,
        provider: payments.kind,
        planType,
        email,
        originPage: input.originPage,
        fbc: input.fbc,
        fbp: input.fbp,
        userAgent: input.userAgent,
        providerCustomerId: customerId,
        providerLivemode: customerId ? payments.livemode : null,
        promotionCode: promotion?.code ?? null,
        status: 'creating',
      });
      const checkout: Omit<CreateCheckoutInput, 'customerId'> = {
        planType,
        mode: isRecurring(planType) ? 'subscription' : 'payment',
        customerEmail: email,
        successUrl: `${baseUrl}/payment-success?session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl,
        metadata,
        trialDays: (await deps.trials?.checkoutTrialDays(planType, { email, userId: user?.id ?? null })) ?? null,
        promotionCodeId: promotion?.providerPromotionCodeId ?? null,
      };
      let session: { id: string; url: string };
      try {
        try {
          session = await payments.createCheckoutSession({ ...checkout, customerId });
        } catch (error) {
          if (!(error instanceof UnknownCustomerError) || !user) throw error;
          await repairUnknownCustomer(user.id, error);
          customerId = null;
          await updateCheckoutSession(db, provisionalId, { providerCustomerId: null, providerLivemode: null });
          session = await payments.createCheckoutSession({ ...checkout, customerId });
        }
      } catch (error) {
        await deleteCheckoutSession(db, provisionalId);
        throw error;
      }
      await updateCheckoutSession(db, provisionalId, { id: session.id, status: 'open' });
      logger.info({ sessionId: session.id, planType, signedIn: user !== null }, 'checkout started');
      return { url: session.url, sessionId: session.id };
    },

    /**
     * The paid session for /payment-success. `browserProven`: the caller started the checkout or
     * opened the mailed link; being signed in as the paid e-mail proves it too. Anyone else only
     * holds the session id and sees a masked e-mail.
     */
    async getPaymentDetails(user: SessionUser | null, sessionId: string, browserProven: boolean): Promise<GetPaymentDetailsResponse> {
      const row = await loadPaidSession(sessionId);
      if (!row.email || !isPlanType(row.planType)) throw serverError('sessionNotFound');
      const account = await findAccountByEmail(db, row.email);
      const hasUsername = account ? (await currentUsername(db, account.id)) !== null : false;
      const emailProven = browserProven || (user !== null && user.email.toLowerCase() === row.email.toLowerCase());
      // only a checkout that charged nothing today can have started a trial
      const trial = row.amountTotal === 0 && isRecurring(row.planType) && deps.trials ? await deps.trials.trialOfCheckout(sessionId) : null;
      return {
        email: emailProven ? row.email : maskEmail(row.email),
        planType: row.planType,
        amountTotal: row.amountTotal ?? 0,
        amountTax: row.amountTax ?? 0,
        amountDiscount: row.amountDiscount,
        promotionCode: row.promotionCode,
        trial,
        currency: (row.currency ?? 'usd').toLowerCase(),
        userStatus: paymentUserStatus({ account, callerId: user?.id ?? null, hasUsername, session: row }),
        emailProven,
      };
    },

    /** Syncs with the provider; false when some of it could not be read (already logged). */
    async syncUser(user: Pick<SessionUser, 'id' | 'email'>): Promise<boolean> {
      let ok = await syncRows(user.id);
      const since = new Date(clock().getTime() - RECENT_CHECKOUT_MS);
      for (const session of await openSessionsForEmail(db, user.email, since)) {
        try {
          await fulfilment.fulfilFromProvider(session.id);
        } catch (error) {
          ok = false;
          logger.warn({ err: error, sessionId: session.id }, 'checkout sync failed');
        }
      }
      return ok;
    },

    async getSubscription(user: SessionUser): Promise<SubscriptionViewDto> {
      let view = await subscriptionView(user.id);
      if (needsForcedSync(activeSubscriptionRows(view.active)[0] ?? null)) {
        // An active recurring row without an expiry was never given its period end: ask the provider.
        await syncRows(user.id);
        view = await subscriptionView(user.id);
      }
      const { active, recent } = view;
      const rows = [...active, ...recent.filter((row) => !active.some((other) => other.id === row.id))];
      const chosen = selectSubscriptionRow(active, recent);
      const order: OrderSummary | null = chosen?.orderId ? (view.orders.get(chosen.orderId) ?? null) : null;
      return buildSubscriptionDto({ rows, order, now: clock(), prices: { ...deps.catalogue?.campaign(clock()).prices, ...config.site.prices } });
    },

    async previewUpgrade(user: SessionUser, planType: PlanType): Promise<PreviewUpgradeCostResponse> {
      const now = clock();
      const rows = await activeFlagRowsOfUser(db, user.id);
      if (rows.some((row) => neverExpires(row.planType) && grantsAccess(row, now))) throw serverError('lifetimeOwned');
      if (!isRecurring(planType)) return { redirectToCheckout: true };
      const current = changeableSubscription(rows, now, payments.kind);
      if (!current?.providerSubscriptionId) throw serverError('noCustomer');
      if (basePlan(current.planType) === basePlan(planType)) throw serverError('subscriptionExists');
      const prorationDate = Math.floor(now.getTime() / 1000);
      const preview = await payments.previewPlanChange({ subscriptionId: current.providerSubscriptionId, planType, prorationDate });
      previews.set(`${user.id}:${planType}`, { prorationDate, subscriptionId: current.providerSubscriptionId, at: now.getTime() });
      return { currentPlan: current.planType, newPlan: planType, ...preview, currency: preview.currency.toLowerCase() };
    },

    async updateSubscription(user: SessionUser, planType: PlanType, ipAddress: string | null): Promise<{ success: true; planType: PlanType }> {
      const now = clock();
      const rows = await activeFlagRowsOfUser(db, user.id);
      if (rows.some((row) => neverExpires(row.planType) && grantsAccess(row, now))) throw serverError('lifetimeOwned');
      if (!isRecurring(planType)) throw serverError('lifetimeNotChangeable');
      const current = changeableSubscription(rows, now, payments.kind);
      if (!current?.providerSubscriptionId) throw serverError('noCustomer');
      // A repeat of a change in flight or just made (double click, retry, another tab) changes nothing.
      if (await isRepeatedChange(current.id, planType, now)) return { success: true, planType };
      if (basePlan(current.planType) === basePlan(planType)) throw serverError('subscriptionExists');
      if (!(await beginPlanChange(db, current.id, planType, now))) {
        if (await isRepeatedChange(current.id, planType, now)) return { success: true, planType };
        throw serverError('planChangeInProgress');
      }
      try {
        return await changePlan(user, { ...current, providerSubscriptionId: current.providerSubscriptionId }, planType, ipAddress);
      } catch (error) {
        await abandonPlanChange(db, current.id);
        throw error;
      }
    },
    /**
     * After a lifetime purchase, ends the recurring subscriptions it replaces (they would otherwise
     * keep charging), each with a refund of its unused paid time. Only the signed-in owner of `email` may ask, and only once the lifetime
     * purchase is theirs and active.
     */
    async postPaymentCleanup(user: SessionUser, input: { email: string; newPlanType: PlanType }): Promise<{ success: boolean }> {
      if (input.email.trim().toLowerCase() !== user.email.toLowerCase()) {
        throw serverError('cleanupOfOthersPurchase');
      }
      if (isRecurring(input.newPlanType)) return { success: true };
      const now = clock();
      const rows = await activeFlagRowsOfUser(db, user.id);
      const lifetime = rows.find((row) => neverExpires(row.planType) && grantsAccess(row, now));
      if (!lifetime?.checkoutSessionId) {
        throw serverError('noLifetimePurchaseYet');
      }
      // Usually done already when the purchase was fulfilled; safe to repeat.
      await fulfilment.replaceRecurringPlans(user.email, { checkoutSessionId: lifetime.checkoutSessionId, subscriptionId: null });
      return { success: true };
    },

    async customerPortal(user: SessionUser, baseUrl: string): Promise<CustomerPortalResponse> {
      const customerId = await customerIdOfUser(db, user.id, payments);
      if (!customerId) throw serverError('noCustomer');
      try {
        return await payments.createPortalSession({ customerId, returnUrl: `${baseUrl}/dashboard/settings?section=subscription` });
      } catch (error) {
        if (!(error instanceof UnknownCustomerError)) throw error;
        await repairUnknownCustomer(user.id, error);
        throw serverError('noCustomer');
      }
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
