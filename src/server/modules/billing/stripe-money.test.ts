// The money rules through the Stripe adapter against the local Stripe look-alike: duplicate
// payments refunded, refunds, disputes and cancellations that end access, serialised plan changes.
import { describe, expect, it } from 'vitest';
import { buyerBrowser, checkoutRow, ordersOfSession, rowsOfSession, signUp, startCheckout } from '../../test-support/billing-test-kit';
import { stripeSuite } from '../../test-support/stripe-test-kit';

const bench = stripeSuite();
const { webhook } = bench;
let counter = 0;
const email = (name: string) => `${name}-${++counter}@example.com`;
const DAY = 24 * 60 * 60;

type Json = Record<string, unknown>;
const requestsTo = (method: string, path: RegExp) => bench.stripe.requests.filter((request) => request.method === method && path.test(request.path));
const access = async (cookie: string) => ((await (await bench.t.request('/api/access', { cookie })).json()) as { hasAccess: boolean }).hasAccess;

/** The charge that paid a session: its payment intent's, or its first invoice's. */
function chargeOf(session: Json): Json {
  return bench.stripe.chargeOf((session.payment_intent ? session.id : session.invoice) as string)!;
}

async function member(planType: 'monthly' | 'lifetime' = 'monthly') {
  const address = email(`stripe-${planType}`);
  const cookie = await signUp(bench.t, address);
  const { sessionId } = await startCheckout(bench.t, { planType }, cookie);
  const session = bench.stripe.complete(sessionId, address);
  expect((await webhook('checkout.session.completed', session)).status).toBe(200);
  return { address, cookie, sessionId, session };
}

describe('duplicate payments through Stripe', () => {
  it('two paid checkouts of one e-mail, delivered at once: one active subscription, one refund, one cancellation', async () => {
    const buyer = email('stripe-two-tabs');
    const first = await startCheckout(bench.t, { planType: 'monthly' });
    const second = await startCheckout(bench.t, { planType: 'monthly', originPage: '/eu' });
    const sessions = [bench.stripe.complete(first.sessionId, buyer), bench.stripe.complete(second.sessionId, buyer)];
    const refundsBefore = bench.stripe.refunds.size;
    const answers = await Promise.all(sessions.map((session) => webhook('checkout.session.completed', session)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);

    const rows = [...(await rowsOfSession(bench.t, first.sessionId)), ...(await rowsOfSession(bench.t, second.sessionId))];
    expect(rows.filter((row) => row.isActive)).toHaveLength(1);
    const duplicate = rows.find((row) => !row.isActive)!;
    expect(duplicate.revokedReason).toBe('duplicate');
    const duplicateSession = sessions.find((session) => session.subscription === duplicate.providerSubscriptionId)!;
    const kept = sessions.find((session) => session !== duplicateSession)!;

    expect(bench.stripe.refunds.size).toBe(refundsBefore + 1);
    const refund = [...bench.stripe.refunds.values()].at(-1)!;
    expect(refund).toMatchObject({ amount: duplicateSession.amount_total, reason: 'duplicate', charge: chargeOf(duplicateSession).id });
    expect(bench.stripe.subscriptions.get(duplicateSession.subscription as string)).toMatchObject({ status: 'canceled' });
    expect(bench.stripe.subscriptions.get(kept.subscription as string)).toMatchObject({ status: 'active' });
    expect(await checkoutRow(bench.t, duplicateSession.id as string)).toMatchObject({ duplicateStatus: 'refunded' });

    // The refund's own webhook later changes nothing more; the buyer is told on /payment-success.
    expect((await webhook('charge.refunded', chargeOf(duplicateSession))).status).toBe(200);
    expect(await ordersOfSession(bench.t, duplicateSession.id as string)).toEqual([expect.objectContaining({ status: 'refunded' })]);
    const details = await bench.t.request('/api/get-payment-details', { body: { sessionId: duplicateSession.id }, cookie: buyerBrowser(duplicateSession.id as string) });
    expect((await details.json()).error.code).toBe('duplicate_payment');

    // A repeated delivery neither refunds nor cancels again.
    await webhook('checkout.session.completed', duplicateSession);
    expect(bench.stripe.refunds.size).toBe(refundsBefore + 1);
    // …nor does a retry once Stripe has forgotten the idempotency key: the charge is refunded already.
    await expect(bench.t.deps.payments.refundPayment({ paymentId: duplicateSession.invoice as string, amount: null, reason: 'duplicate', idempotencyKey: 'another-key' })).resolves.toBeUndefined();
    expect(bench.stripe.refunds.size).toBe(refundsBefore + 1);
  });

  it('a payment expires the member’s other open checkouts with checkout.sessions.expire', async () => {
    const address = email('stripe-expire');
    const cookie = await signUp(bench.t, address);
    const paid = await startCheckout(bench.t, { planType: 'monthly' }, cookie);
    const other = await startCheckout(bench.t, { planType: 'lifetime' }, cookie);
    await webhook('checkout.session.completed', bench.stripe.complete(paid.sessionId, address));
    expect(requestsTo('POST', new RegExp(`^/v1/checkout/sessions/${other.sessionId}/expire$`))).toHaveLength(1);
    expect(bench.stripe.sessions.get(other.sessionId)).toMatchObject({ status: 'expired' });
    expect(await checkoutRow(bench.t, other.sessionId)).toMatchObject({ status: 'expired' });
  });

  it('lifetime over a monthly plan cancels it and refunds the unused part of the period', async () => {
    const monthly = await member('monthly');
    const sub = bench.stripe.subscriptions.get(monthly.session.subscription as string)!;
    const item = (sub.items as { data: { current_period_start: number; current_period_end: number }[] }).data[0]!;
    const now = Math.floor(Date.now() / 1000);
    Object.assign(item, { current_period_start: now - 10 * DAY, current_period_end: now + 20 * DAY });
    const { sessionId } = await startCheckout(bench.t, { planType: 'lifetime' }, monthly.cookie);
    const refundsBefore = bench.stripe.refunds.size;
    await webhook('checkout.session.completed', bench.stripe.complete(sessionId, monthly.address));

    expect(bench.stripe.refunds.size).toBe(refundsBefore + 1);
    const refund = [...bench.stripe.refunds.values()].at(-1)!;
    expect(refund).toMatchObject({ charge: chargeOf(monthly.session).id, reason: 'requested_by_customer' });
    // two thirds of 36.00 left, give or take the seconds the test takes
    expect(refund.amount).toBeGreaterThanOrEqual(2390);
    expect(refund.amount).toBeLessThanOrEqual(2400);
    expect(sub.status).toBe('canceled');
    expect(await rowsOfSession(bench.t, monthly.sessionId)).toEqual([expect.objectContaining({ isActive: false, revokedReason: 'replaced' })]);
    expect(await rowsOfSession(bench.t, sessionId)).toEqual([expect.objectContaining({ planType: 'lifetime', isActive: true })]);
    expect(await access(monthly.cookie)).toBe(true);
  });
});

describe('refunds, disputes and cancellations through Stripe', () => {
  it('a refunded subscription payment reaches its order through the payment intent and ends access', async () => {
    const { cookie, sessionId, session } = await member();
    const charge = chargeOf(session);
    const [order] = await ordersOfSession(bench.t, sessionId);
    expect(order).toMatchObject({ providerPaymentId: session.invoice, providerPaymentIntentId: charge.payment_intent });
    Object.assign(charge, { refunded: true, amount_refunded: charge.amount });
    expect((await webhook('charge.refunded', charge)).status).toBe(200);
    expect(await ordersOfSession(bench.t, sessionId)).toEqual([expect.objectContaining({ status: 'refunded' })]);
    expect(await access(cookie)).toBe(false);
  });

  it.each(['monthly', 'lifetime'] as const)('a %s dispute: open removes access, won restores it, lost keeps it gone', async (planType) => {
    const won = await member(planType);
    const wonCharge = chargeOf(won.session).id as string;
    await webhook('charge.dispute.created', bench.stripe.dispute(wonCharge, 'needs_response'));
    expect(await access(won.cookie)).toBe(false);
    await webhook('charge.dispute.closed', bench.stripe.dispute(wonCharge, 'won'));
    expect(bench.stripe.charges.get(wonCharge)).toMatchObject({ disputed: true });
    expect(await access(won.cookie)).toBe(true);
    expect(await ordersOfSession(bench.t, won.sessionId)).toEqual([expect.objectContaining({ status: 'paid' })]);

    const lost = await member(planType);
    const lostCharge = chargeOf(lost.session).id as string;
    await webhook('charge.dispute.created', bench.stripe.dispute(lostCharge, 'needs_response'));
    await webhook('charge.dispute.closed', bench.stripe.dispute(lostCharge, 'lost'));
    expect(await access(lost.cookie)).toBe(false);
    expect(await ordersOfSession(bench.t, lost.sessionId)).toEqual([expect.objectContaining({ status: 'disputed' })]);
  });

  it('cancelled at once from the dashboard: access until the end of the paid period; refunded as well: access ends', async () => {
    const { cookie, sessionId, session } = await member();
    const sub = bench.stripe.subscriptions.get(session.subscription as string)!;
    const end = (sub.items as { data: { current_period_end: number }[] }).data[0]!.current_period_end;
    const now = Math.floor(Date.now() / 1000);
    Object.assign(sub, { status: 'canceled', canceled_at: now, ended_at: now });
    await webhook('customer.subscription.deleted', sub);
    expect(await rowsOfSession(bench.t, sessionId)).toEqual([expect.objectContaining({ status: 'canceled', isActive: true, expiresAt: new Date(end * 1000) })]);
    expect(await access(cookie)).toBe(true);

    const charge = chargeOf(session);
    Object.assign(charge, { refunded: true, amount_refunded: charge.amount });
    await webhook('charge.refunded', charge);
    expect(await access(cookie)).toBe(false);
  });
});

describe('concurrent plan changes through Stripe', () => {
  it('5 concurrent changes: one subscriptions.update with the new price, five answers of success', async () => {
    const { cookie, session } = await member();
    const updatesBefore = requestsTo('POST', new RegExp(`^/v1/subscriptions/${session.subscription}$`)).length;
    const responses = await Promise.all(Array.from({ length: 5 }, () => bench.t.request('/api/update-subscription', { body: { planType: 'yearly' }, cookie })));
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    const updates = requestsTo('POST', new RegExp(`^/v1/subscriptions/${session.subscription}$`)).slice(updatesBefore);
    expect(updates.filter((request) => request.form.get('items[0][price]') === 'price_yearly')).toHaveLength(1);
    expect(await (await bench.t.request('/api/subscription', { cookie })).json()).toMatchObject({ planType: 'yearly' });
  });

  it('a change after a declined one is not blocked', async () => {
    const { cookie, session } = await member();
    bench.stripe.declineUpdates = true;
    expect((await bench.t.request('/api/update-subscription', { body: { planType: 'quarterly' }, cookie })).status).toBe(402);
    bench.stripe.declineUpdates = false;
    // the card was fixed meanwhile; the pending update expired at Stripe
    bench.stripe.subscriptions.get(session.subscription as string)!.pending_update = null;
    expect((await bench.t.request('/api/update-subscription', { body: { planType: 'quarterly' }, cookie })).status).toBe(200);
  });
});
