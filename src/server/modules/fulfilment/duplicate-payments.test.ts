// The money rules in the sandbox: a buyer never holds two paid subscriptions, refunds, disputes
// and cancellations end access as they should, plan changes are serialised.
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { unusedPeriodRefund } from '@shared/payment-rules';
import { orders, sandboxCheckoutSessions, sandboxInvoices, sandboxSubscriptions, userSubscriptions } from '../../db/schema';
import type { TestApp } from '../../test-support/test-app';
import { billingSuite, buy, buyerBrowser, CARDS, checkoutRow, DAY_MS, jobsOf, ordersOfSession, payOnPage, rowsOfSession, sandboxOf, signUp, startCheckout, undeliveredEvents, userIdOf } from '../../test-support/billing-test-kit';
import { listOutboxMails } from '../mail/outbox.repository';
import { createPaymentEventHandler } from './fulfilment';
import type { PaymentEvent } from '../payments/payments.port';

let t: TestApp;
const { time, email } = billingSuite((app) => (t = app));

const db = () => t.deps.database.db;
const flush = async () => {
  // settlement emits events of its own (cancellation, refund): deliver until none are left
  for (let pass = 0; pass < 5 && (await undeliveredEvents(t)).length > 0; pass += 1) await jobsOf(t).runOnce();
};

async function activeRowsFor(address: string) {
  const rows = await db()
    .select({ id: userSubscriptions.id, planType: userSubscriptions.planType, checkoutSessionId: userSubscriptions.checkoutSessionId })
    .from(userSubscriptions)
    .where(
      and(
        eq(userSubscriptions.isActive, true),
        sql`(${userSubscriptions.checkoutSessionId} IN (SELECT id FROM checkout_sessions WHERE email = ${address}) OR ${userSubscriptions.userId} IN (SELECT id FROM "user" WHERE email = ${address}))`,
      ),
    );
  return rows;
}

async function invoicesOfSession(sessionId: string) {
  const [session] = await db().select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.id, sessionId));
  return db().select().from(sandboxInvoices).where(eq(sandboxInvoices.customerId, session!.customerId!));
}

async function sandboxSubscriptionOf(sessionId: string) {
  const [session] = await db().select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.id, sessionId));
  const [sub] = await db().select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, session!.subscriptionId!));
  return sub!;
}

const refundedOf = async (sessionId: string) => (await invoicesOfSession(sessionId)).reduce((sum, invoice) => sum + invoice.amountRefunded, 0);

describe('one paid subscription per buyer', () => {
  it('two tabs paying with the same typed e-mail: one active subscription, the second refunded in full and cancelled', async () => {
    const buyer = email('two-tabs');
    const first = await startCheckout(t, { planType: 'monthly' });
    const second = await startCheckout(t, { planType: 'monthly' });
    expect((await payOnPage(t, first.sessionId, buyer)).status).toBe(200);
    expect((await payOnPage(t, second.sessionId, buyer)).status).toBe(200);
    await flush();

    expect(await activeRowsFor(buyer)).toEqual([expect.objectContaining({ checkoutSessionId: first.sessionId })]);
    expect(await refundedOf(first.sessionId)).toBe(0);
    expect(await refundedOf(second.sessionId)).toBe(3600);
    expect((await sandboxSubscriptionOf(second.sessionId)).status).toBe('canceled');
    expect((await sandboxSubscriptionOf(first.sessionId)).status).toBe('active');
    expect(await checkoutRow(t, second.sessionId)).toMatchObject({ duplicateStatus: 'refunded' });
    expect(await checkoutRow(t, first.sessionId)).toMatchObject({ duplicateStatus: null });
    expect(await ordersOfSession(t, second.sessionId)).toEqual([expect.objectContaining({ status: 'refunded' })]);
    expect(await rowsOfSession(t, second.sessionId)).toEqual([expect.objectContaining({ isActive: false, revokedReason: 'duplicate' })]);
    // one welcome: the refunded payment gets no receipt and no set-up link of its own
    const mails = await listOutboxMails(db(), { to: buyer });
    expect(mails.filter((mail) => mail.template === 'receipt').map((mail) => mail.dedupeKey)).toEqual([expect.stringContaining(first.sessionId)]);
    expect(mails.filter((mail) => mail.template === 'finish_setup').map((mail) => mail.dedupeKey)).toEqual([expect.stringContaining(first.sessionId)]);

    // The buyer sees why on /payment-success instead of a second activation.
    const details = await t.request('/api/get-payment-details', { body: { sessionId: second.sessionId }, cookie: buyerBrowser(second.sessionId) });
    expect(details.status).toBe(409);
    expect((await details.json()).error).toMatchObject({ code: 'duplicate_payment', message: expect.stringMatching(/refunded in full/) });
    const verify = await t.request('/api/verify-payment', { body: { sessionId: second.sessionId, password: 'Sup3rSecret!' }, cookie: buyerBrowser(second.sessionId) });
    expect((await verify.json()).error.code).toBe('duplicate_payment');
    expect((await t.request('/api/get-payment-details', { body: { sessionId: first.sessionId }, cookie: buyerBrowser(first.sessionId) })).status).toBe(200);
  });

  it('/, /eu and a signed-in purchase of one member: one subscription, two refunds', async () => {
    const buyer = email('three-ways');
    const cookie = await signUp(t, buyer);
    const userId = await userIdOf(t, cookie);
    const home = await startCheckout(t, { planType: 'monthly' });
    const eu = await startCheckout(t, { planType: 'monthly', originPage: '/eu' });
    const member = await startCheckout(t, { planType: 'quarterly' }, cookie);
    for (const { sessionId } of [member, home, eu]) expect((await payOnPage(t, sessionId, buyer)).status).toBe(200);
    await flush();

    const active = await activeRowsFor(buyer);
    expect(active).toEqual([expect.objectContaining({ checkoutSessionId: member.sessionId, planType: 'quarterly' })]);
    expect(await refundedOf(home.sessionId)).toBe(3600);
    expect(await refundedOf(eu.sessionId)).toBe(2999);
    const ordersOfBuyer = await db().select().from(orders).where(sql`${orders.checkoutSessionId} IN (${sql.join([member, home, eu].map(({ sessionId }) => sql`${sessionId}`), sql`, `)})`);
    expect(ordersOfBuyer.map((order) => order.status).sort()).toEqual(['paid', 'refunded', 'refunded']);
    expect(await (await t.request('/api/access', { cookie })).json()).toEqual({ hasAccess: true });
    expect(await db().select().from(userSubscriptions).where(and(eq(userSubscriptions.userId, userId), eq(userSubscriptions.isActive, true)))).toHaveLength(1);
  });

  it('a payment expires the buyer’s other open checkouts at the provider', async () => {
    const buyer = email('expire-others');
    const cookie = await signUp(t, buyer);
    const paid = await startCheckout(t, { planType: 'monthly' }, cookie);
    const other = await startCheckout(t, { planType: 'yearly' }, cookie);
    const lifetime = await startCheckout(t, { planType: 'lifetime' }, cookie);
    expect((await payOnPage(t, paid.sessionId, null)).status).toBe(200);
    await flush();

    for (const { sessionId } of [other, lifetime]) {
      expect((await sandboxOf(t).sandbox.getCheckout(sessionId))?.status).toBe('expired');
      expect(await checkoutRow(t, sessionId)).toMatchObject({ status: 'expired' });
      expect((await payOnPage(t, sessionId, null)).status).toBe(410);
    }
  });

  it('two deliveries for two sessions of one buyer at the same time, on two instances: one active subscription', async () => {
    const buyer = email('racing');
    for (const older of await undeliveredEvents(t)) await sandboxOf(t).sandbox.markDelivered(older.id);
    const sessions = [await startCheckout(t, { planType: 'monthly' }), await startCheckout(t, { planType: 'yearly' })];
    for (const { sessionId } of sessions) await sandboxOf(t).sandbox.pay(sessionId, { email: buyer, cardNumber: CARDS.ok, expiry: '12 / 39', cvc: '123', name: 'R' });
    const events = (await undeliveredEvents(t)).map((row) => ({ id: row.id, type: row.type, created: row.createdAt, ...(row.payload as object) }) as PaymentEvent);
    for (const event of events) await sandboxOf(t).sandbox.markDelivered(event.id);
    const instance = () => createPaymentEventHandler({ db: db(), payments: t.deps.payments, logger: t.deps.logger, clock: time.clock, entitlements: t.services.entitlements });
    const [a, b] = [instance(), instance()];
    const completed = events.filter((event) => event.type === 'checkout.session.completed');
    expect(completed).toHaveLength(2);
    await Promise.all([a.handle(completed[0]!), b.handle(completed[1]!), a.handle(completed[1]!), b.handle(completed[0]!)]);
    await Promise.all(events.filter((event) => event.type !== 'checkout.session.completed').map((event, i) => (i % 2 ? a : b).handle(event)));
    await flush();

    expect(await activeRowsFor(buyer)).toHaveLength(1);
    const refunds = await Promise.all(sessions.map(({ sessionId }) => refundedOf(sessionId)));
    expect(refunds.filter((amount) => amount > 0)).toHaveLength(1);
    const statuses = await Promise.all(sessions.map(async ({ sessionId }) => (await checkoutRow(t, sessionId))?.duplicateStatus ?? null));
    expect(statuses.sort()).toEqual(['refunded', null].sort());
  });

  it('lifetime over lifetime is a duplicate, refunded in full', async () => {
    const buyer = email('lifetime-twice');
    const first = await startCheckout(t, { planType: 'lifetime' });
    const second = await startCheckout(t, { planType: 'lifetime' });
    await payOnPage(t, first.sessionId, buyer);
    await payOnPage(t, second.sessionId, buyer);
    await flush();
    expect(await activeRowsFor(buyer)).toEqual([expect.objectContaining({ checkoutSessionId: first.sessionId })]);
    expect(await refundedOf(second.sessionId)).toBe(54999);
  });

  it('lifetime bought over an active subscription cancels it with a refund of the unused paid time', async () => {
    const buyer = email('to-lifetime');
    const cookie = await signUp(t, buyer);
    const monthly = await buy(t, buyer, { planType: 'monthly' }, cookie);
    const sub = await sandboxSubscriptionOf(monthly);
    time.set(new Date(sub.currentPeriodStart.getTime() + 10 * DAY_MS));
    try {
      const lifetime = await buy(t, buyer, { planType: 'lifetime' }, cookie);
      await flush();
      const expected = unusedPeriodRefund({ amountPaid: 3600, periodStart: sub.currentPeriodStart, periodEnd: sub.currentPeriodEnd, at: time.now() });
      expect(expected).toBeGreaterThan(0);
      expect(expected).toBeLessThan(3600);
      expect(await refundedOf(monthly)).toBe(expected);
      expect((await sandboxSubscriptionOf(monthly)).status).toBe('canceled');
      expect(await activeRowsFor(buyer)).toEqual([expect.objectContaining({ checkoutSessionId: lifetime, planType: 'lifetime' })]);
      expect(await rowsOfSession(t, monthly)).toEqual([expect.objectContaining({ isActive: false, revokedReason: 'replaced' })]);
      // post-payment-cleanup afterwards changes nothing more
      const cleanup = await t.request('/api/post-payment-cleanup', { body: { email: buyer, newPlanType: 'lifetime' }, cookie });
      expect(await cleanup.json()).toEqual({ success: true });
      expect(await refundedOf(monthly)).toBe(expected);
    } finally {
      time.set(new Date());
    }
  });
});

describe('settling again later', () => {
  it('a refunded lifetime purchase delivered again does not end a subscription bought after it', async () => {
    const buyer = email('refunded-lifetime');
    const cookie = await signUp(t, buyer);
    const lifetime = await buy(t, buyer, { planType: 'lifetime' }, cookie);
    await flush();
    const [charge] = await invoicesOfSession(lifetime);
    await t.deps.payments.refundPayment({ paymentId: charge!.id, amount: null, reason: 'requested_by_customer', idempotencyKey: 'lifetime-refund' });
    await flush();
    const monthly = await buy(t, buyer, { planType: 'monthly' }, cookie);
    await flush();
    expect(await activeRowsFor(buyer)).toEqual([expect.objectContaining({ checkoutSessionId: monthly })]);

    const handler = createPaymentEventHandler({ db: db(), payments: t.deps.payments, logger: t.deps.logger, clock: time.clock, entitlements: t.services.entitlements });
    await handler.handle({ id: `evt_again_${lifetime}`, type: 'checkout.session.completed', created: time.now(), checkoutSessionId: lifetime });
    await flush();
    expect(await activeRowsFor(buyer)).toEqual([expect.objectContaining({ checkoutSessionId: monthly })]);
    const sub = await sandboxSubscriptionOf(monthly);
    expect(sub.status).toBe('active');
    const invoices = await db().select().from(sandboxInvoices).where(eq(sandboxInvoices.subscriptionId, sub.id));
    expect(invoices.map((invoice) => invoice.amountRefunded)).toEqual([0]);
  });
});

describe('refunds, disputes and cancellations', () => {
  async function member(planType: 'monthly' | 'lifetime' = 'monthly') {
    const buyer = email(`reversal-${planType}`);
    const cookie = await signUp(t, buyer);
    const sessionId = await buy(t, buyer, { planType }, cookie);
    await flush();
    const [invoice] = await invoicesOfSession(sessionId);
    return { cookie, sessionId, chargeId: invoice!.id };
  }
  const access = async (cookie: string) => ((await (await t.request('/api/access', { cookie })).json()) as { hasAccess: boolean }).hasAccess;

  it('a full refund of a subscription payment reaches its order (stored by invoice, charged by payment intent) and ends access', async () => {
    const { cookie, sessionId, chargeId } = await member();
    const [order] = await ordersOfSession(t, sessionId);
    expect(order?.providerPaymentId).toBe(chargeId);
    expect(order?.providerPaymentIntentId).toMatch(/^pi_sbx_/);
    await t.deps.payments.refundPayment({ paymentId: chargeId, amount: null, reason: 'requested_by_customer', idempotencyKey: 'test' });
    await flush();
    expect(await ordersOfSession(t, sessionId)).toEqual([expect.objectContaining({ status: 'refunded' })]);
    expect(await rowsOfSession(t, sessionId)).toEqual([expect.objectContaining({ isActive: false, revokedReason: 'refunded' })]);
    expect(await access(cookie)).toBe(false);
  });

  it('a partial refund keeps access', async () => {
    const { cookie, sessionId, chargeId } = await member();
    await t.deps.payments.refundPayment({ paymentId: chargeId, amount: 500, reason: 'requested_by_customer', idempotencyKey: 'partial' });
    await flush();
    expect(await ordersOfSession(t, sessionId)).toEqual([expect.objectContaining({ status: 'paid' })]);
    expect(await access(cookie)).toBe(true);
  });

  it.each(['monthly', 'lifetime'] as const)('a %s dispute removes access; won gives it back; lost keeps it gone', async (planType) => {
    const won = await member(planType);
    await sandboxOf(t).sandbox.disputeCharge(won.chargeId, 'needs_response');
    await flush();
    expect(await access(won.cookie)).toBe(false);
    expect(await ordersOfSession(t, won.sessionId)).toEqual([expect.objectContaining({ status: 'disputed' })]);
    await sandboxOf(t).sandbox.disputeCharge(won.chargeId, 'won');
    await flush();
    expect(await access(won.cookie)).toBe(true);
    expect(await ordersOfSession(t, won.sessionId)).toEqual([expect.objectContaining({ status: 'paid' })]);
    expect(await rowsOfSession(t, won.sessionId)).toEqual([expect.objectContaining({ isActive: true, revokedReason: null })]);

    const lost = await member(planType);
    await sandboxOf(t).sandbox.disputeCharge(lost.chargeId, 'needs_response');
    await flush();
    await sandboxOf(t).sandbox.disputeCharge(lost.chargeId, 'lost');
    await flush();
    expect(await access(lost.cookie)).toBe(false);
    expect(await ordersOfSession(t, lost.sessionId)).toEqual([expect.objectContaining({ status: 'disputed' })]);
  });

  it('a subscription cancelled at once at the provider keeps access to the end of the paid period', async () => {
    const { cookie, sessionId } = await member();
    const before = (await rowsOfSession(t, sessionId))[0]!;
    await t.deps.payments.cancelSubscriptionNow(before.providerSubscriptionId!);
    await flush();
    expect(await rowsOfSession(t, sessionId)).toEqual([expect.objectContaining({ status: 'canceled', isActive: true, expiresAt: before.expiresAt })]);
    expect(await access(cookie)).toBe(true);
    const view = await (await t.request('/api/subscription', { cookie })).json();
    expect(view).toMatchObject({ isActive: true, isCanceled: true });
  });

  it('a cancelled and refunded subscription loses access at once', async () => {
    const { cookie, sessionId, chargeId } = await member();
    const before = (await rowsOfSession(t, sessionId))[0]!;
    await t.deps.payments.cancelSubscriptionNow(before.providerSubscriptionId!);
    await t.deps.payments.refundPayment({ paymentId: chargeId, amount: null, reason: 'requested_by_customer', idempotencyKey: 'cancel-refund' });
    await flush();
    expect(await access(cookie)).toBe(false);
  });
});

describe('concurrent plan changes', () => {
  it('5 concurrent changes to one plan: one change, one invoice, one order, five answers of success', async () => {
    const buyer = email('five-changes');
    const cookie = await signUp(t, buyer);
    const sessionId = await buy(t, buyer, { planType: 'monthly' }, cookie);
    await flush();
    const sub = await sandboxSubscriptionOf(sessionId);
    const responses = await Promise.all(Array.from({ length: 5 }, () => t.request('/api/update-subscription', { body: { planType: 'yearly' }, cookie })));
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    await flush();
    const changes = await db().select().from(sandboxInvoices).where(and(eq(sandboxInvoices.subscriptionId, sub.id), eq(sandboxInvoices.billingReason, 'subscription_update')));
    expect(changes).toHaveLength(1);
    const userId = await userIdOf(t, cookie);
    const ordersOfMember = await db().select().from(orders).where(eq(orders.userId, userId));
    expect(ordersOfMember).toHaveLength(2); // the purchase and the one change
    expect((await rowsOfSession(t, sessionId))[0]).toMatchObject({ planType: 'yearly' });

    // a later, different change is not blocked by the finished one
    const back = await t.request('/api/update-subscription', { body: { planType: 'quarterly' }, cookie });
    expect(back.status).toBe(200);
  });

  it('a renewal order takes its plan from the invoice, not from the row', async () => {
    const buyer = email('renewal-plan');
    const cookie = await signUp(t, buyer);
    const sessionId = await buy(t, buyer, { planType: 'monthly' }, cookie);
    await flush();
    const sub = await sandboxSubscriptionOf(sessionId);
    for (const older of await undeliveredEvents(t)) await sandboxOf(t).sandbox.markDelivered(older.id);
    await sandboxOf(t).sandbox.runClock(new Date(sub.currentPeriodEnd.getTime() + 1000));
    // The renewal's events wait; meanwhile the member moves to yearly.
    const waiting = await undeliveredEvents(t);
    await t.request('/api/update-subscription', { body: { planType: 'yearly' }, cookie });
    const handler = createPaymentEventHandler({ db: db(), payments: t.deps.payments, logger: t.deps.logger, clock: time.clock, entitlements: t.services.entitlements });
    for (const row of waiting) await handler.handle({ id: row.id, type: row.type, created: row.createdAt, ...(row.payload as object) } as PaymentEvent);
    const userId = await userIdOf(t, cookie);
    const renewal = await db().select().from(orders).where(and(eq(orders.userId, userId), eq(orders.amount, 3600)));
    expect(renewal.map((order) => order.planType)).toEqual(['monthly', 'monthly']);
  });
});
