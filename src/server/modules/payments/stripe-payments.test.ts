import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../logger';
import { buyerBrowser, checkoutBody, checkoutRow, ordersOfSession, rowsOfSession, signUp, startCheckout, userIdOf } from '../../test-support/billing-test-kit';
import { expandOf, FAKE_PRICES, STRIPE_TEST_ENV } from '../../test-support/fake-stripe-server';
import { claimCheckoutSession } from '../fulfilment/fulfilment';
import { paymentEventFailures } from '../../db/schema';
import { createStripePayments } from './stripe-payments';
import { stripeSuite } from '../../test-support/stripe-test-kit';

const bench = stripeSuite();
const { email, webhook, lastRequest } = bench;
const signer = new Stripe('sk_test_signer');

describe('checkout through Stripe', () => {
  it('creates a subscription-mode session with the plan’s price, URLs, metadata and an idempotency key', async () => {
    const { url, sessionId } = await startCheckout(bench.t, { planType: 'monthly', originPage: '/eu', customerEmail: 'Eu.Buyer@Example.com' });
    expect(url).toBe(`https://checkout.stripe.com/c/pay/${sessionId}`);
    const request = lastRequest('POST', /^\/v1\/checkout\/sessions$/)!;
    expect(Object.fromEntries(request.form)).toMatchObject({
      mode: 'subscription',
      'line_items[0][price]': 'price_eu_monthly',
      'line_items[0][quantity]': '1',
      success_url: 'http://localhost:3000/payment-success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://localhost:3000/payment-canceled?from=/eu',
      customer_email: 'eu.buyer@example.com',
      'metadata[planType]': 'euMonthly',
      'metadata[originPage]': '/eu',
      'subscription_data[metadata][planType]': 'euMonthly',
    });
    expect(request.form.has('customer_creation')).toBe(false);
    expect(request.headers['idempotency-key']).toBeTruthy();
    expect(request.headers.authorization).toBe(`Bearer ${STRIPE_TEST_ENV.STRIPE_SECRET_KEY}`);
  });

  // The sale ended: after SALE_ENDS_AT the sale's plans are charged at their regular price ids.
  it('charges the regular price ids once the sale has ended, and the sale ids before', async () => {
    let running = true;
    const campaign = createStripePayments(
      {
        secretKey: STRIPE_TEST_ENV.STRIPE_SECRET_KEY,
        webhookSecret: STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET,
        priceIds: { monthly: 'price_monthly', quarterly: 'price_quarterly', yearly: 'price_yearly', lifetime: 'price_lifetime', euMonthly: 'price_eu_monthly', euQuarterly: 'price_eu_quarterly' },
        regular: { priceIds: { monthly: 'price_monthly_regular', quarterly: 'price_quarterly_regular', yearly: 'price_yearly_regular' }, saleRunning: () => running },
        connection: { host: '127.0.0.1', port: bench.stripe.port, protocol: 'http' },
        timeoutMs: 5_000,
      },
      createLogger('silent'),
    );
    const priceCharged = async (planType: 'monthly' | 'euMonthly') => {
      const input = { planType, mode: 'subscription' as const, customerEmail: null, customerId: null, metadata: {} };
      // the fake Stripe knows only the sale ids and refuses the others; what counts is the id sent
      await campaign
        .createCheckoutSession({ ...input, successUrl: 'http://localhost:3000/payment-success?session_id={CHECKOUT_SESSION_ID}', cancelUrl: 'http://localhost:3000/payment-canceled' })
        .catch(() => undefined);
      return lastRequest('POST', /^\/v1\/checkout\/sessions$/)!.form.get('line_items[0][price]');
    };
    expect(await priceCharged('monthly')).toBe('price_monthly');
    running = false;
    expect(await priceCharged('monthly')).toBe('price_monthly_regular');
    expect(await priceCharged('euMonthly')).toBe('price_eu_monthly');
  });

  it('creates a payment-mode session for lifetime that always makes a customer', async () => {
    await startCheckout(bench.t, { planType: 'lifetime' });
    const request = lastRequest('POST', /^\/v1\/checkout\/sessions$/)!;
    expect(Object.fromEntries(request.form)).toMatchObject({ mode: 'payment', 'line_items[0][price]': 'price_lifetime', customer_creation: 'always', 'payment_intent_data[metadata][planType]': 'lifetime' });
  });

  it('fulfils a subscription from a signed checkout.session.completed webhook, once', async () => {
    const buyer = email('stripe-buyer');
    const { sessionId } = await startCheckout(bench.t, { planType: 'quarterly' });
    const session = bench.stripe.complete(sessionId, buyer);
    const first = await webhook('checkout.session.completed', session, { id: 'evt_complete_once' });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true, result: 'processed' });
    const again = await webhook('checkout.session.completed', session, { id: 'evt_complete_once' });
    expect(await again.json()).toEqual({ received: true, result: 'duplicate' });

    const sub = bench.stripe.subscriptions.get(session.subscription as string)!;
    const item = (sub.items as { data: { current_period_end: number }[] }).data[0]!;
    expect(await rowsOfSession(bench.t, sessionId)).toEqual([
      expect.objectContaining({ provider: 'stripe', planType: 'quarterly', status: 'active', isActive: true, providerSubscriptionId: sub.id, expiresAt: new Date(item.current_period_end * 1000), userId: null }),
    ]);
    expect(await ordersOfSession(bench.t, sessionId)).toEqual([expect.objectContaining({ amount: FAKE_PRICES.price_quarterly!.amount, currency: 'usd' })]);
    const retrieve = lastRequest('GET', new RegExp(`^/v1/checkout/sessions/${sessionId}$`))!;
    expect(expandOf(retrieve.query)).toContain('payment_intent.latest_charge');

    const details = await bench.t.request('/api/get-payment-details', { body: { sessionId }, cookie: buyerBrowser(sessionId) });
    expect(await details.json()).toMatchObject({ email: buyer, planType: 'quarterly', amountTotal: 7200, currency: 'usd', userStatus: 'new' });
  });

  it('refuses a webhook with a bad signature or none, and changes nothing', async () => {
    const { sessionId } = await startCheckout(bench.t, { planType: 'monthly' });
    const session = bench.stripe.complete(sessionId, email('forged'));
    const forged = await webhook('checkout.session.completed', session, { secret: 'whsec_wrong' });
    expect(forged.status).toBe(400);
    expect((await forged.json()).error.message).toBe('Invalid Stripe signature.');
    const unsigned = await bench.t.request('/api/webhooks/stripe', { body: { id: 'evt_x', type: 'checkout.session.completed', data: { object: session } } });
    expect(unsigned.status).toBe(400);
    expect(await rowsOfSession(bench.t, sessionId)).toHaveLength(0);
  });

  it('counts each refused signature for the operators’ alert, in memory', async () => {
    const db = bench.t.deps.database.db;
    const since = new Date(Date.now() - 60_000);
    const before = bench.t.services.signatureRefusals.countSince(since);
    const storedBefore = await db.$count(paymentEventFailures);
    const { sessionId } = await startCheckout(bench.t, { planType: 'monthly' });
    const forged = await webhook('checkout.session.completed', bench.stripe.complete(sessionId, email('forged-count')), { secret: 'whsec_wrong' });
    expect(forged.status).toBe(400);
    expect(bench.t.services.signatureRefusals.countSince(since)).toBe(before + 1);
    expect(await db.$count(paymentEventFailures)).toBe(storedBefore);
  });

  it('rejects a body altered after signing (the raw bytes are what is verified)', async () => {
    const payload = JSON.stringify({ id: 'evt_tamper', object: 'event', type: 'customer.subscription.deleted', created: 1, data: { object: { id: 'sub_x', object: 'subscription' } } });
    const header = signer.webhooks.generateTestHeaderString({ payload, secret: STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET });
    const response = await bench.t.request('/api/webhooks/stripe', { body: payload.replace('sub_x', 'sub_y'), headers: { 'stripe-signature': header } });
    expect(response.status).toBe(400);
  });

  it('fulfils on get-payment-details when the webhook has not arrived', async () => {
    const { sessionId } = await startCheckout(bench.t, { planType: 'lifetime' });
    bench.stripe.complete(sessionId, email('early-stripe'));
    const details = await bench.t.request('/api/get-payment-details', { body: { sessionId } });
    expect(details.status).toBe(200);
    expect(await rowsOfSession(bench.t, sessionId)).toEqual([expect.objectContaining({ planType: 'lifetime', isActive: true, expiresAt: null })]);
  });

  it('answers 404 for a session Stripe does not know and 409 while unpaid', async () => {
    const { sessionId } = await startCheckout(bench.t, { planType: 'monthly' });
    const unpaid = await bench.t.request('/api/get-payment-details', { body: { sessionId } });
    expect(unpaid.status).toBe(409);
    expect((await unpaid.json()).error.code).toBe('session_not_paid');
  });
});

describe('subscription and charge webhooks', () => {
  async function fulfilled(planType: 'monthly' | 'lifetime') {
    const { sessionId } = await startCheckout(bench.t, { planType });
    const session = bench.stripe.complete(sessionId, email(`hooks-${planType}`));
    await webhook('checkout.session.completed', session);
    return session;
  }

  it('writes cancel-at-period-end, resume, renewal and deletion from the re-read subscription', async () => {
    const session = await fulfilled('monthly');
    const sub = bench.stripe.subscriptions.get(session.subscription as string)!;

    sub.cancel_at_period_end = true;
    await webhook('customer.subscription.updated', sub);
    expect((await rowsOfSession(bench.t, session.id as string))[0]).toMatchObject({ cancelAtPeriodEnd: true, isActive: true });

    // An old "updated" event arrives late: the handler re-reads Stripe, so it cannot undo the newer state.
    await webhook('customer.subscription.updated', { ...sub, cancel_at_period_end: false });
    expect((await rowsOfSession(bench.t, session.id as string))[0]).toMatchObject({ cancelAtPeriodEnd: true });

    sub.cancel_at_period_end = false;
    const item = (sub.items as { data: { current_period_start: number; current_period_end: number }[] }).data[0]!;
    item.current_period_start = item.current_period_end;
    item.current_period_end += 30 * 24 * 3600;
    bench.stripe.invoices.set('in_renewal', {
      id: 'in_renewal',
      object: 'invoice',
      customer: sub.customer,
      status: 'paid',
      billing_reason: 'subscription_cycle',
      amount_paid: 3600,
      amount_due: 3600,
      currency: 'usd',
      created: Math.floor(Date.now() / 1000),
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: {} } },
      lines: { object: 'list', data: [], has_more: false },
    });
    await webhook('invoice.paid', bench.stripe.invoices.get('in_renewal'));
    const [renewed] = await rowsOfSession(bench.t, session.id as string);
    expect(renewed).toMatchObject({ cancelAtPeriodEnd: false, expiresAt: new Date(item.current_period_end * 1000) });

    // Deleted mid-period: a canceled plan keeps access until the end of what was paid.
    Object.assign(sub, { status: 'canceled', ended_at: Math.floor(Date.now() / 1000) });
    await webhook('customer.subscription.deleted', sub);
    expect((await rowsOfSession(bench.t, session.id as string))[0]).toMatchObject({ status: 'canceled', isActive: true, expiresAt: new Date(item.current_period_end * 1000) });
  });

  it('a failed renewal payment turns the row past_due', async () => {
    const session = await fulfilled('monthly');
    const sub = bench.stripe.subscriptions.get(session.subscription as string)!;
    sub.status = 'past_due';
    await webhook('invoice.payment_failed', { id: 'in_failed_x', object: 'invoice', parent: { subscription_details: { subscription: sub.id } } });
    expect((await rowsOfSession(bench.t, session.id as string))[0]).toMatchObject({ status: 'past_due', isActive: true });
  });

  it('a full refund of a lifetime charge removes access; a dispute too', async () => {
    for (const change of [{ refunded: true, amount_refunded: 54999 }, { disputed: true }]) {
      const session = await fulfilled('lifetime');
      const chargeId = [...bench.stripe.charges.values()].find((charge) => charge.payment_intent === session.payment_intent)!.id as string;
      Object.assign(bench.stripe.charges.get(chargeId)!, change);
      const response = 'disputed' in change
        ? await webhook('charge.dispute.created', { id: 'dp_1', object: 'dispute', charge: chargeId, payment_intent: session.payment_intent })
        : await webhook('charge.refunded', bench.stripe.charges.get(chargeId));
      expect(response.status).toBe(200);
      expect((await rowsOfSession(bench.t, session.id as string))[0]).toMatchObject({ isActive: false });
    }
  });

  it('a refunded lifetime purchase fulfilled late stays inactive', async () => {
    const { sessionId } = await startCheckout(bench.t, { planType: 'lifetime' });
    const session = bench.stripe.complete(sessionId, email('refunded-first'));
    const chargeId = [...bench.stripe.charges.values()].find((charge) => charge.payment_intent === session.payment_intent)!.id as string;
    Object.assign(bench.stripe.charges.get(chargeId)!, { refunded: true, amount_refunded: 54999 });
    await webhook('charge.refunded', bench.stripe.charges.get(chargeId)); // before any order exists
    await webhook('checkout.session.completed', session);
    expect(await rowsOfSession(bench.t, sessionId)).toEqual([expect.objectContaining({ isActive: false, status: 'canceled' })]);
  });
});

describe('member operations through Stripe', () => {
  async function stripeMember(planType: 'monthly' | 'lifetime' = 'monthly') {
    const address = email('stripe-member');
    const cookie = await signUp(bench.t, address);
    const userId = await userIdOf(bench.t, cookie);
    const { sessionId } = await startCheckout(bench.t, { planType }, cookie);
    const session = bench.stripe.complete(sessionId, address);
    await webhook('checkout.session.completed', session);
    return { cookie, userId, sessionId, session, address };
  }

  it('previews with invoices.createPreview and applies with the same proration date', async () => {
    const member = await stripeMember();
    expect((await checkoutRow(bench.t, member.sessionId))?.claimedByUserId).toBe(member.userId);
    const preview = await bench.t.request('/api/preview-upgrade-cost', { body: { planType: 'yearly' }, cookie: member.cookie });
    expect(preview.status).toBe(200);
    const body = await preview.json();
    expect(body).toMatchObject({ currentPlan: 'monthly', newPlan: 'yearly', newPlanCharge: 20400, currency: 'usd' });
    expect(body.totalDue).toBe(20400 - body.prorationCredit);
    const previewRequest = lastRequest('POST', /^\/v1\/invoices\/create_preview$/)!;
    expect(Object.fromEntries(previewRequest.form)).toMatchObject({
      subscription: member.session.subscription,
      'subscription_details[items][0][price]': 'price_yearly',
      'subscription_details[proration_behavior]': 'always_invoice',
    });

    await new Promise((resolve) => setTimeout(resolve, 1100)); // a second later: the change must still use the previewed date
    const update = await bench.t.request('/api/update-subscription', { body: { planType: 'yearly' }, cookie: member.cookie });
    expect(update.status).toBe(200);
    const updateRequest = lastRequest('POST', new RegExp(`^/v1/subscriptions/${member.session.subscription}$`))!;
    expect(Object.fromEntries(updateRequest.form)).toMatchObject({
      'items[0][price]': 'price_yearly',
      proration_behavior: 'always_invoice',
      payment_behavior: 'pending_if_incomplete',
      proration_date: previewRequest.form.get('subscription_details[proration_date]'),
    });
    expect(updateRequest.headers['idempotency-key']).toBeTruthy();
    expect((await rowsOfSession(bench.t, member.sessionId))[0]).toMatchObject({ planType: 'yearly' });
  });

  it('reports a declined plan change and keeps the plan', async () => {
    const member = await stripeMember();
    bench.stripe.declineUpdates = true;
    const update = await bench.t.request('/api/update-subscription', { body: { planType: 'quarterly' }, cookie: member.cookie });
    expect(update.status).toBe(402);
    expect((await update.json()).error.code).toBe('payment_failed');
    expect((await rowsOfSession(bench.t, member.sessionId))[0]).toMatchObject({ planType: 'monthly' });
  });

  it('opens the billing portal, or says it needs configuring', async () => {
    const member = await stripeMember();
    const ok = await bench.t.request('/api/customer-portal', { body: {}, cookie: member.cookie });
    expect((await ok.json()).url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\//);
    expect(Object.fromEntries(lastRequest('POST', /^\/v1\/billing_portal\/sessions$/)!.form)).toEqual({
      customer: member.session.customer,
      return_url: 'http://localhost:3000/dashboard/settings?section=subscription',
    });
    bench.stripe.portalConfigured = false;
    const unconfigured = await bench.t.request('/api/customer-portal', { body: {}, cookie: member.cookie });
    expect(unconfigured.status).toBe(200);
    expect(await unconfigured.json()).toEqual({ configurationRequired: true, setupUrl: 'https://dashboard.stripe.com/test/settings/billing/portal' });
  });

  it('cancels the replaced subscription after a lifetime purchase', async () => {
    const member = await stripeMember();
    const { sessionId } = await startCheckout(bench.t, { planType: 'lifetime' }, member.cookie);
    const lifetime = bench.stripe.complete(sessionId, member.address);
    await webhook('checkout.session.completed', lifetime);
    await claimCheckoutSession(bench.t.services.entitlements, sessionId, member.userId);
    const cleanup = await bench.t.request('/api/post-payment-cleanup', { body: { email: member.address, newPlanType: 'lifetime' }, cookie: member.cookie });
    expect(await cleanup.json()).toEqual({ success: true });
    expect(lastRequest('DELETE', new RegExp(`^/v1/subscriptions/${member.session.subscription}$`))).toBeTruthy();
    expect((await rowsOfSession(bench.t, member.sessionId))[0]).toMatchObject({ status: 'canceled', isActive: false });
  });

  it('check-subscription re-reads the member’s subscriptions', async () => {
    const member = await stripeMember();
    const sub = bench.stripe.subscriptions.get(member.session.subscription as string)!;
    sub.cancel_at_period_end = true;
    const response = await bench.t.request('/api/check-subscription', { body: {}, cookie: member.cookie });
    expect(await response.json()).toEqual({ success: true });
    expect((await rowsOfSession(bench.t, member.sessionId))[0]).toMatchObject({ cancelAtPeriodEnd: true });
  });
});

describe('when Stripe cannot be reached', () => {
  it('answers 503 provider_unavailable within the timeout instead of hanging', async () => {
    const payments = createStripePayments(
      {
        secretKey: 'sk_test_x',
        webhookSecret: 'whsec_x',
        priceIds: { monthly: 'price_monthly', quarterly: 'q', yearly: 'y', lifetime: 'l', euMonthly: 'em', euQuarterly: 'eq' },
        connection: { host: '127.0.0.1', port: 9, protocol: 'http' }, // nothing listens on the discard port
        timeoutMs: 500,
      },
      createLogger('silent'),
    );
    await expect(payments.createCheckoutSession({ planType: 'monthly', mode: 'subscription', customerEmail: null, customerId: null, successUrl: 'http://x/s', cancelUrl: 'http://x/c', metadata: {} })).rejects.toMatchObject({
      status: 503,
      code: 'provider_unavailable',
    });
  });

  it('validates checkout input before calling Stripe', async () => {
    const before = bench.stripe.requests.length;
    const response = await bench.t.request('/api/create-checkout', { body: { ...checkoutBody(), planType: 'nope' } });
    expect(response.status).toBe(400);
    expect(bench.stripe.requests.length).toBe(before);
  });
});
