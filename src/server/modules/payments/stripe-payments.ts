// The Stripe adapter (stripe-node v23, API "endive"), behind the payments port.
// Every call has a timeout; reads and idempotency-keyed writes are retried on network failure.
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { disputeOutcome } from '@shared/payment-rules';
import { isPlanType, type PlanType } from '@shared/plans';
import { isPausedAccess, type PausedAccess } from '@shared/support-actions';
import type { Catalogue } from '@shared/catalogue';
import { isCatalogueLookupKey, type BoughtOn, type PublishedPrice, type WantedPrice } from '@shared/catalogue-publishing';
import type { ApiError } from '../../http/errors';
import type { Logger } from '../../logger';
import type {
  CancellationFeedback,
  ChargeSnapshot,
  CheckoutSessionSnapshot,
  CreateCheckoutInput,
  InvoiceSnapshot,
  InvoiceSummary,
  PaymentEvent,
  PlanChangeInput,
  PlanChangePreview,
  PortalResult,
  RefundInput,
  StripePaymentsPort,
  SubscriptionSnapshot,
} from './payments.port';
import { UnknownCustomerError } from './payments.port';
import { stripeImportablePurchases } from './stripe-import-listing';
import { checkoutDiscountParams, invoiceDiscount, sessionDiscount, createStripePromotions } from './stripe-promotions';
import { serverError } from '../../http/server-errors';

export type StripeConnection = { host: string; port: number; protocol: 'http' | 'https' };

export type StripeSettings = {
  secretKey: string;
  webhookSecret: string;
  priceIds: Record<PlanType, string>;
  /** Price ids charged instead once the sale has ended (campaign.ts decides when). */
  regular?: { priceIds: Partial<Record<PlanType, string>>; saleRunning: () => boolean };
  /** Tests point the SDK at a local server: { host, port, protocol: 'http' }. */
  connection?: StripeConnection;
  timeoutMs?: number;
  /** STRIPE_TAX: Stripe Tax computes the tax, from the billing address and tax ID Checkout collects. */
  tax?: { enabled: boolean };
  /** The catalogue's published Prices (catalogue-stripe.ts's createCataloguePrices); absent: the configured price ids only. */
  published?: PublishedPrices;
};

/** The ids of the catalogue's Stripe Prices, each made when missing (decision record 058). */
export type PublishedPrices = {
  /** What a checkout of the plan from `originPage` charges; null: the configured price id. */
  checkout: (stripe: Stripe, planType: PlanType, originPage: string | undefined) => Promise<string | null>;
  /** What a change to the plan charges a member who bought on `bought`; null: the configured price id. */
  planChange: (stripe: Stripe, planType: PlanType, bought: BoughtOn) => Promise<string | null>;
  /** The Price of a catalogue price. */
  published: (stripe: Stripe, price: WantedPrice) => Promise<string>;
  /** Every Price the catalogue sells. */
  publishAll: (stripe: Stripe, catalogue: Catalogue) => Promise<PublishedPrice[]>;
  /** The Product of a plan, on which each of its Prices is published (a plan-limited promotion code names it). */
  product: (stripe: Stripe, planType: PlanType) => Promise<string>;
};

const STRIPE_TIMEOUT_MS = 10_000;
const RETRIES = 2;

const toDate = (seconds: number | null | undefined) => (typeof seconds === 'number' ? new Date(seconds * 1000) : null);
const idOf = (value: string | { id: string } | null | undefined) => (value == null ? null : typeof value === 'string' ? value : value.id);

/** The plan a published Price is for (its metadata, decision record 058); null for a Price the catalogue did not make. */
function publishedPlan(price: Stripe.Price): PlanType | null {
  const plan = price.metadata?.plan;
  return isPlanType(plan) ? plan : null;
}

/** The price list a published Price sells on (its metadata); null for a Price the catalogue did not make. */
const listOfPrice = (price: Stripe.Price): string | null => price.metadata?.list || null;

/**
 * The subscription's metadata key that keeps the vendor's choice of access while collection is
 * paused; a pause made in Stripe's dashboard has none and keeps access, as Stripe's status stays active.
 */
const PAUSE_ACCESS_KEY = 'pause_access';
/** A member's pause (decision 052): access runs to this ISO date although collection is paused. */
const PAUSE_ACCESS_UNTIL_KEY = 'pause_access_until';

/** The subscription's metadata that mirrors a member's cancellation choice (the console's record is ours). */
const feedbackMetadata = (feedback: CancellationFeedback) => ({ cancellation_reason: feedback.reason, retention_outcome: feedback.outcome });
const pausedAccessOf = (chosen: string | undefined): PausedAccess => (isPausedAccess(chosen) ? chosen : 'keep');

/** Stripe's answer when the portal has never been configured in this mode. */
const PORTAL_NOT_CONFIGURED = /No configuration provided/i;

/** Live keys make live-mode objects; every other key (sk_test_, rk_test_) test-mode ones. */
export const isLiveKey = (secretKey: string) => /^(sk|rk)_live_/.test(secretKey);

/** Where the customer portal is configured, per mode. */
export const portalSettingsUrl = (live: boolean) => `https://dashboard.stripe.com/${live ? '' : 'test/'}settings/billing/portal`;

/** The SDK client with a timeout; retries are opted into per call (reads, idempotency-keyed writes). */
export function createStripeClient(settings: Pick<StripeSettings, 'secretKey' | 'connection' | 'timeoutMs'>): Stripe {
  return new Stripe(settings.secretKey, {
    timeout: settings.timeoutMs ?? STRIPE_TIMEOUT_MS,
    maxNetworkRetries: 0,
    telemetry: false,
    appInfo: { name: 'candlewise' },
    ...(settings.connection ?? {}),
  });
}

export function createStripePayments(settings: StripeSettings, logger: Logger): StripePaymentsPort {
  const stripe = createStripeClient(settings);
  const live = isLiveKey(settings.secretKey);
  const read = { maxNetworkRetries: RETRIES };
  const write = () => ({ maxNetworkRetries: RETRIES, idempotencyKey: randomUUID() });

  const planByPrice = new Map<string, PlanType>();
  for (const ids of [settings.priceIds, settings.regular?.priceIds ?? {}]) {
    for (const [plan, priceId] of Object.entries(ids) as [PlanType, string][]) if (priceId && !planByPrice.has(priceId)) planByPrice.set(priceId, plan);
  }

  // a published Price's plan, read once: a Price never changes what it is for (unknown ones are asked again: a plan this instance does not know yet)
  const publishedPlans = new Map<string, PlanType>();

  /** The plan a Price is for: a configured STRIPE_PRICE_* id's, else a published Price's (its metadata, read from Stripe once). */
  async function planOfPrice(price: string | Stripe.Price): Promise<PlanType | null> {
    const id = typeof price === 'string' ? price : price.id;
    const known = planByPrice.get(id) ?? publishedPlans.get(id);
    if (known) return known;
    const object = typeof price === 'string' ? await call('prices.retrieve', () => stripe.prices.retrieve(id, {}, read), { missingIsNull: true }) : price;
    const plan = object ? publishedPlan(object) : null;
    if (plan) publishedPlans.set(id, plan);
    return plan;
  }

  function priceOf(planType: PlanType): string {
    const regular = settings.regular && !settings.regular.saleRunning() ? settings.regular.priceIds[planType] : undefined;
    const price = regular || settings.priceIds[planType];
    if (!price) throw serverError('noPriceForPlan', planType);
    return price;
  }

  /**
   * Maps the SDK's errors to ours: declines are 402, outages 503, a missing object null, and an
   * unknown `customer` (test ids after going live) UnknownCustomerError for the caller to repair.
   */
  async function call<T>(what: string, run: () => Promise<T>, options: { missingIsNull?: boolean; customerId?: string | null } = {}): Promise<T | null> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof Stripe.errors.StripeCardError) throw serverError('stripeCardDeclined', error.message);
      if (error instanceof Stripe.errors.StripeInvalidRequestError) {
        if (options.customerId && error.code === 'resource_missing' && error.param === 'customer') throw new UnknownCustomerError(options.customerId);
        if (options.missingIsNull && (error.code === 'resource_missing' || error.statusCode === 404)) return null;
        // a promotion code Stripe will not redeem (expired, used up…) is the buyer's input, not an outage
        if (error.param?.startsWith('discounts')) throw serverError('promotionRefused', error.message);
        logger.error({ err: error, what }, 'Stripe refused a request');
        throw serverError('providerRefused', error.message);
      }
      if (error instanceof Stripe.errors.StripeError) {
        logger.error({ err: error, what, type: error.type }, 'Stripe call failed');
        throw serverError('providerUnavailable');
      }
      throw error;
    }
  }

  function subscriptionSnapshot(sub: Stripe.Subscription): SubscriptionSnapshot {
    const item = sub.items.data[0];
    const metadataPlan = sub.metadata?.planType;
    // the price's plan first: the subscription's metadata names the plan it was bought as, not one changed to since
    const planType = (item && (planByPrice.get(item.price.id) ?? publishedPlan(item.price))) ?? (isPlanType(metadataPlan) ? metadataPlan : null);
    return {
      id: sub.id,
      customerId: idOf(sub.customer) ?? '',
      status: sub.status,
      planType,
      itemId: item?.id ?? null,
      unitAmount: item?.price.unit_amount ?? null,
      currency: sub.currency,
      currentPeriodStart: toDate(item?.current_period_start),
      currentPeriodEnd: toDate(item?.current_period_end),
      cancelAtPeriodEnd: sub.cancel_at_period_end || sub.cancel_at !== null,
      endedAt: toDate(sub.ended_at),
      livemode: sub.livemode,
      latestInvoiceId: idOf(sub.latest_invoice),
      pausedAccess: sub.pause_collection ? pausedAccessOf(sub.metadata?.[PAUSE_ACCESS_KEY]) : null,
      pauseAccessUntil: sub.pause_collection && sub.metadata?.[PAUSE_ACCESS_UNTIL_KEY] ? new Date(sub.metadata[PAUSE_ACCESS_UNTIL_KEY]) : null,
      pauseResumesAt: toDate(sub.pause_collection?.resumes_at ?? null),
      priceList: item ? listOfPrice(item.price) : null,
    };
  }

  /** The payment intent that paid an invoice (API "basil" and later list it under `payments`). */
  function invoicePaymentIntent(invoice: Stripe.Invoice): string | null {
    const payments = invoice.payments?.data ?? [];
    const paid = payments.find((entry) => entry.status === 'paid') ?? payments[0];
    return idOf(paid?.payment.payment_intent);
  }

  function sessionSnapshot(session: Stripe.Checkout.Session): CheckoutSessionSnapshot {
    const metadata = session.metadata ?? {};
    const paymentIntent = typeof session.payment_intent === 'object' ? session.payment_intent : null;
    const charge = paymentIntent && typeof paymentIntent.latest_charge === 'object' ? paymentIntent.latest_charge : null;
    // Only a refund: a dispute may still be won, and charge events follow disputes to their end.
    const reversed = charge ? charge.refunded : false;
    const invoice = typeof session.invoice === 'object' ? session.invoice : null;
    return {
      id: session.id,
      status: (session.status ?? 'open') as CheckoutSessionSnapshot['status'],
      paymentStatus: session.payment_status as CheckoutSessionSnapshot['paymentStatus'],
      mode: session.mode === 'payment' ? 'payment' : 'subscription',
      planType: isPlanType(metadata.planType) ? metadata.planType : null,
      email: session.customer_details?.email ?? session.customer_email ?? null,
      amountTotal: session.amount_total,
      amountTax: session.total_details?.amount_tax ?? null,
      discount: sessionDiscount(session),
      currency: session.currency,
      customerId: idOf(session.customer),
      subscriptionId: idOf(session.subscription),
      paymentId: idOf(session.payment_intent) ?? idOf(session.invoice),
      paymentIntentId: idOf(session.payment_intent) ?? (invoice ? invoicePaymentIntent(invoice) : null),
      paymentReversed: reversed,
      metadata,
      createdAt: new Date(session.created * 1000),
      livemode: session.livemode,
    };
  }

  async function retrieveSubscriptionRaw(id: string) {
    return call('subscriptions.retrieve', () => stripe.subscriptions.retrieve(id, {}, read), { missingIsNull: true });
  }

  async function requireSubscription(id: string): Promise<Stripe.Subscription> {
    const sub = await retrieveSubscriptionRaw(id);
    if (!sub) throw serverError('noCustomer');
    return sub;
  }

  /** The subscription's item on the plan's Price: the catalogue's on the list the member bought on, in their currency, once it is edited. */
  async function changeItems(sub: Stripe.Subscription, planType: PlanType) {
    const item = sub.items.data[0];
    if (!item) throw serverError('noSubscriptionItem');
    const bought = { list: listOfPrice(item.price), currency: sub.currency };
    const published = settings.published ? await call('prices.publish', () => settings.published!.planChange(stripe, planType, bought)) : null;
    return [{ id: item.id, price: published ?? priceOf(planType) }];
  }

  /**
   * Why a plan change stayed pending: the bank asks the member to authenticate (3-D Secure) on the
   * invoice's hosted page, or the card was declined.
   */
  async function pendingChangeError(sub: Stripe.Subscription): Promise<ApiError> {
    const invoiceId = idOf(sub.latest_invoice);
    const invoice = invoiceId
      ? await call('invoices.retrieve', () => stripe.invoices.retrieve(invoiceId, { expand: ['payments.data.payment.payment_intent'] }, read), { missingIsNull: true })
      : null;
    const intents = (invoice?.payments?.data ?? []).map((payment) => payment.payment.payment_intent).filter((intent): intent is Stripe.PaymentIntent => typeof intent === 'object' && intent !== null);
    if (invoice?.hosted_invoice_url && intents.some((intent) => intent.status === 'requires_action')) {
      return serverError('paymentActionRequired', { url: invoice.hosted_invoice_url });
    }
    return serverError('cardDeclined');
  }

  return {
    kind: 'stripe',
    livemode: live,
    promotions: createStripePromotions({
      stripe,
      call,
      pricesOf: (plan) => [settings.priceIds[plan], settings.regular?.priceIds[plan]].filter((id): id is string => Boolean(id)),
      plans: Object.keys(settings.priceIds) as PlanType[],
      ...(settings.published ? { productOf: (plan: PlanType) => settings.published!.product(stripe, plan) } : {}),
      logger,
    }),

    async createCheckoutSession(input: CreateCheckoutInput) {
      const published = settings.published ? await call('prices.publish', () => settings.published!.checkout(stripe, input.planType, input.metadata.originPage)) : null;
      const params: Stripe.Checkout.SessionCreateParams = {
        mode: input.mode,
        line_items: [{ price: published ?? priceOf(input.planType), quantity: 1 }],
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        metadata: input.metadata,
        // an abandoned session gets a recovery URL when it expires: the recovery mail links to it
        after_expiration: { recovery: { enabled: true } },
        ...(input.metadata.userId ? { client_reference_id: input.metadata.userId } : {}),
        ...(input.customerId ? { customer: input.customerId } : input.customerEmail ? { customer_email: input.customerEmail } : {}),
        ...(input.mode === 'payment'
          ? { payment_intent_data: { metadata: input.metadata }, ...(input.customerId ? {} : { customer_creation: 'always' as const }) }
          : {
              subscription_data: { metadata: { planType: input.planType }, ...(input.trialDays ? { trial_period_days: input.trialDays } : {}) },
              // a trial collects the card up front: the plan is charged when the trial ends
              ...(input.trialDays ? { payment_method_collection: 'always' as const } : {}),
            }),
      };
      Object.assign(params, checkoutTaxParams(input, settings.tax?.enabled === true), checkoutDiscountParams(input));
      const session = await call('checkout.sessions.create', () => stripe.checkout.sessions.create(params, write()), { customerId: input.customerId });
      if (!session?.url) throw serverError('noCheckoutUrl');
      return { id: session.id, url: session.url };
    },

    async retrieveCheckoutSession(id) {
      const session = await call('checkout.sessions.retrieve', () => stripe.checkout.sessions.retrieve(id, { expand: ['payment_intent.latest_charge', 'invoice.payments', 'total_details.breakdown'] }, read), { missingIsNull: true });
      return session ? sessionSnapshot(session) : null;
    },

    importablePurchases: () =>
      stripeImportablePurchases({
        stripe,
        // a Price publishing made or took over carries the catalogue's lookup key: a vendor's own metadata on other prices is not ours
        planOfPrice: (price) => planByPrice.get(price.id) ?? (isCatalogueLookupKey(price.lookup_key) ? publishedPlan(price) : null),
        read,
        call: (what, run) => call(what, run),
        subscriptionSnapshot,
        sessionSnapshot,
      }),

    async retrieveSubscription(id) {
      const sub = await retrieveSubscriptionRaw(id);
      return sub ? subscriptionSnapshot(sub) : null;
    },

    async retrieveInvoice(id): Promise<InvoiceSnapshot | null> {
      const invoice = await call('invoices.retrieve', () => stripe.invoices.retrieve(id, { expand: ['payments', 'discounts'] }, read), { missingIsNull: true });
      if (!invoice) return null;
      // The plan the invoice charges for: its price line that is not a proration.
      const priceLine = invoice.lines.data.find((line) => line.parent?.subscription_item_details?.proration !== true && line.pricing?.price_details?.price);
      const price = priceLine?.pricing?.price_details?.price;
      return {
        id: invoice.id ?? id,
        customerId: idOf(invoice.customer),
        subscriptionId: idOf(invoice.parent?.subscription_details?.subscription),
        status: invoice.status ?? 'draft',
        billingReason: invoice.billing_reason,
        amountPaid: invoice.amount_paid,
        amountDue: invoice.amount_due,
        amountTax: invoiceTax(invoice),
        discount: invoiceDiscount(invoice),
        currency: invoice.currency,
        createdAt: new Date(invoice.created * 1000),
        planType: price ? await planOfPrice(price) : null,
        paymentIntentId: invoicePaymentIntent(invoice),
      };
    },

    async listInvoices(customerId): Promise<InvoiceSummary[]> {
      const found: InvoiceSummary[] = [];
      let startingAfter: string | undefined;
      for (let page = 0; page < INVOICE_PAGES; page += 1) {
        const params = { customer: customerId, limit: 100, ...(startingAfter ? { starting_after: startingAfter } : {}) };
        const list = await call('invoices.list', () => stripe.invoices.list(params, read), { customerId });
        for (const invoice of list?.data ?? []) if (invoice.id && invoice.status !== 'draft') found.push(invoiceSummary(invoice, customerId));
        startingAfter = list?.data.at(-1)?.id;
        if (!list?.has_more || !startingAfter) break;
      }
      return found;
    },

    async retrieveCharge(id): Promise<ChargeSnapshot | null> {
      const charge = await call('charges.retrieve', () => stripe.charges.retrieve(id, {}, read), { missingIsNull: true });
      if (!charge) return null;
      // `disputed` stays true after the vendor wins: the dispute's own status says how it ended.
      let dispute = null;
      if (charge.disputed) {
        const disputes = await call('disputes.list', () => stripe.disputes.list({ charge: charge.id, limit: 1 }, read));
        const latest = disputes?.data[0];
        dispute = latest ? disputeOutcome(latest.status) : 'open';
      }
      return {
        id: charge.id,
        paymentId: idOf(charge.payment_intent),
        amount: charge.amount,
        amountRefunded: charge.amount_refunded,
        refunded: charge.refunded,
        dispute,
      };
    },

    async previewPlanChange(input: PlanChangeInput): Promise<PlanChangePreview> {
      const sub = await requireSubscription(input.subscriptionId);
      const items = await changeItems(sub, input.planType);
      const preview = await call('invoices.createPreview', () =>
        stripe.invoices.createPreview(
          {
            customer: idOf(sub.customer) ?? undefined,
            subscription: sub.id,
            subscription_details: { items, proration_date: input.prorationDate, proration_behavior: 'always_invoice' },
          },
          // a preview changes nothing, so retrying it is safe
          read,
        ),
      );
      if (!preview) throw serverError('noPreview');
      let credit = 0;
      let charge = 0;
      for (const line of preview.lines.data) {
        const proration = line.parent?.subscription_item_details?.proration === true || line.parent?.invoice_item_details?.proration === true;
        if (line.amount < 0 && proration) credit += -line.amount;
        else if (line.amount > 0) charge += line.amount;
      }
      return { prorationCredit: credit, newPlanCharge: charge, totalDue: preview.amount_due, currency: preview.currency };
    },

    async applyPlanChange(input: PlanChangeInput) {
      const sub = await requireSubscription(input.subscriptionId);
      const items = await changeItems(sub, input.planType);
      const updated = await call('subscriptions.update', () =>
        stripe.subscriptions.update(
          sub.id,
          {
            items,
            proration_behavior: 'always_invoice',
            proration_date: input.prorationDate,
            // the change applies only if its invoice is paid (pending updates)
            payment_behavior: 'pending_if_incomplete',
          },
          write(),
        ),
      );
      if (!updated) throw serverError('noSubscriptionReturned');
      if (updated.pending_update) throw await pendingChangeError(updated);
      let result = updated;
      // Pending updates cannot carry other fields: choosing a new plan also withdraws a scheduled cancellation.
      if (updated.cancel_at_period_end) {
        result = (await call('subscriptions.update', () => stripe.subscriptions.update(sub.id, { cancel_at_period_end: false }, write()))) ?? updated;
      }
      return subscriptionSnapshot(result);
    },

    async cancelSubscriptionNow(id) {
      const current = await requireSubscription(id);
      if (current.status === 'canceled' || current.status === 'incomplete_expired') return subscriptionSnapshot(current);
      const sub = await call('subscriptions.cancel', () => stripe.subscriptions.cancel(id, {}, write()), { missingIsNull: true });
      if (!sub) throw serverError('noCustomer');
      return subscriptionSnapshot(sub);
    },

    async resumeCheckoutSession(id) {
      const session = await call('checkout.sessions.retrieve', () => stripe.checkout.sessions.retrieve(id, {}, read), { missingIsNull: true });
      if (session?.status === 'open') return session.url;
      const recovery = session?.status === 'expired' ? session.after_expiration?.recovery : null;
      if (!recovery?.url || (recovery.expires_at !== null && recovery.expires_at * 1000 <= Date.now())) return null;
      return recovery.url;
    },

    async expireCheckoutSession(id) {
      const session = await call('checkout.sessions.retrieve', () => stripe.checkout.sessions.retrieve(id, {}, read), { missingIsNull: true });
      if (session?.status !== 'open') return;
      await call('checkout.sessions.expire', () => stripe.checkout.sessions.expire(id, {}, write()));
    },

    async refundPayment(input: RefundInput) {
      let paymentIntent: string | null = input.paymentId;
      if (input.paymentId.startsWith('in_')) {
        const invoice = await call('invoices.retrieve', () => stripe.invoices.retrieve(input.paymentId, { expand: ['payments'] }, read));
        paymentIntent = invoice ? invoicePaymentIntent(invoice) : null;
      }
      if (!paymentIntent) throw serverError('noPaymentToRefund', input.paymentId);
      const params: Stripe.RefundCreateParams = { payment_intent: paymentIntent, reason: input.reason, ...(input.amount === null ? {} : { amount: input.amount }) };
      try {
        await stripe.refunds.create(params, { maxNetworkRetries: RETRIES, idempotencyKey: input.idempotencyKey });
      } catch (error) {
        // A retry after Stripe forgot the idempotency key (24 h): the refund is already made.
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'charge_already_refunded') return;
        await call('refunds.create', () => Promise.reject(error));
      }
    },

    async createPortalSession({ customerId, returnUrl }): Promise<PortalResult> {
      try {
        const session = await stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }, write());
        return { url: session.url };
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && PORTAL_NOT_CONFIGURED.test(error.message)) {
          return { configurationRequired: true, setupUrl: portalSettingsUrl(live) };
        }
        return (await call('billingPortal.sessions.create', () => Promise.reject(error), { customerId })) as never;
      }
    },

    async endTrialNow(id) {
      const current = await requireSubscription(id);
      if (current.status !== 'trialing') return subscriptionSnapshot(current);
      // Stripe invoices the plan at once and charges the card on file (the subscription's default).
      const sub = await call('subscriptions.update', () => stripe.subscriptions.update(id, { trial_end: 'now' }, write()));
      if (!sub) throw serverError('noSubscriptionReturned');
      return subscriptionSnapshot(sub);
    },

    async extendPeriod(id, until) {
      // A trial end later than the period's moves the next charge there and bills nothing for the days between.
      const params: Stripe.SubscriptionUpdateParams = { trial_end: Math.floor(until.getTime() / 1000), proration_behavior: 'none' };
      const sub = await call('subscriptions.update', () => stripe.subscriptions.update(id, params, write()));
      if (!sub) throw serverError('noSubscriptionReturned');
      return subscriptionSnapshot(sub);
    },

    async movePriceAtRenewal(id, price) {
      // wired by dependencies.ts whenever payments are Stripe's
      const prices = settings.published;
      if (!prices) throw new Error('movePriceAtRenewal needs the published setting');
      const sub = await requireSubscription(id);
      const priceId = await call('prices.publish', () => prices.published(stripe, price));
      const item = sub.items.data[0];
      if (!item || !priceId) throw serverError('noSubscriptionItem');
      if (item.price.id === priceId) return subscriptionSnapshot(sub);
      // proration_behavior none: today's period stays paid as it was, the next invoice charges the new Price;
      // the subscription's discount is the subscription's, so a coupon goes on applying to it
      const updated = await call('subscriptions.update', () => stripe.subscriptions.update(id, { items: [{ id: item.id, price: priceId }], proration_behavior: 'none' }, write()));
      if (!updated) throw serverError('noSubscriptionReturned');
      return subscriptionSnapshot(updated);
    },

    async publishCatalogue(catalogue) {
      // wired by dependencies.ts whenever payments are Stripe's
      const prices = settings.published;
      if (!prices) throw new Error('publishCatalogue needs the published setting');
      try {
        return await prices.publishAll(stripe, catalogue);
      } catch (error) {
        // the operator who publishes reads Stripe's own reason (a key that may not write prices, a rate limit…)
        if (!(error instanceof Stripe.errors.StripeError)) throw error;
        logger.error({ err: error, what: 'prices.publish' }, 'publishing the catalogue at Stripe failed');
        throw serverError('stripePublishFailed', error.message);
      }
    },

    async pauseCollection(id, access) {
      // 'void': the invoices of the paused time are voided, so nothing is owed on resume
      const params: Stripe.SubscriptionUpdateParams = { pause_collection: { behavior: 'void' }, metadata: { [PAUSE_ACCESS_KEY]: access, [PAUSE_ACCESS_UNTIL_KEY]: '' } };
      const sub = await call('subscriptions.update', () => stripe.subscriptions.update(id, params, write()));
      if (!sub) throw serverError('noSubscriptionReturned');
      return subscriptionSnapshot(sub);
    },

    async resumeCollection(id) {
      const params: Stripe.SubscriptionUpdateParams = { pause_collection: '', metadata: { [PAUSE_ACCESS_KEY]: '' } };
      const sub = await call('subscriptions.update', () => stripe.subscriptions.update(id, params, write()));
      if (!sub) throw serverError('noSubscriptionReturned');
      return subscriptionSnapshot(sub);
    },

    async pauseForMember(id, pause) {
      // 'void' as for an operator's pause; Stripe lifts it by itself at resumes_at and the next renewal charges
      const params: Stripe.SubscriptionUpdateParams = {
        pause_collection: { behavior: 'void', resumes_at: Math.floor(pause.resumesAt.getTime() / 1000) },
        metadata: { [PAUSE_ACCESS_KEY]: 'stop', [PAUSE_ACCESS_UNTIL_KEY]: pause.accessUntil.toISOString(), ...feedbackMetadata(pause.feedback) },
      };
      const sub = await call('subscriptions.update', () => stripe.subscriptions.update(id, params, write()));
      if (!sub) throw serverError('noSubscriptionReturned');
      return subscriptionSnapshot(sub);
    },

    async cancelAtPeriodEnd(id, feedback) {
      const params: Stripe.SubscriptionUpdateParams = {
        cancel_at_period_end: true,
        cancellation_details: { feedback: feedback.feedback as Stripe.SubscriptionUpdateParams.CancellationDetails.Feedback, comment: feedback.comment ?? '' },
        metadata: feedbackMetadata(feedback),
      };
      const sub = await call('subscriptions.update', () => stripe.subscriptions.update(id, params, write()));
      if (!sub) throw serverError('noSubscriptionReturned');
      return subscriptionSnapshot(sub);
    },

    async applyRetentionDiscount(id, { percentOff, months, feedback }) {
      // one coupon per offer's terms, made once (its id is the terms), shared by every member who takes it
      const couponId = `retention_${percentOff}pct_${months}m`;
      const existing = await call('coupons.retrieve', () => stripe.coupons.retrieve(couponId, {}, read), { missingIsNull: true });
      if (!existing) {
        const params: Stripe.CouponCreateParams = { id: couponId, name: `Retention offer: ${percentOff} % off for ${months} month${months === 1 ? '' : 's'}`, percent_off: percentOff, duration: 'repeating', duration_in_months: months, metadata: { retention: 'true' } };
        await call('coupons.create', () => stripe.coupons.create(params, { maxNetworkRetries: RETRIES, idempotencyKey: `coupon:${couponId}` }));
      }
      const sub = await call('subscriptions.update', () => stripe.subscriptions.update(id, { discounts: [{ coupon: couponId }], metadata: feedbackMetadata(feedback) }, write()));
      if (!sub) throw serverError('noSubscriptionReturned');
      return subscriptionSnapshot(sub);
    },

    async cardFingerprint(id) {
      const sub = await call('subscriptions.retrieve', () => stripe.subscriptions.retrieve(id, { expand: ['default_payment_method'] }, read), { missingIsNull: true });
      const method = sub?.default_payment_method;
      return typeof method === 'object' && method?.card?.fingerprint ? method.card.fingerprint : null;
    },

    parseWebhook(rawBody, signature) {
      const event = stripe.webhooks.constructEvent(Buffer.from(rawBody), signature, settings.webhookSecret);
      return toPaymentEvent(event);
    },
  };
}

/** Pages of 100 invoices read for one customer's list: years of monthly renewals. */
const INVOICE_PAGES = 3;

/** The tax an invoice charges (API basil and later: total_taxes, one entry per rate). */
function invoiceTax(invoice: Stripe.Invoice): number {
  return (invoice.total_taxes ?? []).reduce((sum, tax) => sum + tax.amount, 0);
}

function invoiceSummary(invoice: Stripe.Invoice, customerId: string): InvoiceSummary {
  return {
    id: invoice.id ?? '',
    number: invoice.number,
    customerId: idOf(invoice.customer) ?? customerId,
    createdAt: new Date(invoice.created * 1000),
    status: invoice.status ?? 'draft',
    total: invoice.total,
    amountTax: invoiceTax(invoice),
    currency: invoice.currency,
    url: invoice.hosted_invoice_url ?? null,
    pdfUrl: invoice.invoice_pdf ?? null,
  };
}

/**
 * Every plan gets an invoice: subscriptions have them, a one-time payment asks for one. With
 * STRIPE_TAX, Stripe Tax computes the tax from the billing address and tax ID Checkout collects;
 * a returning customer's address and name are saved back to the customer, as Stripe Tax requires.
 */
function checkoutTaxParams(input: CreateCheckoutInput, tax: boolean): Partial<Stripe.Checkout.SessionCreateParams> {
  const invoice = input.mode === 'payment' ? { invoice_creation: { enabled: true } } : {};
  if (!tax) return invoice;
  return {
    ...invoice,
    automatic_tax: { enabled: true },
    billing_address_collection: 'required',
    tax_id_collection: { enabled: true },
    ...(input.customerId ? { customer_update: { address: 'auto', name: 'auto' } } : {}),
  };
}

/** Reduces a Stripe event to the ids the handler re-reads. */
function toPaymentEvent(event: Stripe.Event): PaymentEvent {
  const base = { id: event.id, type: event.type, created: new Date(event.created * 1000) };
  const object = event.data.object as { object?: string; id?: string };
  switch (object.object) {
    case 'checkout.session':
      return { ...base, checkoutSessionId: object.id };
    case 'subscription':
      return { ...base, subscriptionId: object.id };
    case 'invoice': {
      const invoice = object as Stripe.Invoice;
      const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription);
      return { ...base, ...(invoice.id ? { invoiceId: invoice.id } : {}), ...(subscriptionId ? { subscriptionId } : {}) };
    }
    case 'charge':
      return { ...base, chargeId: object.id };
    case 'dispute': {
      const chargeId = idOf((object as Stripe.Dispute).charge);
      return { ...base, ...(chargeId ? { chargeId } : {}) };
    }
    case 'refund': {
      const chargeId = idOf((object as Stripe.Refund).charge);
      return { ...base, ...(chargeId ? { chargeId } : {}) };
    }
    default:
      return base;
  }
}
