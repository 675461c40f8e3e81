import { eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { orders, paymentEventFailures, processedEvents, sandboxEvents, userSubscriptions } from '../../db/schema';
import type { TestApp } from '../../test-support/test-app';
import {
  billingSuite,
  buy,
  CARDS,
  checkoutRow,
  countRows,
  DAY_MS,
  jobsOf,
  ordersOfSession,
  ordersOfSubscription,
  rowsOfSession,
  sandboxOf,
  signUp,
  startCheckout,
  undeliveredEvents,
  userIdOf,
} from '../../test-support/billing-test-kit';
import { CALLBACK_OF_KIND, type AccessChange, type AccessSubscriber } from '@shared/access-changes';
import { composeEntitlements } from '../../composition';
import { createPaymentEventHandler, PAST_DUE_GRACE_MS, recurringRowState } from './fulfilment';
import type { ChargeSnapshot, PaymentEvent, PaymentsPort, SubscriptionSnapshot } from '../payments/payments.port';
import { createSandboxJobs } from '../sandbox/sandbox-jobs';
import { recordEventFailure } from './payment-event-failures.repository';

let t: TestApp;
const { time, email } = billingSuite((app) => (t = app));

/** A handler whose entitlements core tells one more subscriber: it notes each change it hears of. */
function handlerWith(payments: PaymentsPort = t.deps.payments, changed: AccessChange[] = []) {
  const note = async (change: AccessChange) => void changed.push(change);
  const recorder: AccessSubscriber = { name: 'recorder', ...Object.fromEntries(Object.values(CALLBACK_OF_KIND).map((callback) => [callback, note])) };
  const { entitlements } = composeEntitlements({ db: t.deps.database.db, clock: time.clock, logger: t.deps.logger, subscribers: [recorder] });
  return createPaymentEventHandler({ db: t.deps.database.db, payments, logger: t.deps.logger, clock: time.clock, entitlements });
}

/** Paid at the provider; its events wait in sandbox_events, undelivered. */
async function paidWithoutDelivery(planType: 'monthly' | 'lifetime' = 'monthly', cookie?: string, address = email('buyer')) {
  for (const older of await undeliveredEvents(t)) await sandboxOf(t).sandbox.markDelivered(older.id);
  const { sessionId } = await startCheckout(t, { planType }, cookie);
  await sandboxOf(t).sandbox.pay(sessionId, { email: address, cardNumber: CARDS.ok, expiry: '12 / 39', cvc: '123', name: 'B' });
  const events = (await undeliveredEvents(t)).map((row) => ({ id: row.id, type: row.type, created: row.createdAt, ...(row.payload as object) }) as PaymentEvent);
  for (const event of events) await sandboxOf(t).sandbox.markDelivered(event.id);
  return { sessionId, events };
}

describe('the payment event handler', () => {
  it('applies a duplicate delivery once', async () => {
    const handler = handlerWith();
    const { sessionId, events } = await paidWithoutDelivery();
    expect(events.map((event) => event.type)).toEqual(['checkout.session.completed', 'customer.subscription.created', 'invoice.paid']);
    for (const event of events) expect(await handler.handle(event)).toBe('processed');
    for (const event of events) expect(await handler.handle(event)).toBe('duplicate');
    expect(await rowsOfSession(t, sessionId)).toHaveLength(1);
    expect(await ordersOfSession(t, sessionId)).toHaveLength(1);
  });

  it('arrives at the same state when events come in reverse order', async () => {
    const handler = handlerWith();
    const { sessionId, events } = await paidWithoutDelivery();
    for (const event of [...events].reverse()) await handler.handle(event);
    const rows = await rowsOfSession(t, sessionId);
    expect(rows).toEqual([expect.objectContaining({ planType: 'monthly', status: 'active', isActive: true, cancelAtPeriodEnd: false })]);
    expect(rows[0]?.expiresAt?.getTime()).toBeGreaterThan(time.now().getTime() + 27 * DAY_MS);
    const ordersOfIt = await ordersOfSession(t, sessionId);
    expect(ordersOfIt).toEqual([expect.objectContaining({ amount: 3600, currency: 'usd', planType: 'monthly' })]);
    expect(rows[0]?.orderId).toBe(ordersOfIt[0]?.id);
  });

  it('writes one row and one order under concurrent deliveries', async () => {
    const handler = handlerWith();
    const { sessionId, events } = await paidWithoutDelivery();
    const rowsBefore = await countRows(t, 'user_subscriptions');
    const ordersBefore = await countRows(t, 'orders');
    const results = await Promise.all([...events, ...events, ...events, ...[...events].reverse()].map((event) => handler.handle(event)));
    expect(results.filter((result) => result === 'processed')).toHaveLength(3);
    expect(await countRows(t, 'user_subscriptions')).toBe(rowsBefore + 1);
    expect(await countRows(t, 'orders')).toBe(ordersBefore + 1);
    expect(await rowsOfSession(t, sessionId)).toHaveLength(1);
  });

  it('never lets a snapshot read earlier overwrite one read later', async () => {
    const { sessionId, events } = await paidWithoutDelivery();
    await handlerWith().handle(events[0]!);
    const [row] = await rowsOfSession(t, sessionId);
    const subscriptionId = row!.providerSubscriptionId!;
    const portal = sandboxOf(t).sandbox;

    // Delivery A reads the subscription (not canceled yet), then stalls before writing.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let readDone!: () => void;
    const read = new Promise<void>((resolve) => (readDone = resolve));
    const slow: PaymentsPort = {
      ...t.deps.payments,
      retrieveSubscription: async (id) => {
        const snapshot = await t.deps.payments.retrieveSubscription(id);
        readDone();
        await gate;
        return snapshot;
      },
    } as PaymentsPort;
    const stale = handlerWith(slow).handle({ id: 'evt_stale_a', type: 'customer.subscription.updated', created: time.now(), subscriptionId });
    await read;

    // Meanwhile the customer cancels in the portal and delivery B applies it.
    time.advance(1000);
    await portal.setCancelAtPeriodEnd(row!.providerCustomerId!, subscriptionId, true);
    await handlerWith().handle({ id: 'evt_fresh_b', type: 'customer.subscription.updated', created: time.now(), subscriptionId });
    expect((await rowsOfSession(t, sessionId))[0]?.cancelAtPeriodEnd).toBe(true);

    release();
    expect(await stale).toBe('processed');
    expect((await rowsOfSession(t, sessionId))[0]?.cancelAtPeriodEnd).toBe(true);
  });

  it('tells the subscribers which member bought what, after the commit', async () => {
    const changed: AccessChange[] = [];
    const address = email('notified');
    const cookie = await signUp(t, address);
    const userId = await userIdOf(t, cookie);
    const { events } = await paidWithoutDelivery('monthly', cookie, address);
    const r = await handlerWith(t.deps.payments, changed).handle(events[0]!);
    expect(r).toBe('processed');
    expect(changed).toMatchObject([{ userId, kind: 'bought', planType: 'monthly', hasAccess: true }]);
  });

  it("a renewal's two events carry one reading: the first writes the row and tells of the renewal, the second writes nothing", async () => {
    const changed: AccessChange[] = [];
    const handler = handlerWith(t.deps.payments, changed);
    const address = email('one-reading');
    const cookie = await signUp(t, address);
    const sessionId = await buy(t, address, { planType: 'monthly' }, cookie);
    const [before] = await rowsOfSession(t, sessionId);

    // (the suite's earlier subscriptions come due too: only this one's events are handed over here)
    time.set(new Date(before!.expiresAt!.getTime() + 60_000));
    expect(await sandboxOf(t).sandbox.runClock(time.now())).toBeGreaterThanOrEqual(1);
    const events = (await undeliveredEvents(t))
      .map((row) => ({ id: row.id, type: row.type, created: row.createdAt, ...(row.payload as object) }) as PaymentEvent)
      .filter((event) => event.subscriptionId === before!.providerSubscriptionId);
    expect(events.map((event) => event.type)).toEqual(['invoice.paid', 'customer.subscription.updated']);
    const objects = await sandboxOf(t).sandbox.readEventObjects(events);

    expect(await handler.handle(events[0]!, 'sandbox', objects)).toBe('processed');
    const [renewed] = await rowsOfSession(t, sessionId);
    expect(renewed!.expiresAt!.getTime()).toBeGreaterThan(before!.expiresAt!.getTime() + 27 * DAY_MS);
    // (named 'bought': the period had ended a minute before the renewal came)
    expect(changed).toMatchObject([{ hasAccess: true, expiresAt: renewed!.expiresAt }]);

    expect(await handler.handle(events[1]!, 'sandbox', objects)).toBe('processed');
    expect(await rowsOfSession(t, sessionId)).toEqual([renewed]);
    expect(changed).toHaveLength(1);
    // a later reading of the same subscription is written as ever
    time.advance(1000);
    await sandboxOf(t).sandbox.setCancelAtPeriodEnd(renewed!.providerCustomerId!, renewed!.providerSubscriptionId!, true);
    expect(await handler.handle({ id: 'evt_after_one_reading', type: 'customer.subscription.updated', created: time.now(), subscriptionId: renewed!.providerSubscriptionId! })).toBe('processed');
    expect((await rowsOfSession(t, sessionId))[0]).toMatchObject({ cancelAtPeriodEnd: true, isActive: true });
    expect(changed).toHaveLength(2);
    expect(changed[1]).toMatchObject({ kind: 'canceled', hasAccess: true });
    for (const event of events) await sandboxOf(t).sandbox.markDelivered(event.id);
    await jobsOf(t).runOnce();
  });

  it('a reading the row already holds is recorded once under concurrent deliveries, and resolves a failure kept of it', async () => {
    const changed: AccessChange[] = [];
    const handler = handlerWith(t.deps.payments, changed);
    const address = email('held-reading');
    const sessionId = await buy(t, address, { planType: 'monthly' }, await signUp(t, address));
    const [before] = await rowsOfSession(t, sessionId);
    time.set(new Date(before!.expiresAt!.getTime() + 60_000));
    await sandboxOf(t).sandbox.runClock(time.now());
    const events = (await undeliveredEvents(t))
      .map((row) => ({ id: row.id, type: row.type, created: row.createdAt, ...(row.payload as object) }) as PaymentEvent)
      .filter((event) => event.subscriptionId === before!.providerSubscriptionId);
    const objects = await sandboxOf(t).sandbox.readEventObjects(events);
    expect(await handler.handle(events[0]!, 'sandbox', objects)).toBe('processed');
    const [renewed] = await rowsOfSession(t, sessionId);
    const updated = events[1]!;
    expect(updated.type).toBe('customer.subscription.updated');
    // an earlier delivery of it failed: the console lists it until one goes through
    await recordEventFailure(t.deps.database.db, updated, 'sandbox', new Error('connection reset'), time.now());

    const results = await Promise.all([1, 2, 3].map(() => handler.handle(updated, 'sandbox', objects)));
    expect(results.sort()).toEqual(['duplicate', 'duplicate', 'processed']);
    expect(await handler.handle(updated, 'sandbox', objects)).toBe('duplicate');
    expect(await rowsOfSession(t, sessionId)).toEqual([renewed]);
    expect(changed).toHaveLength(1);
    const [processed] = await t.deps.database.db.select().from(processedEvents).where(eq(processedEvents.id, updated.id));
    expect(processed).toMatchObject({ source: 'sandbox', type: 'customer.subscription.updated' });
    const [failure] = await t.deps.database.db.select().from(paymentEventFailures).where(eq(paymentEventFailures.eventId, updated.id));
    expect(failure?.resolvedAt).not.toBeNull();
    for (const event of events) await sandboxOf(t).sandbox.markDelivered(event.id);
    await jobsOf(t).runOnce();
  });

  it('ignores event types it does not handle, and events naming unknown objects', async () => {
    const handler = handlerWith();
    expect(await handler.handle({ id: 'evt_other', type: 'customer.created', created: time.now() })).toBe('ignored');
    expect(await handler.handle({ id: 'evt_ghost', type: 'customer.subscription.updated', created: time.now(), subscriptionId: 'sub_sbx_ghost' })).toBe('processed');
  });
});

describe('refunds and disputes of a lifetime purchase', () => {
  async function lifetimeWithCharge(charge: Pick<ChargeSnapshot, 'refunded' | 'dispute' | 'amountRefunded'>, buyer?: { cookie: string; address: string }) {
    const { sessionId, events } = await paidWithoutDelivery('lifetime', buyer?.cookie, buyer?.address);
    await handlerWith().handle(events[0]!);
    const paymentId = (await checkoutRow(t, sessionId))!.providerPaymentId!;
    const payments = { ...t.deps.payments, retrieveCharge: async (id: string) => ({ id, paymentId, amount: 54999, ...charge }) } as PaymentsPort;
    return { sessionId, handler: handlerWith(payments) };
  }

  it('a full refund deactivates it', async () => {
    const { sessionId, handler } = await lifetimeWithCharge({ refunded: true, dispute: null, amountRefunded: 54999 });
    await handler.handle({ id: `evt_refund_${sessionId}`, type: 'charge.refunded', created: time.now(), chargeId: 'ch_1' });
    expect(await rowsOfSession(t, sessionId)).toEqual([expect.objectContaining({ isActive: false, status: 'canceled' })]);
    expect(await ordersOfSession(t, sessionId)).toEqual([expect.objectContaining({ status: 'refunded' })]);
  });

  // Regression guard: the session and the access rule are read together per request
  // and never cached, so a refund shows on the member's very next request.
  it('a full refund ends access on the very next request', async () => {
    const address = email('refunded');
    const cookie = await signUp(t, address);
    const { sessionId, handler } = await lifetimeWithCharge({ refunded: true, dispute: null, amountRefunded: 54999 }, { cookie, address });
    expect(await (await t.request('/api/access', { cookie })).json()).toEqual({ hasAccess: true });
    expect((await t.request('/api/content/guides', { cookie })).status).toBe(200);

    await handler.handle({ id: `evt_refund_${sessionId}`, type: 'charge.refunded', created: time.now(), chargeId: 'ch_4' });
    expect(await (await t.request('/api/access', { cookie })).json()).toEqual({ hasAccess: false });
    expect((await t.request('/api/content/guides', { cookie })).status).toBe(403);
  });

  it('a dispute deactivates it', async () => {
    const { sessionId, handler } = await lifetimeWithCharge({ refunded: false, dispute: 'open', amountRefunded: 0 });
    await handler.handle({ id: `evt_dispute_${sessionId}`, type: 'charge.dispute.created', created: time.now(), chargeId: 'ch_2' });
    expect(await rowsOfSession(t, sessionId)).toEqual([expect.objectContaining({ isActive: false })]);
    expect(await ordersOfSession(t, sessionId)).toEqual([expect.objectContaining({ status: 'disputed' })]);
  });

  it('a partial refund keeps access', async () => {
    const { sessionId, handler } = await lifetimeWithCharge({ refunded: false, dispute: null, amountRefunded: 1000 });
    await handler.handle({ id: `evt_partial_${sessionId}`, type: 'charge.refunded', created: time.now(), chargeId: 'ch_3' });
    expect(await rowsOfSession(t, sessionId)).toEqual([expect.objectContaining({ isActive: true })]);
    expect(await ordersOfSession(t, sessionId)).toEqual([expect.objectContaining({ status: 'paid' })]);
  });
});

describe('recurring plans over time (sandbox clock)', () => {
  it('renews on schedule: a renewal invoice, an order, a later expiry', async () => {
    const address = email('renewing');
    const cookie = await signUp(t, address);
    const userId = await userIdOf(t, cookie);
    const sessionId = await buy(t, address, { planType: 'monthly' }, cookie);
    const [before] = await rowsOfSession(t, sessionId);
    const jobs = jobsOf(t);

    expect((await jobs.runOnce()).renewed).toBe(0);
    time.set(new Date(before!.expiresAt!.getTime() + 60_000));
    const pass = await jobs.runOnce();
    expect(pass.renewed).toBeGreaterThanOrEqual(1);
    const [after] = await rowsOfSession(t, sessionId);
    expect(after).toMatchObject({ status: 'active', isActive: true });
    expect(after!.expiresAt!.getTime()).toBeGreaterThan(before!.expiresAt!.getTime() + 27 * DAY_MS);
    const renewals = await t.deps.database.db.select().from(orders).where(eq(orders.userId, userId));
    expect(renewals.map((order) => order.amount)).toEqual([3600, 3600]);
    expect(await undeliveredEvents(t)).toHaveLength(0);
  });

  it('cancel at period end, resume, and the end of a canceled period', async () => {
    const address = email('canceling');
    const cookie = await signUp(t, address);
    const sessionId = await buy(t, address, { planType: 'quarterly' }, cookie);
    const [row] = await rowsOfSession(t, sessionId);
    const path = `/api/sandbox/portal/${row!.providerCustomerId}/subscriptions/${row!.providerSubscriptionId}`;

    expect((await t.request(`${path}/cancel`, { body: {} })).status).toBe(200);
    expect((await rowsOfSession(t, sessionId))[0]).toMatchObject({ cancelAtPeriodEnd: true, isActive: true });
    const view = await (await t.request('/api/subscription', { cookie })).json();
    expect(view).toMatchObject({ isCanceled: true, isActive: true, canCancel: false });

    await t.request(`${path}/resume`, { body: {} });
    expect((await rowsOfSession(t, sessionId))[0]).toMatchObject({ cancelAtPeriodEnd: false });

    await t.request(`${path}/cancel`, { body: {} });
    time.set(new Date(row!.expiresAt!.getTime() + 60_000));
    await jobsOf(t).runOnce();
    expect((await rowsOfSession(t, sessionId))[0]).toMatchObject({ status: 'canceled', isActive: false });
  });

  it('a failed renewal goes past_due with a short grace, then ends', async () => {
    const address = email('failing');
    const cookie = await signUp(t, address);
    const sessionId = await buy(t, address, { planType: 'monthly' }, cookie, CARDS.failsLater);
    const [row] = await rowsOfSession(t, sessionId);
    const paidUntil = row!.expiresAt!;
    time.set(new Date(paidUntil.getTime() + 60_000));
    await jobsOf(t).runOnce();
    const [pastDue] = await rowsOfSession(t, sessionId);
    expect(pastDue).toMatchObject({ status: 'past_due', isActive: true });
    expect(pastDue!.expiresAt!.getTime()).toBe(paidUntil.getTime() + PAST_DUE_GRACE_MS);

    time.set(new Date(paidUntil.getTime() + 40 * DAY_MS));
    await jobsOf(t).runOnce();
    expect((await rowsOfSession(t, sessionId))[0]).toMatchObject({ status: 'canceled', isActive: false });
  });

  it('one pass of the clock takes each due subscription its own step: charged, ended, past due, paused', async () => {
    const bought = async (name: string, card?: string) => {
      const sessionId = await buy(t, email(name), { planType: 'monthly' }, undefined, card);
      return (await rowsOfSession(t, sessionId))[0]!;
    };
    const [paying, canceling, failing, paused] = [await bought('pass-paying'), await bought('pass-canceling'), await bought('pass-failing', CARDS.failsLater), await bought('pass-paused')];
    await sandboxOf(t).sandbox.setCancelAtPeriodEnd(canceling.providerCustomerId!, canceling.providerSubscriptionId!, true);
    await sandboxOf(t).pauseCollection(paused.providerSubscriptionId!, 'keep');
    const periodEnd = Math.max(...[paying, canceling, failing, paused].map((row) => row.expiresAt!.getTime()));
    time.set(new Date(periodEnd + 60_000));
    const renewedAt = time.now().getTime();

    await jobsOf(t).runOnce();
    const subscription = (row: typeof paying) => sandboxOf(t).retrieveSubscription(row.providerSubscriptionId!);
    const eventsOf = async (row: typeof paying) =>
      (await t.deps.database.db.select().from(sandboxEvents).where(eq(sql`${sandboxEvents.payload}->>'subscriptionId'`, row.providerSubscriptionId!)).orderBy(sandboxEvents.createdAt, sandboxEvents.id))
        .filter((event) => event.createdAt.getTime() === renewedAt)
        .map((event) => event.type);
    const month = 27 * DAY_MS;

    expect(await subscription(paying)).toMatchObject({ status: 'active' });
    expect((await subscription(paying))!.currentPeriodEnd!.getTime()).toBeGreaterThan(periodEnd + month);
    expect(await eventsOf(paying)).toEqual(['invoice.paid', 'customer.subscription.updated']);
    expect((await ordersOfSubscription(t, paying.providerSubscriptionId!)).map((order) => order.amount)).toEqual([3600, 3600]);

    expect(await subscription(canceling)).toMatchObject({ status: 'canceled' });
    expect(await eventsOf(canceling)).toEqual(['customer.subscription.deleted']);
    expect((await rowsOfSession(t, canceling.checkoutSessionId!))[0]).toMatchObject({ status: 'canceled' });

    expect(await subscription(failing)).toMatchObject({ status: 'past_due' });
    expect(await eventsOf(failing)).toEqual(['invoice.payment_failed', 'customer.subscription.updated']);
    expect((await rowsOfSession(t, failing.checkoutSessionId!))[0]).toMatchObject({ status: 'past_due', isActive: true });

    // collection paused: the period moves on and nothing is charged
    expect(await subscription(paused)).toMatchObject({ status: 'active', pausedAccess: 'keep' });
    expect((await subscription(paused))!.currentPeriodEnd!.getTime()).toBeGreaterThan(periodEnd + month);
    expect(await eventsOf(paused)).toEqual(['customer.subscription.updated']);
    expect(await ordersOfSubscription(t, paused.providerSubscriptionId!)).toHaveLength(1);
    expect(await undeliveredEvents(t)).toHaveLength(0);
  });

  it('"renew now" in the portal runs the end of the period for a demo', async () => {
    const sessionId = await buy(t, email('demo'), { planType: 'monthly' });
    const [row] = await rowsOfSession(t, sessionId);
    const response = await t.request(`/api/sandbox/portal/${row!.providerCustomerId}/subscriptions/${row!.providerSubscriptionId}/renew-now`, { body: {} });
    expect(response.status).toBe(200);
    const portal = (await response.json()) as { invoices: { description: string }[] };
    expect(portal.invoices[0]?.description).toMatch(/^Renewal/);
    const [after] = await rowsOfSession(t, sessionId);
    expect(after!.expiresAt!.getTime()).toBeGreaterThan(row!.expiresAt!.getTime() + 27 * DAY_MS);
  });

  it('"renew now" on a plan canceled at period end ends it, and its access, now', async () => {
    const address = email('demo-cancel');
    const cookie = await signUp(t, address);
    const sessionId = await buy(t, address, { planType: 'monthly' }, cookie);
    const [row] = await rowsOfSession(t, sessionId);
    const portal = `/api/sandbox/portal/${row!.providerCustomerId}/subscriptions/${row!.providerSubscriptionId}`;
    expect((await t.request(`${portal}/cancel`, { body: {} })).status).toBe(200);
    expect(await (await t.request('/api/access', { cookie })).json()).toEqual({ hasAccess: true });
    expect((await t.request(`${portal}/renew-now`, { body: {} })).status).toBe(200);
    expect((await rowsOfSession(t, sessionId))[0]).toMatchObject({ status: 'canceled', isActive: false });
    expect(await (await t.request('/api/access', { cookie })).json()).toEqual({ hasAccess: false });
  });
});

describe('recurringRowState', () => {
  const base: SubscriptionSnapshot = {
    id: 'sub_1',
    customerId: 'cus_1',
    status: 'active',
    planType: 'monthly',
    itemId: 'si_1',
    unitAmount: 3600,
    currency: 'usd',
    currentPeriodStart: new Date('2030-01-01T00:00:00Z'),
    currentPeriodEnd: new Date('2030-02-01T00:00:00Z'),
    cancelAtPeriodEnd: false,
    endedAt: null,
    livemode: false,
    latestInvoiceId: 'in_1',
    pausedAccess: null,
  };
  const asOf = new Date('2030-01-10T00:00:00Z');

  it.each([
    { status: 'active', expected: { status: 'active', isActive: true, expiresAt: base.currentPeriodEnd } },
    { status: 'trialing', expected: { status: 'trialing', isActive: true, expiresAt: base.currentPeriodEnd } },
    { status: 'past_due', expected: { status: 'past_due', isActive: true, expiresAt: new Date('2030-01-04T00:00:00Z') } },
    // ended early (e.g. from the provider's dashboard): the paid period still runs to its end
    { status: 'canceled', expected: { status: 'canceled', isActive: true, expiresAt: base.currentPeriodEnd } },
    { status: 'incomplete_expired', expected: { status: 'canceled', isActive: false } },
    { status: 'incomplete', expected: { status: 'incomplete', isActive: false } },
    { status: 'unpaid', expected: { status: 'unpaid', isActive: false } },
  ])('$status', ({ status, expected }) => {
    expect(recurringRowState({ ...base, status }, 'monthly', asOf)).toMatchObject(expected);
  });

  it('collection paused: access per the vendor\'s choice, kept or stopped until resumed', () => {
    expect(recurringRowState({ ...base, status: 'active', pausedAccess: 'keep' }, 'monthly', asOf)).toMatchObject({ isActive: true, collectionPaused: true, expiresAt: base.currentPeriodEnd });
    expect(recurringRowState({ ...base, status: 'active', pausedAccess: 'stop' }, 'monthly', asOf)).toMatchObject({ isActive: false, collectionPaused: true, expiresAt: base.currentPeriodEnd });
    expect(recurringRowState({ ...base, status: 'active' }, 'monthly', asOf)).toMatchObject({ isActive: true, collectionPaused: false });
  });

  it('a subscription cancelled at once keeps access to the end of its paid period', () => {
    const ended = new Date('2030-01-05T00:00:00Z');
    expect(recurringRowState({ ...base, status: 'canceled', endedAt: ended }, 'monthly', asOf)).toMatchObject({ isActive: true, expiresAt: base.currentPeriodEnd });
  });

  it('a subscription that ended with its paid period gives no access', () => {
    const after = new Date('2030-02-02T00:00:00Z');
    expect(recurringRowState({ ...base, status: 'canceled', endedAt: base.currentPeriodEnd }, 'monthly', after)).toMatchObject({ isActive: false, expiresAt: base.currentPeriodEnd });
  });

  it('a subscription cancelled while its renewal was unpaid keeps only the grace already granted', () => {
    const graceEnd = new Date('2030-01-12T00:00:00Z');
    expect(recurringRowState({ ...base, status: 'canceled' }, 'monthly', asOf, { status: 'past_due', expiresAt: graceEnd })).toMatchObject({ isActive: true, expiresAt: graceEnd });
    expect(recurringRowState({ ...base, status: 'canceled' }, 'monthly', asOf, { status: 'incomplete', expiresAt: base.currentPeriodEnd })).toMatchObject({ isActive: false });
  });
});

describe('the sandbox job runner', () => {
  it('delivers in the background once started and stops cleanly', async () => {
    const { sessionId } = await startCheckout(t, { planType: 'monthly' });
    await sandboxOf(t).sandbox.pay(sessionId, { email: email('bg'), cardNumber: CARDS.ok, expiry: '12 / 39', cvc: '123', name: 'B' });
    const jobs = createSandboxJobs({ payments: sandboxOf(t), handler: handlerWith(), logger: t.deps.logger, clock: time.clock, intervalMs: 20 });
    jobs.start();
    await vi.waitFor(async () => expect(await undeliveredEvents(t)).toHaveLength(0), { timeout: 20_000, interval: 25 });
    await jobs.stop();
    expect(await undeliveredEvents(t)).toHaveLength(0);
    expect(await rowsOfSession(t, sessionId)).toHaveLength(1);
    const rows = await t.deps.database.db.select().from(userSubscriptions).where(eq(userSubscriptions.checkoutSessionId, sessionId));
    expect(rows[0]?.isActive).toBe(true);
  });
});
