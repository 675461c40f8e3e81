import { inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { orders, processedEvents, sandboxEvents } from '../../db/schema';
import type { TestApp } from '../../test-support/test-app';
import { billingSuite, buy, CARDS, rowsOfSession, sandboxOf, startCheckout, undeliveredEvents } from '../../test-support/billing-test-kit';
import type { PaymentEvent } from '../payments/payments.port';
import { createSandboxJobs, DELIVERY_LANES } from './sandbox-jobs';

let t: TestApp;
const { time, email } = billingSuite((app) => (t = app));

/** A sandbox job on the app's handler that notes each event it hands over and what the handler answered. */
function recordingJobs(handled: { event: PaymentEvent; result: string }[]) {
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
  });
}

describe('the sandbox jobs: a renewal wave', () => {
  it('delivers every event of many subscriptions due at once exactly once, each subscription in order, with two deliverers at work', async () => {
    const subscriptions = DELIVERY_LANES * 3;
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

describe('the sandbox jobs: purchases paid while no one delivered', () => {
  it("hands each purchase's events over in the order they were emitted, several purchases side by side", async () => {
    const sessions: string[] = [];
    for (let i = 0; i < DELIVERY_LANES * 2; i += 1) {
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
