// The payments port (DESIGN.md decision 5): what billing needs from a card payment provider.
// Stripe and the built-in sandbox implement it; tests can pass any object of this shape.
// Snapshots are the provider's view of an object at one moment; fulfilment writes our state from
// them (decision 8), never from the order in which events happen to arrive.
import type { PlanType } from '@shared/plans';
import type { SandboxOperations } from './sandbox-payments';

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
};

export type CheckoutSessionSnapshot = {
  id: string;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'paid' | 'unpaid' | 'no_payment_required';
  mode: CheckoutMode;
  planType: PlanType | null;
  email: string | null;
  amountTotal: number | null;
  currency: string | null;
  customerId: string | null;
  subscriptionId: string | null;
  /** The payment (intent) of a one-time purchase; the first invoice of a subscription. */
  paymentId: string | null;
  /** A one-time payment refunded in full or disputed. */
  paymentReversed: boolean;
  metadata: Record<string, string>;
  createdAt: Date;
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
};

export type InvoiceSnapshot = {
  id: string;
  customerId: string | null;
  subscriptionId: string | null;
  status: string;
  billingReason: string | null;
  amountPaid: number;
  amountDue: number;
  currency: string;
  createdAt: Date;
};

export type ChargeSnapshot = {
  id: string;
  paymentId: string | null;
  amount: number;
  amountRefunded: number;
  refunded: boolean;
  disputed: boolean;
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

export type PaymentsCore = {
  createCheckoutSession(input: CreateCheckoutInput): Promise<{ id: string; url: string }>;
  /** null when the provider does not know the id. */
  retrieveCheckoutSession(id: string): Promise<CheckoutSessionSnapshot | null>;
  retrieveSubscription(id: string): Promise<SubscriptionSnapshot | null>;
  retrieveInvoice(id: string): Promise<InvoiceSnapshot | null>;
  retrieveCharge(id: string): Promise<ChargeSnapshot | null>;
  previewPlanChange(input: PlanChangeInput): Promise<PlanChangePreview>;
  /** Applies the change and charges the proration now; throws payment_failed and changes nothing when the charge fails. */
  applyPlanChange(input: PlanChangeInput): Promise<SubscriptionSnapshot>;
  /** Ends a subscription now, without proration (the plan was replaced by a lifetime purchase). */
  cancelSubscriptionNow(id: string): Promise<SubscriptionSnapshot>;
  createPortalSession(input: { customerId: string; returnUrl: string }): Promise<PortalResult>;
};

export type StripePaymentsPort = PaymentsCore & {
  kind: 'stripe';
  /** Verifies the signature over the raw body; throws when it does not match. */
  parseWebhook(rawBody: Uint8Array, signature: string): PaymentEvent;
};

export type SandboxPaymentsPort = PaymentsCore & {
  kind: 'sandbox';
  sandbox: SandboxOperations;
};

export type PaymentsPort = StripePaymentsPort | SandboxPaymentsPort;
