// The local Stripe look-alike refuses what Stripe refuses for the calls the adapter makes, serves
// the configured prices, and emits events in Stripe's shapes (read through the real SDK).
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pricesFor, startFakeStripe, STRIPE_TEST_ENV, TEST_PRICE_IDS, type FakeStripe } from './fake-stripe-server';
import { createStripeClient } from '../modules/payments/stripe-payments';

let fake: FakeStripe;
let stripe: Stripe;

beforeAll(async () => {
  fake = await startFakeStripe({ prices: pricesFor(TEST_PRICE_IDS, { monthly: 4900, quarterly: 9900, yearly: 29900, lifetime: 79900, euMonthly: 3900, euQuarterly: 6900 }) });
  stripe = createStripeClient({ secretKey: STRIPE_TEST_ENV.STRIPE_SECRET_KEY, connection: { host: '127.0.0.1', port: fake.port, protocol: 'http' } });
});
afterAll(() => fake.close());

const session = (params: Partial<Stripe.Checkout.SessionCreateParams>) =>
  stripe.checkout.sessions.create({ mode: 'subscription', line_items: [{ price: 'price_monthly', quantity: 1 }], success_url: 'http://x/s', cancel_url: 'http://x/c', ...params });

async function refusal(promise: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  const error = await promise.then(() => null, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
  return error as Stripe.errors.StripeError;
}

async function paidSubscription() {
  const created = await session({ customer_email: 'sub@example.com' });
  const paid = fake.complete(created.id, 'sub@example.com');
  return { subscriptionId: paid.subscription as string, invoiceId: paid.invoice as string, customerId: paid.customer as string };
}

describe('refuses what Stripe refuses', () => {
  it('customer together with customer_email', async () => {
    const { customerId } = await paidSubscription();
    expect((await refusal(session({ customer: customerId, customer_email: 'a@example.com' }))).message).toBe('You may only specify one of these parameters: customer, customer_email.');
  });

  it('customer_creation in subscription mode', async () => {
    expect((await refusal(session({ customer_creation: 'always' }))).param).toBe('customer_creation');
  });

  it('an unknown price, and a customer it does not know (a stale customer)', async () => {
    expect(await refusal(session({ line_items: [{ price: 'price_nope', quantity: 1 }] }))).toMatchObject({ code: 'resource_missing', message: "No such price: 'price_nope'" });
    const { customerId } = await paidSubscription();
    fake.forgetCustomer(customerId);
    expect(await refusal(session({ customer: customerId }))).toMatchObject({ code: 'resource_missing', param: 'customer' });
    expect(await refusal(stripe.billingPortal.sessions.create({ customer: customerId }))).toMatchObject({ code: 'resource_missing', param: 'customer' });
  });

  it('a one-time price in subscription mode, and a recurring one in payment mode', async () => {
    expect((await refusal(session({ line_items: [{ price: 'price_lifetime', quantity: 1 }] }))).message).toMatch(/at least one recurring price in `subscription` mode/);
    expect((await refusal(session({ mode: 'payment' }))).param).toBe('mode');
  });

  it('parameters a pending update does not allow', async () => {
    const { subscriptionId } = await paidSubscription();
    const error = await refusal(stripe.subscriptions.update(subscriptionId, { items: [{ price: 'price_yearly' }], payment_behavior: 'pending_if_incomplete', cancel_at_period_end: false }));
    expect(error).toMatchObject({ param: 'cancel_at_period_end', message: 'You cannot set `cancel_at_period_end` when `payment_behavior` is `pending_if_incomplete`.' });
    expect(fake.subscriptions.get(subscriptionId)!.items).toMatchObject({ data: [{ price: { id: 'price_monthly' } }] });
  });

  it('a key it was not given', async () => {
    const other = createStripeClient({ secretKey: 'sk_test_other', connection: { host: '127.0.0.1', port: fake.port, protocol: 'http' } });
    await expect(other.accounts.retrieveCurrent()).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
  });
});

describe('uses the configured prices', () => {
  it('charges and describes each price as configured', async () => {
    expect(await stripe.prices.retrieve('price_quarterly')).toMatchObject({ unit_amount: 9900, currency: 'usd', type: 'recurring', recurring: { interval: 'month', interval_count: 3 } });
    expect(await stripe.prices.retrieve('price_lifetime')).toMatchObject({ unit_amount: 79900, type: 'one_time', recurring: null });
    expect((await session({ line_items: [{ price: 'price_eu_monthly', quantity: 1 }] })).amount_total).toBe(3900);
  });
});

describe('emits the events Stripe sends', () => {
  it('3-D Secure: a pending update on an open invoice whose payment requires action', async () => {
    const { subscriptionId } = await paidSubscription();
    fake.authenticateUpdates = true;
    try {
      const updated = await stripe.subscriptions.update(subscriptionId, { items: [{ price: 'price_yearly' }], payment_behavior: 'pending_if_incomplete', proration_behavior: 'always_invoice' });
      expect(updated.pending_update).toMatchObject({ subscription_items: [{ price: { id: 'price_yearly' } }] });
      const invoice = await stripe.invoices.retrieve(updated.latest_invoice as string, { expand: ['payments.data.payment.payment_intent'] });
      expect(invoice).toMatchObject({ status: 'open', hosted_invoice_url: expect.stringMatching(/^https:\/\/invoice\.stripe\.com\//) });
      expect(invoice.payments!.data[0]!.payment.payment_intent).toMatchObject({ object: 'payment_intent', status: 'requires_action' });
      const event = fake.paymentActionRequiredEvent(invoice.id!);
      expect(event).toMatchObject({ object: 'event', type: 'invoice.payment_action_required', data: { object: { id: invoice.id, object: 'invoice', parent: { subscription_details: { subscription: subscriptionId } } } } });
      expect(fake.authenticateInvoice(invoice.id!).map((e) => e.type)).toEqual(['invoice.paid', 'customer.subscription.updated']);
      expect((await stripe.subscriptions.retrieve(subscriptionId)).pending_update).toBeNull();
    } finally {
      fake.authenticateUpdates = false;
    }
  });

  it('async payments: completed unpaid, then succeeded (paid) or failed (unpaid)', async () => {
    for (const outcome of ['succeeded', 'failed'] as const) {
      const created = await session({ mode: 'payment', line_items: [{ price: 'price_lifetime', quantity: 1 }], customer_creation: 'always' });
      expect(fake.completeDelayed(created.id, 'sepa@example.com')).toMatchObject({ status: 'complete', payment_status: 'unpaid' });
      const event = fake.asyncPaymentEvent(created.id, outcome);
      expect(event).toMatchObject({ type: `checkout.session.async_payment_${outcome}`, data: { object: { id: created.id, payment_status: outcome === 'succeeded' ? 'paid' : 'unpaid' } } });
    }
  });

  it.each(['won', 'lost'] as const)('a dispute, created then closed as %s', async (outcome) => {
    const created = await session({ mode: 'payment', line_items: [{ price: 'price_lifetime', quantity: 1 }], customer_creation: 'always' });
    fake.complete(created.id, 'dispute@example.com');
    const charge = fake.chargeOf(created.id)!;
    const opened = fake.disputeCreatedEvent(charge.id as string);
    expect(opened).toMatchObject({ type: 'charge.dispute.created', data: { object: { object: 'dispute', charge: charge.id, payment_intent: charge.payment_intent, status: 'needs_response', amount: 79900 } } });
    const closed = fake.disputeClosedEvent(opened.data.object.id as string, outcome);
    expect(closed).toMatchObject({ type: 'charge.dispute.closed', data: { object: { id: opened.data.object.id, status: outcome } } });
    expect(await stripe.charges.retrieve(charge.id as string)).toMatchObject({ disputed: true });
    expect(await stripe.disputes.retrieve(opened.data.object.id as string)).toMatchObject({ status: outcome });
  });

  it('a subscription refund: charge.refunded whose payment intent leads back to the invoice', async () => {
    const { invoiceId } = await paidSubscription();
    const event = fake.subscriptionRefundEvent(invoiceId);
    const charge = event.data.object as unknown as Stripe.Charge;
    expect(event.type).toBe('charge.refunded');
    expect(charge).toMatchObject({ object: 'charge', refunded: true, amount_refunded: 4900, payment_intent: expect.stringMatching(/^pi_/) });
    const payments = await stripe.invoicePayments.list({ payment: { type: 'payment_intent', payment_intent: charge.payment_intent as string } });
    expect(payments.data.map((payment) => payment.invoice)).toEqual([invoiceId]);
    expect(fake.subscriptionRefundEvent(invoiceId, 100).data.object).toMatchObject({ amount_refunded: 4900, refunded: true });
  });

  it('a partial refund is not a full one', async () => {
    const { invoiceId } = await paidSubscription();
    expect(fake.subscriptionRefundEvent(invoiceId, 1000).data.object).toMatchObject({ amount_refunded: 1000, refunded: false });
  });
});
