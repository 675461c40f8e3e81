// A small Stripe look-alike on 127.0.0.1 for the Stripe adapter's and the doctor's tests: it answers
// the endpoints they call with Stripe-shaped objects (API "endive": periods on subscription items,
// invoice.parent.subscription_details, invoice.payments), refuses what Stripe refuses for those
// calls, records every request, and produces the events Stripe would send (one function per kind).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ADVERTISED_PRICES, perPlan, PLAN_CURRENCY, planPeriodInterval, PLAN_TYPES, type SeedPlan } from '@shared/plans';
import { perPlanEnv, planEnvKey } from '@shared/plan-env';
import { disputeCharge, moneyRoute } from './fake-stripe-money';
import { checkoutTaxFields, checkoutTaxRefusal, createFakeTax, invoiceTaxFields, type FakeTax } from './fake-stripe-tax';
import { createFakePromotions, type FakePromotions } from './fake-stripe-promotions';
import { catalogueRoute } from './fake-stripe-catalogue';

export type RecordedRequest = { method: string; path: string; query: URLSearchParams; form: URLSearchParams; headers: IncomingMessage['headers'] };

type Json = Record<string, unknown>;

/** A price as the fake keeps it; `months: null` is one-time. */
export type FakePrice = {
  amount: number;
  months: number | null;
  currency?: string;
  active?: boolean;
  interval?: 'month' | 'year';
  taxBehavior?: 'exclusive' | 'inclusive' | 'unspecified';
  product?: string;
  /** A Price created by publishing (fake-stripe-catalogue.ts): its own recurring, lookup key and metadata. */
  recurring?: { interval: string; interval_count: number } | undefined;
  lookupKey?: string | undefined;
  metadata?: Json;
};

/** The fake's price id of each plan: price_monthly … price_eu_quarterly. */
export const TEST_PRICE_IDS: Record<SeedPlan, string> = perPlan(PLAN_TYPES, (plan) => planEnvKey('price', plan).toLowerCase());

export const STRIPE_TEST_ENV = {
  STRIPE_SECRET_KEY: 'sk_test_fake',
  STRIPE_WEBHOOK_SECRET: 'whsec_fake_secret',
  ...perPlanEnv('STRIPE_PRICE', PLAN_TYPES, (plan) => TEST_PRICE_IDS[plan]),
};

/** Stripe prices matching a shop's configuration: the configured ids at the amounts its cards show. */
export function pricesFor(priceIds: Record<SeedPlan, string>, amounts: Record<SeedPlan, number> = ADVERTISED_PRICES): Record<string, FakePrice> {
  const prices: Record<string, FakePrice> = {};
  for (const plan of PLAN_TYPES) prices[priceIds[plan]] = { amount: amounts[plan], months: planPeriodInterval(plan)?.months ?? null };
  return prices;
}

export const FAKE_PRICES: Record<string, FakePrice> = pricesFor(TEST_PRICE_IDS);

const DAY = 24 * 60 * 60;
const API_VERSION = '2026-10-28.endive';

const PRORATION_BEHAVIORS = ['create_prorations', 'none', 'always_invoice'];
const PAUSE_BEHAVIORS = ['keep_as_draft', 'mark_uncollectible', 'void'];

/** Parameters Stripe accepts on a subscription update with payment_behavior=pending_if_incomplete. */
const PENDING_UPDATE_PARAMS = /^(expand|payment_behavior|proration_behavior|proration_date|billing_cycle_anchor|items|trial_end|trial_from_plan|add_invoice_items)(\[|$)/;

export type StripeEvent = { id: string; object: 'event'; type: string; created: number; livemode: boolean; api_version: string; data: { object: Json } };

export type FakeStripe = {
  port: number;
  requests: RecordedRequest[];
  prices: Map<string, FakePrice>;
  /** Products made by publishing (fake-stripe-catalogue.ts). */
  products: Map<string, Json>;
  customers: Map<string, Json>;
  sessions: Map<string, Json>;
  subscriptions: Map<string, Json>;
  invoices: Map<string, Json>;
  charges: Map<string, Json>;
  paymentIntents: Map<string, Json>;
  disputes: Map<string, Json>;
  /** Refunds made (fake-stripe-money.ts). */
  refunds: Map<string, Json>;
  /** The card holder's bank opens or closes a dispute of a charge; returns the dispute object. */
  dispute(chargeId: string, status: string): Json;
  /** The only secret key the fake accepts (others get Stripe's 401). */
  apiKey: string;
  /** When false, the billing portal answers Stripe's "not configured" error and lists no configuration. */
  portalConfigured: boolean;
  /** When set, plan changes are declined: the update stays pending on an open invoice. */
  declineUpdates: boolean;
  /** When set, plan changes need 3-D Secure: the update stays pending until the invoice is authenticated. */
  authenticateUpdates: boolean;
  /** Pays a session as Checkout would, creating the customer, subscription or payment. */
  /** `card.fingerprint`: the paying card's fingerprint (the same card twice gives the same value); a new card by default. */
  complete(sessionId: string, email: string, card?: { fingerprint: string }): Json;
  /** The session completed with a delayed payment method (SEPA, ACH): complete, not paid yet. */
  completeDelayed(sessionId: string, email: string): Json;
  /** Forgets a customer, as a live key does not know the ids made in test mode. */
  forgetCustomer(customerId: string): void;
  // Events Stripe would send, each changing the fake's objects as Stripe would.
  asyncPaymentEvent(sessionId: string, outcome: 'succeeded' | 'failed'): StripeEvent;
  paymentActionRequiredEvent(invoiceId: string): StripeEvent;
  /** The member authenticated on the invoice's page: the invoice is paid and the pending update applied. */
  authenticateInvoice(invoiceId: string): StripeEvent[];
  disputeCreatedEvent(chargeId: string): StripeEvent;
  disputeClosedEvent(disputeId: string, outcome: 'won' | 'lost'): StripeEvent;
  /** Refunds (all of, by default) the charge that paid an invoice of a subscription. */
  subscriptionRefundEvent(invoiceId: string, amount?: number): StripeEvent;
  /** The charge that paid a checkout session (payment mode) or an invoice. */
  chargeOf(sessionOrInvoiceId: string): Json | null;
  // Free trials: the reminder Stripe sends three days before the end, and the trial reaching its end.
  trialWillEndEvent(subscriptionId: string): StripeEvent;
  /** The trial's end comes: the first invoice is charged (or, canceled at period end, the subscription ends). */
  endTrial(subscriptionId: string): StripeEvent[];
  /** invoice.paid of an invoice (after `trial_end: now`, the charged first invoice). */
  invoicePaidEvent(invoiceId: string): StripeEvent;
  paymentMethods: Map<string, Json>;
  /** Stripe Tax: settings, registrations, the buyer's billing address (fake-stripe-tax.ts). */
  tax: FakeTax;
  /** Coupons and promotion codes, and a code typed on Checkout's page (fake-stripe-promotions.ts). */
  promotions: FakePromotions;
  /** A subscription made before the shop ran this Stripe account (no checkout): its customer, paid and active. */
  seedSubscription(input: { email: string; priceId: string; status?: string; metadata?: Json }): string;
  /** A paid one-time checkout made before the shop (a lifetime sale): answers the session id. */
  seedOneTimePayment(input: { email: string; priceId: string; metadata?: Json }): string;
  /** Requests this answers with Stripe's 500 (an outage mid-import); null: none. */
  failWhen: ((path: string, query: URLSearchParams) => boolean) | null;
  /** The period ends and Stripe renews the subscription, its discount applied while it lasts; answers the invoice's id (paid, or void while collection is paused). */
  renew(subscriptionId: string): string;
  close(): Promise<void>;
};

/** Stripe's SDK sends expand[0]=…; curl users send expand[]=…: accept both. */
export function expandOf(query: URLSearchParams): string[] {
  return [...query].filter(([key]) => /^expand\[\d*\]$/.test(key)).map(([, value]) => value);
}

type Answer = { status: number; body: unknown };

function stripeError(status: number, message: string, type = 'invalid_request_error', extra: { code?: string; param?: string } = {}): Answer {
  return { status, body: { error: { type, message, ...extra } } };
}

/** Stripe keeps a subscription in the currency it was made in: a Price in another is refused. */
const currencyRefusal = (sub: Json, param: string) => stripeError(400, `The price specified does not match the currency of the subscription (${String(sub.currency)}).`, 'invalid_request_error', { param });

const missing = (what: string, id: string, param?: string) => stripeError(400, `No such ${what}: '${id}'`, 'invalid_request_error', { code: 'resource_missing', ...(param ? { param } : {}) });
const notFound = (what: string, id: string) => stripeError(404, `No such ${what}: '${id}'`, 'invalid_request_error', { code: 'resource_missing', param: 'id' });

export async function startFakeStripe(options: { prices?: Record<string, FakePrice>; apiKey?: string } = {}): Promise<FakeStripe> {
  let counter = 0;
  const next = (prefix: string) => `${prefix}_test_${++counter}`;
  const now = () => Math.floor(Date.now() / 1000);

  const state = {
    requests: [] as RecordedRequest[],
    // each fake its own copies: a Price updated here (a lookup key taken over) must not reach the
    // next suite's fake through the shared FAKE_PRICES, as modules are shared (vitest.config.ts)
    prices: new Map(Object.entries(options.prices ?? FAKE_PRICES).map(([id, price]) => [id, { ...price }])),
    products: new Map<string, Json>(),
    customers: new Map<string, Json>(),
    sessions: new Map<string, Json>(),
    subscriptions: new Map<string, Json>(),
    invoices: new Map<string, Json>(),
    charges: new Map<string, Json>(),
    paymentIntents: new Map<string, Json>(),
    disputes: new Map<string, Json>(),
    paymentMethods: new Map<string, Json>(),
    apiKey: options.apiKey ?? STRIPE_TEST_ENV.STRIPE_SECRET_KEY,
    refunds: new Map<string, Json>(),
    portalConfigured: true,
    declineUpdates: false,
    authenticateUpdates: false,
    failWhen: null as FakeStripe['failWhen'],
  };

  const taxes = createFakeTax(state, next);
  const promotions = createFakePromotions({ ...state, next, now, price, payment, invoice, months: (priceId) => state.prices.get(priceId)?.months ?? 1 });

  function event(type: string, object: Json): StripeEvent {
    return { id: next('evt'), object: 'event', type, created: now(), livemode: false, api_version: API_VERSION, data: { object: structuredClone(object) } };
  }

  function price(id: string): Json | null {
    const known = state.prices.get(id);
    if (!known) return null;
    const yearly = known.interval === 'year';
    return {
      id,
      object: 'price',
      active: known.active ?? true,
      livemode: false,
      unit_amount: known.amount,
      tax_behavior: known.taxBehavior ?? 'unspecified',
      // each plan its own product unless told otherwise (what coupons' applies_to names)
      product: known.product ?? `prod_${id}`,
      currency: known.currency ?? PLAN_CURRENCY,
      type: known.months ? 'recurring' : 'one_time',
      recurring: known.recurring
        ? { ...known.recurring, usage_type: 'licensed' }
        : known.months
          ? { interval: yearly ? 'year' : 'month', interval_count: yearly ? known.months / 12 : known.months, usage_type: 'licensed' }
          : null,
      lookup_key: known.lookupKey ?? null,
      metadata: known.metadata ?? {},
    };
  }

  function requirePrice(id: string): Json {
    const found = price(id);
    if (!found) throw new Error(`unknown price ${id}`);
    return found;
  }

  function customer(email: string | null): string {
    const id = next('cus');
    state.customers.set(id, { id, object: 'customer', email, livemode: false, created: now() });
    return id;
  }

  /** A PaymentIntent with its charge; `status` is the intent's (succeeded, requires_action…). */
  function payment(amount: number, customerId: string, status = 'succeeded'): { intent: string; charge: string | null } {
    const intent = next('pi');
    const charge = status === 'succeeded' ? next('ch') : null;
    if (charge) {
      state.charges.set(charge, { id: charge, object: 'charge', amount, amount_refunded: 0, refunded: false, disputed: false, payment_intent: intent, customer: customerId, currency: PLAN_CURRENCY, livemode: false, status: 'succeeded' });
    }
    state.paymentIntents.set(intent, { id: intent, object: 'payment_intent', amount, currency: PLAN_CURRENCY, customer: customerId, status, latest_charge: charge, livemode: false });
    return { intent, charge };
  }

  function invoice(input: { customer: string; subscription: string; amount: number; status: 'paid' | 'open' | 'void'; reason: string; intent: string; priceId: string }): string {
    const id = next('in');
    const line = { id: next('il'), object: 'line_item', amount: input.amount, pricing: { type: 'price_details', price_details: { price: input.priceId, product: 'prod_test' } }, parent: null };
    state.invoices.set(id, {
      id,
      object: 'invoice',
      customer: input.customer,
      status: input.status,
      billing_reason: input.reason,
      amount_paid: input.status === 'paid' ? input.amount : 0,
      amount_due: input.amount,
      amount_remaining: input.status === 'open' ? input.amount : 0,
      currency: price(input.priceId)?.currency ?? PLAN_CURRENCY,
      created: now(),
      livemode: false,
      hosted_invoice_url: `https://invoice.stripe.com/i/acct_fake/${id}`,
      parent: { type: 'subscription_details', subscription_details: { subscription: input.subscription, metadata: {} } },
      lines: { object: 'list', data: [line], has_more: false },
      ...invoiceTaxFields(id, input.amount, `FAKE-${id.replace(/\D/g, '').padStart(4, '0')}`),
      __intent: input.intent,
    });
    return id;
  }

  function subscription(id: string, customerId: string, priceId: string, start: number, metadata: Json): Json {
    const months = state.prices.get(priceId)?.months ?? 1;
    const first = requirePrice(priceId);
    return {
      id,
      object: 'subscription',
      customer: customerId,
      status: 'active',
      // as Stripe: the currency of the Price it was made with, for good
      currency: first.currency,
      livemode: false,
      cancel_at_period_end: false,
      cancel_at: null,
      pause_collection: null,
      canceled_at: null,
      ended_at: null,
      created: start,
      metadata,
      pending_update: null,
      latest_invoice: null,
      items: {
        object: 'list',
        data: [{ id: `si_${id}`, object: 'subscription_item', price: first, current_period_start: start, current_period_end: start + months * 30 * DAY, quantity: 1 }],
        has_more: false,
      },
    };
  }

  function settle(session: Json): void {
    const customerId = session.customer as string;
    const priceId = session.__price as string;
    const amount = session.amount_total as number;
    if (session.mode === 'subscription') {
      const id = next('sub');
      const sub = subscription(id, customerId, priceId, now(), (session.__subscriptionMetadata as Json) ?? {});
      sub.default_payment_method = paymentMethod(customerId, (session.__cardFingerprint as string | undefined) ?? next('fp'));
      const trialDays = session.__trialDays as number | undefined;
      // A trial's first invoice is $0 and charges nothing; its period is the trial.
      const { intent } = trialDays ? { intent: '' } : payment(amount, customerId);
      if (trialDays) startTrial(sub, trialDays);
      const first = invoice({ customer: customerId, subscription: id, amount: trialDays ? 0 : amount, status: 'paid', reason: 'subscription_create', intent, priceId });
      sub.latest_invoice = first;
      state.subscriptions.set(id, sub);
      Object.assign(session, { subscription: id, invoice: first });
    } else {
      session.payment_intent = payment(amount, customerId).intent;
    }
  }

  function begin(sessionId: string, email: string): Json {
    const session = state.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    const customerId = (session.customer as string | null) ?? customer(email);
    Object.assign(session, { status: 'complete', customer: customerId, customer_details: { email } });
    return session;
  }

  function complete(sessionId: string, email: string, card?: { fingerprint: string }): Json {
    const session = begin(sessionId, email);
    session.payment_status = session.__trialDays ? 'no_payment_required' : 'paid';
    if (card) session.__cardFingerprint = card.fingerprint;
    taxes.beforeSettle(session);
    settle(session);
    taxes.afterSettle(session);
    promotions.settled(session);
    return publicSession(session, []);
  }

  function completeDelayed(sessionId: string, email: string): Json {
    const session = begin(sessionId, email);
    session.payment_status = 'unpaid';
    return publicSession(session, []);
  }

  function publicSession(session: Json, expand: string[]): Json {
    const { __price: _price, __subscriptionMetadata: _metadata, __trialDays: _trial, __cardFingerprint: _card, __billing: _billing, __taxRate: _rate, ...visible } = session;
    if (expand.includes('payment_intent.latest_charge') && typeof visible.payment_intent === 'string') {
      const intent = state.paymentIntents.get(visible.payment_intent);
      if (intent) visible.payment_intent = { ...intent, latest_charge: state.charges.get(intent.latest_charge as string) ?? intent.latest_charge };
    }
    const invoice = typeof visible.invoice === 'string' ? state.invoices.get(visible.invoice) : undefined;
    if (expand.includes('invoice.payments') && invoice) visible.invoice = publicInvoice(invoice, ['payments']);
    promotions.expandSession(visible, expand);
    return visible;
  }

  /** invoice.payments as Stripe lists it (basil and later: the invoice's PaymentIntents). */
  function publicInvoice(inv: Json, expand: string[]): Json {
    const { __intent: intentId, ...visible } = inv;
    if (expand.some((path) => path === 'payments' || path.startsWith('payments.'))) {
      const intent = state.paymentIntents.get(intentId as string);
      const expanded = expand.includes('payments.data.payment.payment_intent');
      visible.payments = {
        object: 'list',
        data: intent ? [{ id: `inpay_${inv.id as string}`, object: 'invoice_payment', invoice: inv.id, is_default: true, status: intent.status === 'succeeded' ? 'paid' : 'open', payment: { type: 'payment_intent', payment_intent: expanded ? intent : intent.id } }] : [],
        has_more: false,
      };
    }
    promotions.expandInvoice(visible, expand);
    return visible;
  }

  // ---------------------------------------------------------------- requests

  function createCheckoutSession(form: URLSearchParams): Answer {
    const mode = form.get('mode');
    const priceId = form.get('line_items[0][price]') ?? '';
    const found = price(priceId);
    if (!found) return missing('price', priceId, 'line_items[0][price]');
    if (form.has('customer') && form.has('customer_email')) return stripeError(400, 'You may only specify one of these parameters: customer, customer_email.', 'invalid_request_error', { param: 'customer_email' });
    if (mode === 'subscription' && form.has('customer_creation')) return stripeError(400, '`customer_creation` can only be used in `payment` mode.', 'invalid_request_error', { param: 'customer_creation' });
    if (mode === 'subscription' && found.type !== 'recurring') return stripeError(400, 'You must provide at least one recurring price in `subscription` mode when using prices.', 'invalid_request_error', { param: 'line_items' });
    if (mode === 'payment' && found.type === 'recurring') return stripeError(400, 'You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.', 'invalid_request_error', { param: 'mode' });
    const customerId = form.get('customer');
    if (customerId && !state.customers.has(customerId)) return missing('customer', customerId, 'customer');
    const trialParam = form.get('subscription_data[trial_period_days]');
    if (trialParam !== null && mode !== 'subscription') return stripeError(400, '`subscription_data` can only be used in `subscription` mode.', 'invalid_request_error', { param: 'subscription_data' });
    const trialDays = trialParam === null ? null : Number(trialParam);
    if (trialDays !== null && !(Number.isInteger(trialDays) && trialDays >= 1 && trialDays <= 730)) {
      return stripeError(400, 'The maximum number of trial period days is 730 (2 years).', 'invalid_request_error', { param: 'subscription_data[trial_period_days]' });
    }
    const taxRefusal = checkoutTaxRefusal(form);
    if (taxRefusal) return taxRefusal;
    const discount = promotions.checkoutFields(form, found, found.unit_amount as number);
    if ('refusal' in discount) return discount.refusal;
    const id = next('cs');
    const metadata: Json = {};
    const subscriptionMetadata: Json = {};
    for (const [key, value] of form) {
      const meta = key.match(/^metadata\[(.+)\]$/);
      if (meta?.[1]) metadata[meta[1]] = value;
      const subMeta = key.match(/^subscription_data\[metadata\]\[(.+)\]$/);
      if (subMeta?.[1]) subscriptionMetadata[subMeta[1]] = value;
    }
    const session: Json = {
      id,
      object: 'checkout.session',
      url: `https://checkout.stripe.com/c/pay/${id}`,
      mode,
      status: 'open',
      payment_status: 'unpaid',
      amount_total: found.unit_amount,
      currency: found.currency,
      created: now(),
      livemode: false,
      customer: customerId,
      customer_email: form.get('customer_email'),
      customer_details: null,
      metadata,
      subscription: null,
      payment_intent: null,
      invoice: null,
      success_url: form.get('success_url'),
      cancel_url: form.get('cancel_url'),
      __price: priceId,
      __subscriptionMetadata: subscriptionMetadata,
      ...checkoutTaxFields(form, found.unit_amount as number),
      ...discount.fields,
      ...(trialDays ? { __trialDays: trialDays, amount_total: 0 } : {}),
    };
    state.sessions.set(id, session);
    promotions.opened(id, discount.promotion);
    return { status: 200, body: publicSession(session, []) };
  }

  /**
   * What Stripe refuses on a subscription update before changing anything: a canceled subscription
   * (only its metadata may change), an unknown proration behavior, a trial end that is not a
   * future Unix time within two years, a pause behavior Stripe does not have.
   */
  function updateRefusal(sub: Json, form: URLSearchParams): Answer | null {
    if (sub.status === 'canceled' || sub.status === 'incomplete_expired') {
      const refused = [...form.keys()].find((key) => !/^(metadata|cancellation_details|expand)(\[|$)/.test(key));
      if (refused) return stripeError(400, 'A canceled subscription can only update its cancellation_details and metadata.', 'invalid_request_error', { param: refused });
    }
    const proration = form.get('proration_behavior');
    if (proration !== null && !PRORATION_BEHAVIORS.includes(proration)) {
      return stripeError(400, `Invalid proration_behavior: must be one of ${PRORATION_BEHAVIORS.join(', ')}`, 'invalid_request_error', { param: 'proration_behavior' });
    }
    const trialEnd = form.get('trial_end');
    if (trialEnd !== null && trialEnd !== 'now') {
      const at = Number(trialEnd);
      if (!Number.isInteger(at)) return stripeError(400, `Invalid integer: ${trialEnd}`, 'invalid_request_error', { param: 'trial_end' });
      if (at <= now()) return stripeError(400, 'Invalid timestamp: must be an integer Unix timestamp in the future.', 'invalid_request_error', { param: 'trial_end' });
      if (at > now() + 730 * DAY) return stripeError(400, 'The trial_end timestamp must be less than 730 days (2 years) in the future.', 'invalid_request_error', { param: 'trial_end' });
    }
    const behavior = form.get('pause_collection[behavior]');
    if (form.has('pause_collection[behavior]') && !PAUSE_BEHAVIORS.includes(behavior ?? '')) {
      return stripeError(400, `Invalid pause_collection[behavior]: must be one of ${PAUSE_BEHAVIORS.join(', ')}`, 'invalid_request_error', { param: 'pause_collection[behavior]' });
    }
    return null;
  }

  /** trial_end (a time), pause_collection and metadata, as Stripe applies them (none of them charges). */
  function updateTerms(sub: Json, form: URLSearchParams): void {
    const trialEnd = form.get('trial_end');
    if (trialEnd !== null && trialEnd !== 'now') {
      // A trial end on a running subscription starts a trial now: the period is the trial, billed at its end.
      const at = Number(trialEnd);
      Object.assign(sub, { status: 'trialing', trial_start: sub.status === 'trialing' ? sub.trial_start : now(), trial_end: at });
      Object.assign(itemOf(sub), { current_period_start: now(), current_period_end: at });
    }
    if (form.get('pause_collection') === '') sub.pause_collection = null;
    const behavior = form.get('pause_collection[behavior]');
    if (behavior) sub.pause_collection = { behavior, resumes_at: form.has('pause_collection[resumes_at]') ? Number(form.get('pause_collection[resumes_at]')) : null };
    const metadata = { ...(sub.metadata as Json) };
    for (const [key, value] of form) {
      const name = key.match(/^metadata\[(.+)\]$/)?.[1];
      if (!name) continue;
      // an empty value removes the key
      if (value === '') delete metadata[name];
      else metadata[name] = value;
    }
    sub.metadata = metadata;
  }

  function updateSubscription(sub: Json, form: URLSearchParams): Answer {
    const refusal = updateRefusal(sub, form);
    if (refusal) return refusal;
    const pending = form.get('payment_behavior') === 'pending_if_incomplete';
    if (pending) {
      const refused = [...form.keys()].find((key) => !PENDING_UPDATE_PARAMS.test(key));
      if (refused) return stripeError(400, `You cannot set \`${refused.replace(/\[.*$/, '')}\` when \`payment_behavior\` is \`pending_if_incomplete\`.`, 'invalid_request_error', { param: refused });
    }
    const newPrice = form.get('items[0][price]');
    if (newPrice && !price(newPrice)) return missing('price', newPrice, 'items[0][price]');
    if (newPrice && requirePrice(newPrice).currency !== sub.currency) return currencyRefusal(sub, 'items[0][price]');
    if (newPrice && pending && (state.declineUpdates || state.authenticateUpdates)) {
      // Stripe keeps the change in pending_update and leaves the proration invoice open.
      const amount = requirePrice(newPrice).unit_amount as number;
      const { intent } = payment(amount, sub.customer as string, state.authenticateUpdates ? 'requires_action' : 'requires_payment_method');
      const open = invoice({ customer: sub.customer as string, subscription: sub.id as string, amount, status: 'open', reason: 'subscription_update', intent, priceId: newPrice });
      sub.pending_update = { expires_at: now() + DAY, subscription_items: [{ price: requirePrice(newPrice) }], __price: newPrice, __prorationDate: form.get('proration_date') };
      sub.latest_invoice = open;
      return { status: 200, body: publicSubscription(sub) };
    }
    if (newPrice) changePrice(sub, newPrice, Number(form.get('proration_date') ?? now()));
    // trial_end=now ends the trial at once: the first invoice is made and charged now.
    if (form.get('trial_end') === 'now' && sub.status === 'trialing') chargeTrial(sub, now(), 'subscription_update');
    if (form.has('cancel_at_period_end')) sub.cancel_at_period_end = form.get('cancel_at_period_end') === 'true';
    updateTerms(sub, form);
    return { status: 200, body: publicSubscription(sub) };
  }

  function changePrice(sub: Json, newPrice: string, at: number): void {
    const item = (sub.items as { data: Json[] }).data[0]!;
    const months = state.prices.get(newPrice)?.months ?? 1;
    const old = state.prices.get((item.price as Json).id as string)?.months ?? 1;
    item.price = requirePrice(newPrice);
    if (months !== old) Object.assign(item, { current_period_start: at, current_period_end: at + months * 30 * DAY });
  }

  function publicSubscription(sub: Json): Json {
    const pendingUpdate = sub.pending_update as Json | null;
    if (!pendingUpdate) return sub;
    const { __price: _price, __prorationDate: _date, ...visible } = pendingUpdate;
    return { ...sub, pending_update: visible };
  }

  /** Stripe's list envelope: `limit` objects after `starting_after`, in the order kept (newest first at Stripe; any fixed order pages the same). */
  function listPage(all: Json[], query: URLSearchParams, url: string, show: (object: Json) => Json): Answer {
    const limit = Math.min(100, Number(query.get('limit') ?? '10'));
    const after = query.get('starting_after');
    const start = after ? all.findIndex((object) => object.id === after) + 1 : 0;
    if (after && start === 0) return missing('object', after, 'starting_after');
    const data = all.slice(start, start + limit);
    return { status: 200, body: { object: 'list', data: data.map(show), has_more: start + limit < all.length, url } };
  }

  function listSubscriptions(query: URLSearchParams): Answer {
    const priceId = query.get('price');
    const status = query.get('status');
    const all = [...state.subscriptions.values()].filter(
      (sub) => (status === 'all' || (status ? sub.status === status : sub.status !== 'canceled')) && (!priceId || (itemOf(sub).price as Json).id === priceId),
    );
    const withCustomer = expandOf(query).includes('data.customer');
    return listPage(all, query, '/v1/subscriptions', (sub) => {
      const visible = publicSubscription(sub);
      return withCustomer ? { ...visible, customer: state.customers.get(sub.customer as string) ?? sub.customer } : visible;
    });
  }

  function listSessions(query: URLSearchParams): Answer {
    const status = query.get('status');
    const all = [...state.sessions.values()].filter((session) => !status || session.status === status);
    const withLines = expandOf(query).includes('data.line_items');
    return listPage(all, query, '/v1/checkout/sessions', (session) => {
      const visible = publicSession(session, []);
      if (!withLines) return visible;
      const line = { id: `li_${session.id as string}`, object: 'item', price: price(session.__price as string), quantity: 1, amount_total: session.amount_total };
      return { ...visible, line_items: { object: 'list', data: [line], has_more: false, url: `/v1/checkout/sessions/${session.id as string}/line_items` } };
    });
  }

  function seedSubscription(input: { email: string; priceId: string; status?: string; metadata?: Json }): string {
    const customerId = customer(input.email);
    const id = next('sub');
    const sub = subscription(id, customerId, input.priceId, now() - 5 * DAY, input.metadata ?? {});
    if (input.status) sub.status = input.status;
    state.subscriptions.set(id, sub);
    return id;
  }

  function seedOneTimePayment(input: { email: string; priceId: string; metadata?: Json }): string {
    const found = requirePrice(input.priceId);
    const id = next('cs');
    state.sessions.set(id, {
      id,
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: found.unit_amount,
      currency: found.currency,
      created: now() - 30 * DAY,
      livemode: false,
      customer: null,
      customer_email: null,
      customer_details: null,
      metadata: input.metadata ?? {},
      subscription: null,
      payment_intent: null,
      invoice: null,
      allow_promotion_codes: false,
      discounts: [],
      __price: input.priceId,
      ...checkoutTaxFields(new URLSearchParams({ mode: 'payment' }), found.unit_amount as number),
    });
    complete(id, input.email);
    return id;
  }

  function route(method: string, path: string, form: URLSearchParams, query: URLSearchParams, idempotencyKey?: string): Answer {
    if (state.failWhen?.(path, query)) return stripeError(500, 'An unknown error occurred', 'api_error');
    const money = moneyRoute(state, next, method, path, form, query, idempotencyKey);
    if (money) return money;
    const taxAnswer = taxes.route(method, path, query, (invoice) => publicInvoice(invoice, expandOf(query)));
    if (taxAnswer) return taxAnswer;
    const promotionAnswer = promotions.route(method, path, form, query, idempotencyKey);
    if (promotionAnswer) return promotionAnswer;
    const catalogueAnswer = catalogueRoute({ prices: state.prices, products: state.products, next, price }, method, path, form, query);
    if (catalogueAnswer) return catalogueAnswer;
    let match: RegExpMatchArray | null;
    if (method === 'GET' && path === '/v1/account') {
      return { status: 200, body: { id: 'acct_fake', object: 'account', email: 'vendor@example.com', settings: { dashboard: { display_name: 'Candlewise (fake)' } } } };
    }
    if (method === 'GET' && (match = path.match(/^\/v1\/prices\/([^/]+)$/))) {
      const found = price(match[1]!);
      return found ? { status: 200, body: found } : notFound('price', match[1]!);
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') return createCheckoutSession(form);
    if (method === 'GET' && (match = path.match(/^\/v1\/checkout\/sessions\/([^/]+)$/))) {
      const session = state.sessions.get(match[1]!);
      return session ? { status: 200, body: publicSession(session, expandOf(query)) } : notFound('checkout.session', match[1]!);
    }
    if (method === 'GET' && path === '/v1/subscriptions') return listSubscriptions(query);
    if (method === 'GET' && path === '/v1/checkout/sessions') return listSessions(query);
    if ((match = path.match(/^\/v1\/subscriptions\/([^/]+)$/))) {
      const sub = state.subscriptions.get(match[1]!);
      if (!sub) return notFound('subscription', match[1]!);
      if (method === 'GET') {
        const visible = publicSubscription(sub);
        const method = typeof sub.default_payment_method === 'string' ? state.paymentMethods.get(sub.default_payment_method) : undefined;
        return { status: 200, body: expandOf(query).includes('default_payment_method') && method ? { ...visible, default_payment_method: method } : visible };
      }
      if (method === 'DELETE') {
        Object.assign(sub, { status: 'canceled', canceled_at: now(), ended_at: now() });
        return { status: 200, body: publicSubscription(sub) };
      }
      if (method === 'POST') return updateSubscription(sub, form);
    }
    if (method === 'POST' && path === '/v1/invoices/create_preview') {
      const sub = state.subscriptions.get(form.get('subscription') ?? '');
      const newPrice = form.get('subscription_details[items][0][price]') ?? '';
      if (!sub) return missing('subscription', form.get('subscription') ?? '', 'subscription');
      const target = price(newPrice);
      if (!target) return missing('price', newPrice, 'subscription_details[items][0][price]');
      if (target.currency !== sub.currency) return currencyRefusal(sub, 'subscription_details[items][0][price]');
      const item = (sub.items as { data: Json[] }).data[0]!;
      const start = item.current_period_start as number;
      const end = item.current_period_end as number;
      const at = Number(form.get('subscription_details[proration_date]'));
      const remaining = Math.max(0, end - at) / (end - start);
      const credit = Math.round(((item.price as Json).unit_amount as number) * remaining);
      const charge = target.unit_amount as number;
      const lines = [
        { id: 'il_1', object: 'line_item', amount: -credit, currency: sub.currency, parent: { type: 'subscription_item_details', subscription_item_details: { proration: true, subscription_item: item.id } } },
        { id: 'il_2', object: 'line_item', amount: charge, currency: sub.currency, parent: { type: 'subscription_item_details', subscription_item_details: { proration: false, subscription_item: item.id } } },
      ];
      return {
        status: 200,
        body: { id: null, object: 'invoice', currency: sub.currency, amount_due: Math.max(0, charge - credit), created: now(), lines: { object: 'list', data: lines, has_more: false } },
      };
    }
    if (method === 'GET' && (match = path.match(/^\/v1\/invoices\/([^/]+)$/))) {
      const inv = state.invoices.get(match[1]!);
      return inv ? { status: 200, body: publicInvoice(inv, expandOf(query)) } : notFound('invoice', match[1]!);
    }
    if (method === 'GET' && path === '/v1/invoice_payments') {
      // How a charge's PaymentIntent leads back to its invoice since API basil.
      const intent = query.get('payment[payment_intent]');
      const data = [...state.invoices.values()]
        .filter((inv) => inv.__intent === intent)
        .map((inv) => ({ id: `inpay_${inv.id as string}`, object: 'invoice_payment', invoice: inv.id, is_default: true, status: inv.status === 'paid' ? 'paid' : 'open', payment: { type: 'payment_intent', payment_intent: intent } }));
      return { status: 200, body: { object: 'list', data, has_more: false, url: '/v1/invoice_payments' } };
    }
    if (method === 'GET' && (match = path.match(/^\/v1\/charges\/([^/]+)$/))) {
      const charge = state.charges.get(match[1]!);
      return charge ? { status: 200, body: charge } : notFound('charge', match[1]!);
    }
    if (method === 'GET' && (match = path.match(/^\/v1\/disputes\/([^/]+)$/))) {
      const dispute = state.disputes.get(match[1]!);
      return dispute ? { status: 200, body: dispute } : notFound('dispute', match[1]!);
    }
    if (method === 'GET' && (match = path.match(/^\/v1\/customers\/([^/]+)$/))) {
      const found = state.customers.get(match[1]!);
      return found ? { status: 200, body: found } : notFound('customer', match[1]!);
    }
    if (method === 'GET' && path === '/v1/billing_portal/configurations') {
      const data = state.portalConfigured ? [{ id: 'bpc_fake', object: 'billing_portal.configuration', active: true, is_default: true, livemode: false }] : [];
      return { status: 200, body: { object: 'list', data, has_more: false, url: '/v1/billing_portal/configurations' } };
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const customerId = form.get('customer') ?? '';
      if (!state.customers.has(customerId)) return missing('customer', customerId, 'customer');
      if (!state.portalConfigured) {
        return stripeError(
          400,
          'No configuration provided and your test mode default configuration has not been created. Provide a configuration or create your default by saving your customer portal settings in test mode at https://dashboard.stripe.com/test/settings/billing/portal.',
        );
      }
      return { status: 200, body: { id: next('bps'), object: 'billing_portal.session', customer: customerId, return_url: form.get('return_url'), url: `https://billing.stripe.com/p/session/${next('portal')}` } };
    }
    return stripeError(404, `Unrecognized request URL (${method}: ${path}).`);
  }

  // ---------------------------------------------------------------- events

  function asyncPaymentEvent(sessionId: string, outcome: 'succeeded' | 'failed'): StripeEvent {
    const session = state.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    if (outcome === 'succeeded') {
      session.payment_status = 'paid';
      settle(session);
    }
    return event(`checkout.session.async_payment_${outcome}`, publicSession(session, []));
  }

  function paymentActionRequiredEvent(invoiceId: string): StripeEvent {
    const inv = state.invoices.get(invoiceId);
    if (!inv) throw new Error(`no invoice ${invoiceId}`);
    return event('invoice.payment_action_required', publicInvoice(inv, []));
  }

  function authenticateInvoice(invoiceId: string): StripeEvent[] {
    const inv = state.invoices.get(invoiceId);
    if (!inv) throw new Error(`no invoice ${invoiceId}`);
    const intent = state.paymentIntents.get(inv.__intent as string)!;
    const charge = next('ch');
    state.charges.set(charge, { id: charge, object: 'charge', amount: intent.amount, amount_refunded: 0, refunded: false, disputed: false, payment_intent: intent.id, customer: intent.customer, currency: PLAN_CURRENCY, livemode: false, status: 'succeeded' });
    Object.assign(intent, { status: 'succeeded', latest_charge: charge });
    Object.assign(inv, { status: 'paid', amount_paid: inv.amount_due, amount_remaining: 0 });
    const subId = (inv.parent as { subscription_details: { subscription: string } }).subscription_details.subscription;
    const sub = state.subscriptions.get(subId)!;
    const pendingUpdate = sub.pending_update as Json | null;
    if (pendingUpdate) changePrice(sub, pendingUpdate.__price as string, Number(pendingUpdate.__prorationDate ?? now()));
    sub.pending_update = null;
    return [event('invoice.paid', publicInvoice(inv, [])), event('customer.subscription.updated', publicSubscription(sub))];
  }

  function disputeCreatedEvent(chargeId: string): StripeEvent {
    const charge = state.charges.get(chargeId);
    if (!charge) throw new Error(`no charge ${chargeId}`);
    charge.disputed = true;
    const id = next('dp');
    const dispute: Json = { id, object: 'dispute', amount: charge.amount, currency: charge.currency, charge: chargeId, payment_intent: charge.payment_intent, reason: 'fraudulent', status: 'needs_response', livemode: false, created: now(), is_charge_refundable: false };
    state.disputes.set(id, dispute);
    return event('charge.dispute.created', dispute);
  }

  function disputeClosedEvent(disputeId: string, outcome: 'won' | 'lost'): StripeEvent {
    const dispute = state.disputes.get(disputeId);
    if (!dispute) throw new Error(`no dispute ${disputeId}`);
    dispute.status = outcome;
    // Stripe keeps charge.disputed true after the dispute closes, whichever way it went.
    return event('charge.dispute.closed', dispute);
  }

  function subscriptionRefundEvent(invoiceId: string, amount?: number): StripeEvent {
    const charge = chargeOf(invoiceId);
    if (!charge) throw new Error(`no charge paid invoice ${invoiceId}`);
    const refunded = Math.min(charge.amount as number, (charge.amount_refunded as number) + (amount ?? (charge.amount as number)));
    Object.assign(charge, { amount_refunded: refunded, refunded: refunded >= (charge.amount as number) });
    return event('charge.refunded', charge);
  }

  function paymentMethod(customerId: string, fingerprint: string): string {
    const id = next('pm');
    state.paymentMethods.set(id, { id, object: 'payment_method', type: 'card', customer: customerId, livemode: false, card: { brand: 'visa', last4: '4242', fingerprint } });
    return id;
  }

  function itemOf(sub: Json): Json {
    return (sub.items as { data: Json[] }).data[0]!;
  }

  function startTrial(sub: Json, days: number): void {
    const start = now();
    Object.assign(sub, { status: 'trialing', trial_start: start, trial_end: start + days * DAY });
    Object.assign(itemOf(sub), { current_period_start: start, current_period_end: start + days * DAY });
  }

  /** The trial ends at `at`: a new period starts and its invoice is paid with the card on file. */
  function chargeTrial(sub: Json, at: number, reason: string): string {
    const item = itemOf(sub);
    const priceId = (item.price as Json).id as string;
    const amount = (item.price as Json).unit_amount as number;
    const months = state.prices.get(priceId)?.months ?? 1;
    const { intent } = payment(amount, sub.customer as string);
    const paid = invoice({ customer: sub.customer as string, subscription: sub.id as string, amount, status: 'paid', reason, intent, priceId });
    Object.assign(sub, { status: 'active', trial_end: at, latest_invoice: paid });
    Object.assign(item, { current_period_start: at, current_period_end: at + months * 30 * DAY });
    return paid;
  }

  function trialWillEndEvent(subscriptionId: string): StripeEvent {
    const sub = state.subscriptions.get(subscriptionId);
    if (!sub) throw new Error(`no subscription ${subscriptionId}`);
    return event('customer.subscription.trial_will_end', publicSubscription(sub));
  }

  function endTrial(subscriptionId: string): StripeEvent[] {
    const sub = state.subscriptions.get(subscriptionId);
    if (sub?.status !== 'trialing') throw new Error(`subscription ${subscriptionId} is not trialing`);
    // the fake's clock is the real one: the trial's end is now
    const end = now();
    Object.assign(itemOf(sub), { current_period_end: end });
    if (sub.cancel_at_period_end) {
      Object.assign(sub, { status: 'canceled', trial_end: end, canceled_at: end, ended_at: end });
      return [event('customer.subscription.deleted', publicSubscription(sub))];
    }
    const paid = chargeTrial(sub, end, 'subscription_cycle');
    return [invoicePaidEvent(paid), event('customer.subscription.updated', publicSubscription(sub))];
  }

  function invoicePaidEvent(invoiceId: string): StripeEvent {
    const inv = state.invoices.get(invoiceId);
    if (!inv) throw new Error(`no invoice ${invoiceId}`);
    return event('invoice.paid', publicInvoice(inv, []));
  }

  /**
   * The period ends: a subscription whose collection is paused with behavior void gets its invoice
   * voided at once (nothing charged, nothing owed) and the period moves on; others renew as usual.
   */
  function renew(subscriptionId: string): string {
    const sub = state.subscriptions.get(subscriptionId);
    const pause = sub?.pause_collection as Json | null | undefined;
    if (!sub || pause?.behavior !== 'void') return promotions.renew(subscriptionId);
    const item = itemOf(sub);
    const priceId = (item.price as Json).id as string;
    const start = item.current_period_end as number;
    const voided = invoice({ customer: sub.customer as string, subscription: subscriptionId, amount: (item.price as Json).unit_amount as number, status: 'void', reason: 'subscription_cycle', intent: '', priceId });
    Object.assign(item, { current_period_start: start, current_period_end: start + (state.prices.get(priceId)?.months ?? 1) * 30 * DAY });
    sub.latest_invoice = voided;
    return voided;
  }

  function chargeOf(sessionOrInvoiceId: string): Json | null {
    const intentId = state.invoices.get(sessionOrInvoiceId)?.__intent ?? state.sessions.get(sessionOrInvoiceId)?.payment_intent;
    const intent = typeof intentId === 'string' ? state.paymentIntents.get(intentId) : undefined;
    return intent?.latest_charge ? (state.charges.get(intent.latest_charge as string) ?? null) : null;
  }

  // ---------------------------------------------------------------- the server

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const method = request.method ?? 'GET';
      state.requests.push({ method, path: url.pathname, query: url.searchParams, form, headers: request.headers });
      let result: Answer;
      try {
        const key = request.headers['idempotency-key'];
        result =
          request.headers.authorization === `Bearer ${state.apiKey}`
            ? route(method, url.pathname, form, url.searchParams, typeof key === 'string' ? key : undefined)
            : stripeError(401, `Invalid API Key provided: ${(request.headers.authorization ?? '').replace(/^Bearer /, '').slice(0, 8)}****`, 'invalid_request_error');
      } catch (error) {
        result = stripeError(400, error instanceof Error ? error.message : String(error));
      }
      response.writeHead(result.status, { 'content-type': 'application/json', 'request-id': `req_${counter}` });
      response.end(JSON.stringify(result.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    get requests() {
      return state.requests;
    },
    prices: state.prices,
    products: state.products,
    customers: state.customers,
    sessions: state.sessions,
    subscriptions: state.subscriptions,
    invoices: state.invoices,
    charges: state.charges,
    paymentIntents: state.paymentIntents,
    disputes: state.disputes,
    get apiKey() {
      return state.apiKey;
    },
    set apiKey(value: string) {
      state.apiKey = value;
    },
    refunds: state.refunds,
    dispute: (chargeId, status) => disputeCharge(state, next, chargeId, status),
    tax: taxes.tax,
    promotions,
    renew,
    get portalConfigured() {
      return state.portalConfigured;
    },
    set portalConfigured(value: boolean) {
      state.portalConfigured = value;
    },
    get declineUpdates() {
      return state.declineUpdates;
    },
    set declineUpdates(value: boolean) {
      state.declineUpdates = value;
    },
    get authenticateUpdates() {
      return state.authenticateUpdates;
    },
    set authenticateUpdates(value: boolean) {
      state.authenticateUpdates = value;
    },
    complete,
    completeDelayed,
    seedSubscription,
    seedOneTimePayment,
    get failWhen() {
      return state.failWhen;
    },
    set failWhen(value) {
      state.failWhen = value;
    },
    forgetCustomer: (id) => void state.customers.delete(id),
    asyncPaymentEvent,
    paymentActionRequiredEvent,
    authenticateInvoice,
    disputeCreatedEvent,
    disputeClosedEvent,
    subscriptionRefundEvent,
    chargeOf,
    trialWillEndEvent,
    endTrial,
    invoicePaidEvent,
    paymentMethods: state.paymentMethods,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
