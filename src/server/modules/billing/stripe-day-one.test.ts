// What a vendor meets on the first day with live Stripe keys: customer ids of the other mode,
// cards that ask for 3-D Secure, and payment methods that settle later.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { userSubscriptions } from '../../db/schema';
import { rowsOfSession, rowsOfUser, signUp, startCheckout, userIdOf } from '../../test-support/billing-test-kit';
import { stripeSuite } from '../../test-support/stripe-test-kit';

const bench = stripeSuite();
const { email, webhook, deliver, lastRequest } = bench;

async function stripeMember(planType: 'monthly' | 'lifetime' = 'monthly') {
  const address = email('day-one');
  const cookie = await signUp(bench.t, address);
  const userId = await userIdOf(bench.t, cookie);
  const { sessionId } = await startCheckout(bench.t, { planType }, cookie);
  const session = bench.stripe.complete(sessionId, address);
  await webhook('checkout.session.completed', session);
  return { cookie, userId, sessionId, session, address };
}

describe('a stored customer Stripe no longer knows (test ids after going live)', () => {
  it('checkout falls back to the e-mail instead of a 502, and the new customer replaces the stale id', async () => {
    const member = await stripeMember();
    const stale = member.session.customer as string;
    expect((await rowsOfUser(bench.t, member.userId))[0]).toMatchObject({ providerCustomerId: stale, providerLivemode: false });
    bench.stripe.forgetCustomer(stale);

    const response = await bench.t.request('/api/create-checkout', { body: { planType: 'lifetime', customerEmail: null, fbc: null, fbp: null, userAgent: 'test', originPage: '/' }, cookie: member.cookie });
    expect(response.status).toBe(200);
    const checkouts = bench.stripe.requests.filter((request) => request.method === 'POST' && request.path === '/v1/checkout/sessions').slice(-2);
    expect(checkouts.map((request) => request.form.get('customer'))).toEqual([stale, null]);
    expect(checkouts[1]!.form.get('customer_email')).toBe(member.address);
    expect((await rowsOfUser(bench.t, member.userId))[0]).toMatchObject({ providerCustomerId: null });

    const { sessionId } = (await response.json()) as { sessionId: string };
    const lifetime = bench.stripe.complete(sessionId, member.address);
    await webhook('checkout.session.completed', lifetime);
    const portal = await bench.t.request('/api/customer-portal', { body: {}, cookie: member.cookie });
    expect(portal.status).toBe(200);
    expect(lastRequest('POST', /^\/v1\/billing_portal\/sessions$/)!.form.get('customer')).toBe(lifetime.customer);
  });

  it('the portal of a stale customer answers no_customer (404, not 502) and forgets the id', async () => {
    const member = await stripeMember();
    bench.stripe.forgetCustomer(member.session.customer as string);
    const portal = await bench.t.request('/api/customer-portal', { body: {}, cookie: member.cookie });
    expect(portal.status).toBe(404);
    expect((await portal.json()).error.code).toBe('no_customer');
    expect((await rowsOfUser(bench.t, member.userId))[0]).toMatchObject({ providerCustomerId: null });
  });

  it('a customer id of the other mode is not sent at all', async () => {
    const member = await stripeMember();
    await bench.t.deps.database.db.update(userSubscriptions).set({ providerLivemode: true }).where(eq(userSubscriptions.userId, member.userId));
    const response = await bench.t.request('/api/create-checkout', { body: { planType: 'lifetime', customerEmail: null, fbc: null, fbp: null, userAgent: 'test', originPage: '/' }, cookie: member.cookie });
    expect(response.status).toBe(200);
    const request = lastRequest('POST', /^\/v1\/checkout\/sessions$/)!;
    expect(request.form.has('customer')).toBe(false);
    expect(request.form.get('customer_email')).toBe(member.address);
  });
});

describe('a plan change on a card that asks for 3-D Secure', () => {
  it('stays pending and hands the member the invoice page; authenticating applies it', async () => {
    const member = await stripeMember();
    bench.stripe.authenticateUpdates = true;
    const update = await bench.t.request('/api/update-subscription', { body: { planType: 'yearly' }, cookie: member.cookie });
    expect(update.status).toBe(402);
    const body = (await update.json()) as { error: { code: string; message: string; details: { url: string } } };
    const sub = bench.stripe.subscriptions.get(member.session.subscription as string)!;
    const invoiceId = sub.latest_invoice as string;
    expect(body.error).toEqual({
      code: 'payment_action_required',
      message: 'Your bank asks you to confirm this payment. Open the secure payment page to approve it; your new plan starts as soon as it is confirmed.',
      details: { url: `https://invoice.stripe.com/i/acct_fake/${invoiceId}` },
    });
    // Only what a pending update allows was sent (the fake refuses anything else, as Stripe does).
    expect(Object.fromEntries(lastRequest('POST', /^\/v1\/subscriptions\//)!.form)).toMatchObject({ payment_behavior: 'pending_if_incomplete', 'items[0][price]': 'price_yearly' });
    expect((await rowsOfSession(bench.t, member.sessionId))[0]).toMatchObject({ planType: 'monthly', isActive: true });

    const action = await deliver(bench.stripe.paymentActionRequiredEvent(invoiceId));
    expect(await action.json()).toEqual({ received: true, result: 'processed' });
    expect((await rowsOfSession(bench.t, member.sessionId))[0]).toMatchObject({ planType: 'monthly', isActive: true });

    for (const event of bench.stripe.authenticateInvoice(invoiceId)) expect((await deliver(event)).status).toBe(200);
    expect((await rowsOfSession(bench.t, member.sessionId))[0]).toMatchObject({ planType: 'yearly', isActive: true });
  });

  it('a declined card is still payment_failed', async () => {
    const member = await stripeMember();
    bench.stripe.declineUpdates = true;
    const update = await bench.t.request('/api/update-subscription', { body: { planType: 'quarterly' }, cookie: member.cookie });
    expect(update.status).toBe(402);
    expect((await update.json()).error.code).toBe('payment_failed');
  });
});

describe('payment methods that settle later', () => {
  async function delayed(planType: 'lifetime' | 'monthly') {
    const { sessionId } = await startCheckout(bench.t, { planType });
    const session = bench.stripe.completeDelayed(sessionId, email(`async-${planType}`));
    expect(await (await webhook('checkout.session.completed', session)).json()).toEqual({ received: true, result: 'processed' });
    expect(await rowsOfSession(bench.t, sessionId)).toEqual([]);
    const details = await bench.t.request('/api/get-payment-details', { body: { sessionId } });
    expect((await details.json()).error.code).toBe('session_not_paid');
    return sessionId;
  }

  it.each(['lifetime', 'monthly'] as const)('%s: async_payment_succeeded fulfils the purchase', async (planType) => {
    const sessionId = await delayed(planType);
    expect((await deliver(bench.stripe.asyncPaymentEvent(sessionId, 'succeeded'))).status).toBe(200);
    expect(await rowsOfSession(bench.t, sessionId)).toEqual([expect.objectContaining({ planType, isActive: true })]);
  });

  it('async_payment_failed leaves nothing granted and the session unpaid', async () => {
    const sessionId = await delayed('lifetime');
    expect(await (await deliver(bench.stripe.asyncPaymentEvent(sessionId, 'failed'))).json()).toEqual({ received: true, result: 'processed' });
    expect(await rowsOfSession(bench.t, sessionId)).toEqual([]);
    const details = await bench.t.request('/api/get-payment-details', { body: { sessionId } });
    expect(details.status).toBe(409);
  });
});
