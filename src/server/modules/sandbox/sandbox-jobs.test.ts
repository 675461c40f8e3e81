import { eq, inArray, isNull, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { orders, paymentEventFailures, processedEvents, sandboxEvents } from '../../db/schema';
import type { TestApp } from '../../test-support/test-app';
import { billingSuite, buy, CARDS, DAY_MS, jobsOf, rowsOfSession, sandboxOf, startCheckout, undeliveredEvents } from '../../test-support/billing-test-kit';
import { createPaymentEventHandler } from '../fulfilment/fulfilment';
import type { PaymentEvent } from '../payments/payments.port';
import { deliverSandboxEvents, DEFAULT_LANES } from './sandbox-delivery';
import { createSandboxJobs } from './sandbox-jobs';

let t: TestApp;
const { time, email } = billingSuite((app) => (t = app));

/** A sandbox job on the app's handler that notes each event it hands over and what the handler answered. */
function recordingJobs(handled: { event: PaymentEvent; result: string }[], intervalMs?: number) {
  const handler = t.services.paymentEvents;
  return createSandboxJobs({
    payments: sandboxOf(t),
    handler: {
      handle: async (event, source, objects) => {
        const result = await handler.handle(event, source, objects);
        handled.push({ event, result });
        return result;
      },
    },
    logger: t.deps.logger,
    clock: time.clock,
    intervalMs,
  });
}

describe('the sandbox jobs: a renewal wave', () => {
  it('delivers every event of many subscriptions due at once exactly once, each subscription in order, with two deliverers at work', async () => {
    const subscriptions = DEFAULT_LANES * 3;
    const sessions: string[] = [];
    for (let i = 0; i < subscriptions; i += 1) sessions.push(await buy(t, email('wave'), { planType: 'monthly' }));
    expect(await undeliveredEvents(t)).toHaveLength(0);
    const rows = await Promise.all(sessions.map(async (sessionId) => (await rowsOfSession(t, sessionId))[0]!));
    const ids = rows.map((row) => row.providerSubscriptionId!);
    time.set(new Date(Math.max(...rows.map((row) => row.expiresAt!.getTime())) + 60_000));

    // two instances' jobs at once: each event goes to one of them (claims), the other skips it
    const handled: { event: PaymentEvent; result: string }[] = [];
    const [one, two] = [recordingJobs(handled), recordingJobs(handled)];
    let renewed = 0;
    for (let pass = 0; pass < 10; pass += 1) {
      const results = await Promise.all([one.runOnce(), two.runOnce()]);
      renewed += results.reduce((sum, result) => sum + result.renewed, 0);
      if (results.every((result) => result.renewed === 0 && result.delivered === 0)) break;
    }
    expect(renewed).toBe(subscriptions);
    expect(await undeliveredEvents(t)).toHaveLength(0);

    const db = t.deps.database.db;
    const emitted = await db
      .select()
      .from(sandboxEvents)
      .where(inArray(sandboxEvents.type, ['invoice.paid', 'customer.subscription.updated']));
    const wave = emitted.filter(
      (row) => ids.includes((row.payload as { subscriptionId?: string }).subscriptionId ?? '') && row.createdAt.getTime() === time.now().getTime(),
    );
    expect(wave).toHaveLength(subscriptions * 2);
    // each handed over once and applied once
    expect(handled.map(({ event }) => event.id).sort()).toEqual(wave.map((row) => row.id).sort());
    expect(handled.every(({ result }) => result === 'processed')).toBe(true);
    expect(
      await db
        .select()
        .from(processedEvents)
        .where(
          inArray(
            processedEvents.id,
            wave.map((row) => row.id),
          ),
        ),
    ).toHaveLength(subscriptions * 2);
    // each subscription's events in the order it emitted them: its invoice, then its update
    for (const id of ids) {
      expect(handled.filter(({ event }) => event.subscriptionId === id).map(({ event }) => event.type)).toEqual(['invoice.paid', 'customer.subscription.updated']);
    }
    // one renewal order each, and the rows carry the new period
    const renewalOrders = await db.select().from(orders).where(inArray(orders.providerSubscriptionId, ids));
    expect(renewalOrders).toHaveLength(subscriptions * 2);
    for (const sessionId of sessions) expect((await rowsOfSession(t, sessionId))[0]!.expiresAt!.getTime()).toBeGreaterThan(time.now().getTime());
  });
});

describe('the sandbox jobs in the background', () => {
  it('once started, renew the subscriptions that came due and deliver their events to fulfilment; stopped, they do nothing', async () => {
    const sessions: string[] = [];
    for (let i = 0; i < 3; i += 1) sessions.push(await buy(t, email('background'), { planType: 'monthly' }));
    const rows = await Promise.all(sessions.map(async (sessionId) => (await rowsOfSession(t, sessionId))[0]!));
    const ids = rows.map((row) => row.providerSubscriptionId!);
    time.set(new Date(Math.max(...rows.map((row) => row.expiresAt!.getTime())) + 60_000));

    const handled: { event: PaymentEvent; result: string }[] = [];
    const jobs = recordingJobs(handled, 20);
    jobs.start();
    await vi.waitFor(async () => expect(await ordersOfAll(ids)).toHaveLength(ids.length * 2), { timeout: 30_000, interval: 25 });
    await vi.waitFor(async () => expect(await undeliveredEvents(t)).toHaveLength(0), { timeout: 30_000, interval: 25 });
    await jobs.stop();

    // each subscription's renewal applied once, its invoice before its update
    for (const id of ids) {
      expect(handled.filter(({ event }) => event.subscriptionId === id).map(({ event, result }) => `${event.type} ${result}`)).toEqual(['invoice.paid processed', 'customer.subscription.updated processed']);
    }
    for (const sessionId of sessions) expect((await rowsOfSession(t, sessionId))[0]!.expiresAt!.getTime()).toBeGreaterThan(time.now().getTime());
    // stopped: the next period's end passes unrenewed
    const handledBeforeStop = handled.length;
    time.advance(40 * DAY_MS);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(handled).toHaveLength(handledBeforeStop);
    expect(await ordersOfAll(ids)).toHaveLength(ids.length * 2);
  });
});

describe('the sandbox jobs: purchases paid while no one delivered', () => {
  it("hands each purchase's events over in the order they were emitted, several purchases side by side", async () => {
    const sessions: string[] = [];
    for (let i = 0; i < DEFAULT_LANES * 2; i += 1) {
      const { sessionId } = await startCheckout(t, { planType: 'monthly' });
      await sandboxOf(t).sandbox.pay(sessionId, { email: email('queued'), cardNumber: CARDS.ok, expiry: '12 / 39', cvc: '123', name: 'B' });
      sessions.push(sessionId);
    }
    const handled: { event: PaymentEvent; result: string }[] = [];
    await recordingJobs(handled).runOnce();
    expect(await undeliveredEvents(t)).toHaveLength(0);
    for (const sessionId of sessions) {
      const [row] = await rowsOfSession(t, sessionId);
      const types = handled
        .filter(({ event }) => event.checkoutSessionId === sessionId || event.subscriptionId === row!.providerSubscriptionId)
        .map(({ event }) => event.type);
      expect(types).toEqual(['checkout.session.completed', 'customer.subscription.created', 'invoice.paid']);
    }
    expect(handled.every(({ result }) => result === 'processed')).toBe(true);
  });
});

describe('the sandbox jobs: the objects handed over with the events', () => {
  /** One subscription bought and renewed: its renewal's events are waiting, unclaimed. */
  async function renewedSubscription() {
    const payments = sandboxOf(t);
    const sessionId = await buy(t, email('handed'), { planType: 'monthly' });
    await deliverSandboxEvents(payments, t.services.paymentEvents, t.deps.logger);
    const subscriptionId = (await rowsOfSession(t, sessionId))[0]!.providerSubscriptionId!;
    // the demo clock renews this one subscription only (the suite's others are not due with it)
    await payments.sandbox.advanceToPeriodEnd((await payments.retrieveSubscription(subscriptionId))!.customerId, subscriptionId);
    expect((await undeliveredEvents(t)).map((event) => event.type)).toEqual(['invoice.paid', 'customer.subscription.updated']);
    return { sessionId, subscriptionId };
  }

  it('a pass that crashed after applying its events but before marking them delivered: the next delivery applies nothing twice', async () => {
    const { sessionId, subscriptionId } = await renewedSubscription();
    const payments = sandboxOf(t);
    const crashing = { ...payments, sandbox: { ...payments.sandbox, markDelivered: async () => Promise.reject(new Error('the instance died')) } };
    await expect(deliverSandboxEvents(crashing, t.services.paymentEvents, t.deps.logger)).rejects.toThrow('the instance died');
    const ordersAfterCrash = await ordersOf(subscriptionId);
    const expiry = (await rowsOfSession(t, sessionId))[0]!.expiresAt;
    expect(ordersAfterCrash).toHaveLength(2);
    expect(expiry!.getTime()).toBeGreaterThan(time.now().getTime());

    // the crashed deliverer's lease lapses; another takes the same events
    await t.deps.database.db.update(sandboxEvents).set({ leasedUntil: sql`now() - interval '1 second'` }).where(isNull(sandboxEvents.deliveredAt));
    const handled: { event: PaymentEvent; result: string }[] = [];
    await recordingJobs(handled).runOnce();
    expect(handled.map(({ event, result }) => `${event.type} ${result}`)).toEqual(['invoice.paid duplicate', 'customer.subscription.updated duplicate']);
    expect(await undeliveredEvents(t)).toHaveLength(0);
    expect(await ordersOf(subscriptionId)).toEqual(ordersAfterCrash);
    expect((await rowsOfSession(t, sessionId))[0]!.expiresAt).toEqual(expiry);
  });

  it('objects read before a newer write never overwrite it: they are stamped with the moment they were read', async () => {
    const { sessionId, subscriptionId } = await renewedSubscription();
    const payments = sandboxOf(t);
    const claimed = await payments.sandbox.claimPendingEvents(10);
    const objects = await payments.sandbox.readEventObjects(claimed.map(({ event }) => event));
    expect(objects.subscriptions.get(subscriptionId)?.cancelAtPeriodEnd).toBe(false);

    // meanwhile the member cancels at period end, and that is applied from a fresh reading
    time.advance(60_000);
    const customerId = objects.subscriptions.get(subscriptionId)!.customerId;
    await payments.sandbox.setCancelAtPeriodEnd(customerId, subscriptionId, true);
    const [cancel] = (await payments.sandbox.claimPendingEvents(10)).map(({ event }) => event);
    expect(await t.services.paymentEvents.handle(cancel!, 'sandbox')).toBe('processed');
    expect((await rowsOfSession(t, sessionId))[0]!.cancelAtPeriodEnd).toBe(true);

    // the renewal's events, handed over with the older objects, apply the renewal's order but not the older state
    for (const { event } of claimed) expect(await t.services.paymentEvents.handle(event, 'sandbox', objects)).toBe('processed');
    expect((await rowsOfSession(t, sessionId))[0]!.cancelAtPeriodEnd).toBe(true);
    expect(await ordersOf(subscriptionId)).toHaveLength(2);
    await payments.sandbox.markDelivered(...claimed.map(({ event }) => event.id), cancel!.id);
  });

  it('an event that failed before is marked resolved when a later delivery applies it', async () => {
    const payments = sandboxOf(t);
    const { sessionId } = await startCheckout(t, { planType: 'monthly' });
    await payments.sandbox.pay(sessionId, { email: email('failed-first'), cardNumber: CARDS.ok, expiry: '12 / 39', cvc: '123', name: 'B' });
    // the provider cannot be read during the first delivery: each event fails and is kept, then released
    const unreachable = { ...payments, retrieveCheckoutSession: async () => Promise.reject(new Error('provider timed out')) };
    const broken = createPaymentEventHandler({ db: t.deps.database.db, payments: unreachable, logger: t.deps.logger, clock: time.clock, entitlements: t.services.entitlements });
    await deliverSandboxEvents(payments, broken, t.deps.logger);
    const [failed] = await t.deps.database.db.select().from(paymentEventFailures).where(eq(paymentEventFailures.type, 'checkout.session.completed'));
    expect(failed).toMatchObject({ resolvedAt: null });

    await jobsOf(t).runOnce();
    const [resolved] = await t.deps.database.db.select().from(paymentEventFailures).where(eq(paymentEventFailures.id, failed!.id));
    expect(resolved!.resolvedAt).not.toBeNull();
    expect(await rowsOfSession(t, sessionId)).toHaveLength(1);
  });
});

async function ordersOfAll(subscriptionIds: string[]) {
  return t.deps.database.db.select({ id: orders.id }).from(orders).where(inArray(orders.providerSubscriptionId, subscriptionIds));
}

async function ordersOf(subscriptionId: string) {
  return t.deps.database.db.select({ id: orders.id, status: orders.status }).from(orders).where(eq(orders.providerSubscriptionId, subscriptionId)).orderBy(orders.id);
}
