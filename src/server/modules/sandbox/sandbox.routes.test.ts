import { describe, expect, it } from 'vitest';
import { sandboxCheckoutSchema, sandboxPortalSchema } from '@shared/sandbox-contract';
import type { TestApp } from '../../test-support/test-app';
import { billingSuite, buyerBrowser, CARDS, DAY_MS, payBody, payOnPage, rowsOfSession, startCheckout } from '../../test-support/billing-test-kit';

let t: TestApp;
const { time, email } = billingSuite((app) => (t = app));

describe('the sandbox hosted checkout API', () => {
  it('shows an open checkout: plan, price, period and where cancel goes', async () => {
    const { sessionId } = await startCheckout(t, { planType: 'quarterly', originPage: '/eu' });
    const response = await t.request(`/api/sandbox/checkout/${sessionId}`);
    expect(sandboxCheckoutSchema.parse(await response.json())).toEqual({
      id: sessionId,
      status: 'open',
      mode: 'subscription',
      planType: 'euQuarterly',
      amount: 5999,
      currency: 'usd',
      intervalMonths: 3,
      customerEmail: null,
      cancelUrl: 'http://localhost:3000/payment-canceled?from=/eu',
      successUrl: null,
      // no STRIPE_TAX: the page collects no billing address
      tax: null,
      // no code applied by the shop: the buyer may type one
      discount: null,
      allowPromotionCodes: true,
    });
  });

  it('answers 404 for an unknown checkout and 400 for a malformed id', async () => {
    expect((await t.request('/api/sandbox/checkout/cs_sbx_nope')).status).toBe(404);
    expect((await t.request('/api/sandbox/checkout/cs%20bad!')).status).toBe(400);
  });

  it('pays with 4242… and answers the success URL with the session id', async () => {
    const { sessionId } = await startCheckout(t, { planType: 'monthly' });
    const response = await payOnPage(t, sessionId, email('payer'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ redirectUrl: `http://localhost:3000/payment-success?session_id=${sessionId}` });
    expect(await rowsOfSession(t, sessionId)).toEqual([expect.objectContaining({ isActive: true, planType: 'monthly' })]);
    const after = await (await t.request(`/api/sandbox/checkout/${sessionId}`)).json();
    expect(after).toMatchObject({ status: 'complete', successUrl: `http://localhost:3000/payment-success?session_id=${sessionId}` });
    const twice = await payOnPage(t, sessionId, email('payer'));
    expect(twice.status).toBe(409);
    expect((await twice.json()).error.message).toBe('This checkout has already been paid.');
  });

  it.each([
    { card: CARDS.declined, message: 'Your card was declined.' },
    { card: CARDS.insufficient, message: 'Your card has insufficient funds.' },
  ])('declines $card with "$message" and leaves the checkout open', async ({ card, message }) => {
    const { sessionId } = await startCheckout(t, { planType: 'lifetime' });
    const response = await payOnPage(t, sessionId, email('declined'), card);
    expect(response.status).toBe(402);
    expect((await response.json()).error).toEqual({ code: 'payment_failed', message });
    expect((await (await t.request(`/api/sandbox/checkout/${sessionId}`)).json()).status).toBe('open');
    expect(await rowsOfSession(t, sessionId)).toHaveLength(0);
  });

  it('names each invalid field', async () => {
    const { sessionId } = await startCheckout(t);
    const response = await t.request(`/api/sandbox/checkout/${sessionId}/pay`, {
      body: { email: 'nope', cardNumber: '4242 4242 4242 4241', expiry: '01 / 20', cvc: '1', name: '' },
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.code).toBe('validation_failed');
    expect(Object.fromEntries(body.error.details.map((detail: { path: string; message: string }) => [detail.path, detail.message]))).toEqual({
      cardNumber: 'Your card number is invalid.',
      expiry: "Your card's expiration year is in the past.",
      cvc: "Your card's security code is incomplete.",
      name: 'Name on card is required.',
      email: 'Please enter a valid email address.',
    });
  });

  it('uses the e-mail the shop fixed and ignores a typed one', async () => {
    const { sessionId } = await startCheckout(t, { planType: 'monthly', customerEmail: 'fixed@example.com' });
    expect((await (await t.request(`/api/sandbox/checkout/${sessionId}`, { cookie: buyerBrowser(sessionId) })).json()).customerEmail).toBe('fixed@example.com');
    await t.request(`/api/sandbox/checkout/${sessionId}/pay`, { body: payBody('other@example.com') });
    const details = await t.request('/api/get-payment-details', { body: { sessionId }, cookie: buyerBrowser(sessionId) });
    expect((await details.json()).email).toBe('fixed@example.com');
  });

  it('shows the whole e-mail only to the browser that started the checkout, before and after payment', async () => {
    const { sessionId } = await startCheckout(t, { planType: 'monthly', customerEmail: 'Whole.Address@example.com' });
    const other = await startCheckout(t);
    const seen = async (cookie?: string) => {
      const response = await t.request(`/api/sandbox/checkout/${sessionId}`, cookie ? { cookie } : {});
      expect(response.headers.get('cache-control')).toBe('no-store');
      return sandboxCheckoutSchema.parse(await response.json()).customerEmail;
    };
    expect(await seen(buyerBrowser(sessionId))).toBe('whole.address@example.com');
    expect(await seen()).toBe('w***@example.com');
    expect(await seen(buyerBrowser(other.sessionId))).toBe('w***@example.com');

    const typed = await startCheckout(t);
    expect((await payOnPage(t, typed.sessionId, 'typed.buyer@example.com')).status).toBe(200);
    const after = await t.request(`/api/sandbox/checkout/${typed.sessionId}`);
    expect(await after.text()).not.toContain('typed.buyer@example.com');
  });

  it('refuses a checkout older than 24 hours', async () => {
    const { sessionId } = await startCheckout(t);
    time.advance(DAY_MS + 1000);
    expect((await (await t.request(`/api/sandbox/checkout/${sessionId}`)).json()).status).toBe('expired');
    const response = await payOnPage(t, sessionId, email('late'));
    expect(response.status).toBe(410);
  });

  it('refuses bodies of the wrong shape with a 400', async () => {
    const { sessionId } = await startCheckout(t);
    expect((await t.request(`/api/sandbox/checkout/${sessionId}/pay`, { body: { cardNumber: 4242 } })).status).toBe(400);
  });
});

describe('the sandbox customer portal API', () => {
  it('lists the customer’s subscriptions and invoices, with the card and the way back', async () => {
    const { sessionId } = await startCheckout(t, { planType: 'yearly' });
    await payOnPage(t, sessionId, email('portal'));
    const [row] = await rowsOfSession(t, sessionId);
    const portal = sandboxPortalSchema.parse(await (await t.request(`/api/sandbox/portal/${row!.providerCustomerId}`)).json());
    expect(portal).toMatchObject({
      customerId: row!.providerCustomerId,
      card: { brand: 'Visa', last4: '4242' },
      returnUrl: '/dashboard/settings?section=subscription',
      subscriptions: [{ id: row!.providerSubscriptionId, planType: 'yearly', status: 'active', amount: 20400, intervalMonths: 12, cancelAtPeriodEnd: false }],
      invoices: [{ amountDue: 20400, status: 'paid' }],
    });
  });

  it('answers 404 for an unknown customer or someone else’s subscription', async () => {
    expect((await t.request('/api/sandbox/portal/cus_sbx_nobody')).status).toBe(404);
    const a = await startCheckout(t);
    await payOnPage(t, a.sessionId, email('a'));
    const b = await startCheckout(t);
    await payOnPage(t, b.sessionId, email('b'));
    const [rowA] = await rowsOfSession(t, a.sessionId);
    const [rowB] = await rowsOfSession(t, b.sessionId);
    const response = await t.request(`/api/sandbox/portal/${rowA!.providerCustomerId}/subscriptions/${rowB!.providerSubscriptionId}/cancel`, { body: {} });
    expect(response.status).toBe(404);
    expect((await rowsOfSession(t, b.sessionId))[0]?.cancelAtPeriodEnd).toBe(false);
  });
});

describe('Stripe webhooks while the sandbox runs', () => {
  it('are not accepted', async () => {
    const response = await t.request('/api/webhooks/stripe', { body: '{}', headers: { 'stripe-signature': 't=1,v1=x' } });
    expect(response.status).toBe(404);
  });
});
