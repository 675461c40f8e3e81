// The payments port: what billing needs from a card payment provider. Like every outside service,
// it has a real adapter and a sandbox one that is the offline default, chosen by configuration:
// Stripe and the built-in sandbox implement it; tests can pass any object of this shape.
// Snapshots are the provider's view of an object at one moment; fulfilment writes our state from
// them, never from the order in which events happen to arrive (docs/decisions/007).
import type { DisputeOutcome } from '@shared/payment-rules';
import type { Catalogue } from '@shared/catalogue';
import type { PublishedPrice, WantedPrice } from '@shared/catalogue-publishing';
import type { PlanType } from '@shared/plans';
import type { SandboxCheckout, SandboxPayRequest, SandboxPortal } from '@shared/sandbox-contract';
import type { PausedAccess } from '@shared/support-actions';
import type { ProviderDiscount, ProviderPromotions } from './promotions.port';

export type CheckoutMode = 'payment' | 'subscription';

export type CreateCheckoutInput = {
  planType: PlanType;
  mode: CheckoutMode;
  /** Fixed e-mail for the payment page; null lets the buyer type it. */
  customerEmail: string | null;
  /** The member's existing provider customer, so the portal shows every purchase. */
  customerId: string | null;
  /** Absolute; `{CHECKOUT_SESSION_ID}` is replaced by the provider. */
  successUrl: string;
  cancelUrl: string;
  metadata: Record<string, string>;
  /** A free trial of this many days, the card collected up front (recurring plans); absent or null: none. */
  trialDays?: number | null;
  /** The provider's promotion code to apply; absent or null lets the buyer type one on the payment page. */
  promotionCodeId?: string | null;
};

export type CheckoutSessionSnapshot = {
  id: string;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'paid' | 'unpaid' | 'no_payment_required';
  mode: CheckoutMode;
  planType: PlanType | null;
  email: string | null;
  amountTotal: number | null;
  /** The tax part of amountTotal (Stripe's total_details.amount_tax); null when not computed. */
  amountTax: number | null;
  /** What a promotion code took off (amountTotal is after it); null: none. */
  discount: ProviderDiscount | null;
  currency: string | null;
  customerId: string | null;
  subscriptionId: string | null;
  /** The payment (intent) of a one-time purchase; the first invoice of a subscription. */
  paymentId: string | null;
  /** The payment intent that charges and disputes name (for a subscription: its first invoice's). */
  paymentIntentId: string | null;
  /** A one-time payment refunded in full or disputed. */
  paymentReversed: boolean;
  metadata: Record<string, string>;
  createdAt: Date;
  /** Stripe's mode of the object (its customer id is unknown to the other mode); false in the sandbox. */
  livemode: boolean;
};

export type SubscriptionSnapshot = {
  id: string;
  customerId: string;
  /** The provider's status: active, trialing, past_due, canceled, unpaid, incomplete… */
  status: string;
  planType: PlanType | null;
  itemId: string | null;
  unitAmount: number | null;
  currency: string;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  endedAt: Date | null;
  livemode: boolean;
  /** The invoice of the current period (what a prorated refund is taken from). */
  latestInvoiceId: string | null;
  /** Collection paused (Stripe's pause_collection) with the access the vendor chose meanwhile; null: collecting. */
  pausedAccess: PausedAccess | null;
  /** A member's pause (decision 052): access runs until then although collection is paused; absent or null: none. */
  pauseAccessUntil?: Date | null;
  /** When collection resumes by itself (Stripe's pause_collection.resumes_at); absent or null: when resumed. */
  pauseResumesAt?: Date | null;
  /**
   * The price list its price was bought on (a published Stripe Price's metadata, the sandbox's
   * record); absent or null: not named (a configured STRIPE_PRICE_* price, a purchase made before).
   */
  priceList?: string | null;
};

/**
 * Why a member cancelled and what they chose, mirrored at the provider: Stripe's
 * cancellation_details (feedback, comment) on a cancellation, and the subscription's metadata.
 */
export type CancellationFeedback = { feedback: string; comment: string | null; reason: string; outcome: 'declined' | 'discount' | 'pause' };

/** A member's pause: access until the paid period's end, collection resumed by itself at `resumesAt`. */
export type MemberPause = { accessUntil: Date; resumesAt: Date; feedback: CancellationFeedback };

export type InvoiceSnapshot = {
  id: string;
  customerId: string | null;
  subscriptionId: string | null;
  status: string;
  billingReason: string | null;
  amountPaid: number;
  amountDue: number;
  /** The tax included in amountDue. */
  amountTax: number;
  /** What the subscription's promotion code took off this invoice; null: none. */
  discount: ProviderDiscount | null;
  currency: string;
  createdAt: Date;
  /** The plan of the invoice's (non-proration) price: what a renewal order is for. */
  planType: PlanType | null;
  paymentIntentId: string | null;
};

/** One invoice as the member's invoice list shows it; money in minor units. */
export type InvoiceSummary = {
  id: string;
  /** The provider's invoice number, when it gives one. */
  number: string | null;
  customerId: string;
  createdAt: Date;
  /** draft, open, paid, void, uncollectible */
  status: string;
  /** What the invoice charges, tax included. */
  total: number;
  amountTax: number;
  currency: string;
  /** The invoice's page (Stripe's hosted invoice page; the sandbox's receipt). */
  url: string | null;
  pdfUrl: string | null;
};

export type ChargeSnapshot = {
  id: string;
  paymentId: string | null;
  amount: number;
  amountRefunded: number;
  refunded: boolean;
  /** The charge's dispute, if any: open, or closed as won or lost. */
  dispute: DisputeOutcome | null;
};

export type RefundInput = {
  /** A payment intent, or an invoice (the provider refunds the invoice's payment). */
  paymentId: string;
  /** Minor units; null refunds what is left of the payment. */
  amount: number | null;
  reason: 'duplicate' | 'requested_by_customer';
  /** The same key for a retry of the same refund, so it is made once. */
  idempotencyKey: string;
};

export type PlanChangeInput = {
  subscriptionId: string;
  planType: PlanType;
  /** Unix seconds; the preview and the change use the same value so the charge matches. */
  prorationDate: number;
};

export type PlanChangePreview = {
  prorationCredit: number;
  newPlanCharge: number;
  totalDue: number;
  currency: string;
};

/**
 * A purchase made at the provider before this shop ran it (the import of an existing business):
 * a subscription on one of the shop's prices, or a paid one-time (lifetime) checkout.
 */
export type ImportablePurchase =
  | { kind: 'subscription'; subscription: SubscriptionSnapshot; email: string | null }
  | { kind: 'one_time'; session: CheckoutSessionSnapshot };

export type PortalResult = { url: string } | { configurationRequired: true; setupUrl: string };

/** A provider event reduced to what the handler needs to re-read the objects it concerns. */
export type PaymentEvent = {
  id: string;
  type: string;
  created: Date;
  checkoutSessionId?: string;
  subscriptionId?: string;
  invoiceId?: string;
  chargeId?: string;
};

/**
 * The objects a provider's events name, read once for many events at `asOf` (the sandbox hands
 * them over with its events; Stripe's are re-read one event at a time). An id missing from them
 * is one the provider does not know.
 */
export type ProviderObjects = { asOf: Date; subscriptions: ReadonlyMap<string, SubscriptionSnapshot>; invoices: ReadonlyMap<string, InvoiceSnapshot> };

/**
 * The customer id given to a provider call is unknown to the provider (ids made with a test key
 * after switching to a live key, or a customer deleted in the dashboard).
 */
export class UnknownCustomerError extends Error {
  constructor(readonly customerId: string) {
    super(`the payment provider does not know customer ${customerId}`);
    this.name = 'UnknownCustomerError';
  }
}

export type PaymentsCore = {
  /** The mode customer ids are made in: Stripe's live mode, or test mode (Stripe test keys, the sandbox). */
  livemode: boolean;
  /** Throws UnknownCustomerError when `customerId` is not known to the provider. */
  createCheckoutSession(input: CreateCheckoutInput): Promise<{ id: string; url: string }>;
  /** null when the provider does not know the id. */
  retrieveCheckoutSession(id: string): Promise<CheckoutSessionSnapshot | null>;
  retrieveSubscription(id: string): Promise<SubscriptionSnapshot | null>;
  retrieveInvoice(id: string): Promise<InvoiceSnapshot | null>;
  /** The customer's invoices, newest first (at most a few hundred; drafts left out). */
  listInvoices(customerId: string): Promise<InvoiceSummary[]>;
  retrieveCharge(id: string): Promise<ChargeSnapshot | null>;
  previewPlanChange(input: PlanChangeInput): Promise<PlanChangePreview>;
  /**
   * Applies the change and charges the proration now. When the charge fails nothing changes:
   * payment_failed (402) for a decline, payment_action_required (402, details.url: the invoice's
   * page) when the bank asks the member to authenticate (3-D Secure); the change then waits.
   */
  applyPlanChange(input: PlanChangeInput): Promise<SubscriptionSnapshot>;
  /** Ends a subscription now, without proration (refunds are separate); a no-op when it has ended. */
  cancelSubscriptionNow(id: string): Promise<SubscriptionSnapshot>;
  /** Closes an open checkout so it can no longer be paid; a no-op when it is complete or expired. */
  expireCheckoutSession(id: string): Promise<void>;
  /**
   * Where a buyer who left a checkout picks it up again: an open session's own page, an expired
   * one's copy (Stripe's after_expiration recovery URL, which opens a new session like it); null
   * when it was completed or can no longer be recovered.
   */
  resumeCheckoutSession(id: string): Promise<string | null>;
  refundPayment(input: RefundInput): Promise<void>;
  /** Throws UnknownCustomerError when the customer is not known to the provider. */
  createPortalSession(input: { customerId: string; returnUrl: string }): Promise<PortalResult>;
  /** The provider's coupons and promotion codes that mirror ours. */
  promotions: ProviderPromotions;
  /**
   * Every subscription on the shop's prices that is not canceled, and every paid one-time checkout
   * of the lifetime plan (by price or by `planType` metadata), a page at a time. Reads only.
   */
  importablePurchases(): AsyncIterable<ImportablePurchase[]>;
  /** Ends a subscription's free trial now (Stripe: trial_end 'now'), so its first invoice is charged; a no-op when it is not trialing. */
  endTrialNow(subscriptionId: string): Promise<SubscriptionSnapshot>;
  /**
   * Free days: the subscription's paid time now ends at `until`, the next charge then, and nothing
   * is charged or credited for the change (Stripe: trial_end with proration_behavior none).
   */
  extendPeriod(subscriptionId: string, until: Date): Promise<SubscriptionSnapshot>;
  /**
   * From the next renewal on, the subscription is charged `price` (decision record 058): nothing is
   * prorated or charged now, its discount stays (Stripe: the item moved to the published Price with
   * proration_behavior none; the sandbox: the amount its own renewal charges).
   */
  movePriceAtRenewal(subscriptionId: string, price: WantedPrice): Promise<SubscriptionSnapshot>;
  /** Stops collecting payment (renewals are voided) until resumed; `access` is kept with the subscription. */
  pauseCollection(subscriptionId: string, access: PausedAccess): Promise<SubscriptionSnapshot>;
  resumeCollection(subscriptionId: string): Promise<SubscriptionSnapshot>;
  /** A member's pause from the cancellation flow: collection stops, access stays to `accessUntil`, all resumes at `resumesAt`. */
  pauseForMember(subscriptionId: string, pause: MemberPause): Promise<SubscriptionSnapshot>;
  /** The member declined every offer: the plan ends at its period's end, with why (Stripe: cancellation_details). */
  cancelAtPeriodEnd(subscriptionId: string, feedback: CancellationFeedback): Promise<SubscriptionSnapshot>;
  /** A retention discount: `percentOff` off the renewals of the next `months` months (a repeating coupon). */
  applyRetentionDiscount(subscriptionId: string, discount: { percentOff: number; months: number; feedback: CancellationFeedback }): Promise<SubscriptionSnapshot>;
  /** The fingerprint of the card a subscription charges (the same card gives the same value); null when unknown. */
  cardFingerprint(subscriptionId: string): Promise<string | null>;
};

export type StripePaymentsPort = PaymentsCore & {
  kind: 'stripe';
  /** Verifies the signature over the raw body; throws when it does not match. */
  parseWebhook(rawBody: Uint8Array, signature: string): PaymentEvent;
  /**
   * Makes at Stripe every Price the catalogue sells that is not there yet (decision record 058),
   * one call at a time; a failure (502 with Stripe's reason) leaves the rest to the next run.
   */
  publishCatalogue(catalogue: Catalogue): Promise<PublishedPrice[]>;
};

/** The sandbox provider's own pages and clock (its checkout, portal, renewals and event outbox). */
export type SandboxOperations = {
  getCheckout(id: string): Promise<SandboxCheckout | null>;
  /** Pays an open checkout with a test card; answers where the buyer's browser goes next. */
  pay(id: string, input: SandboxPayRequest): Promise<{ redirectUrl: string }>;
  /** The buyer types a promotion code on the checkout page (one that allows it); refused with the reason. */
  applyPromotionCode(id: string, code: string): Promise<void>;
  getPortal(customerId: string): Promise<SandboxPortal | null>;
  setCancelAtPeriodEnd(customerId: string, subscriptionId: string, cancel: boolean): Promise<void>;
  /** Demo clock: processes the subscription as if its current period had just ended. */
  advanceToPeriodEnd(customerId: string, subscriptionId: string): Promise<void>;
  /**
   * Renews or ends the subscriptions whose period has ended by `now`, the oldest hundred in one
   * transaction; returns how many (the sandbox's job asks again while a hundred were due).
   */
  runClock(now?: Date): Promise<number>;
  /** Demo and tests: the card holder's bank opens (needs_response) or closes (won, lost) a dispute of a charge. */
  disputeCharge(chargeId: string, status: 'needs_response' | 'won' | 'lost'): Promise<void>;
  /**
   * Up to `limit` undelivered events, oldest first, that no other deliverer is working on (claimed
   * for it), each with its lane: the events of one lane (a subscription, with the checkout that
   * started it) are delivered in order, different lanes side by side.
   */
  claimPendingEvents(limit: number): Promise<{ event: PaymentEvent; lane: string }[]>;
  /**
   * The subscriptions and invoices the events name (an invoice's subscription too), as they are
   * now: a handful of statements for a whole pass instead of a re-read per event.
   */
  readEventObjects(events: readonly PaymentEvent[]): Promise<ProviderObjects>;
  /** Events handled: they leave the queue (one statement for a whole pass's). */
  markDelivered(...eventIds: string[]): Promise<void>;
  /** A claimed event whose delivery failed goes back to the queue. */
  releaseEvent(eventId: string): Promise<void>;
};

export type SandboxPaymentsPort = PaymentsCore & {
  kind: 'sandbox';
  sandbox: SandboxOperations;
};

export type PaymentsPort = StripePaymentsPort | SandboxPaymentsPort;
