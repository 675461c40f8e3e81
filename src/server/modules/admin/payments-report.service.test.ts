// The console's payments page on seeded data: order filters (the query string overview numbers
// link with), and a provider event that failed in fulfilment, listed and replayed through it.
import { describe, expect, it } from 'vitest';
import type { OrderItem, PaymentEvents } from '@shared/admin-ops-contract';
import { orders } from '../../db/schema';
import { createLogger } from '../../logger';
import type { TestApp } from '../../test-support/test-app';
import { buy, jobsOf, payBody, sandboxOf, signUp, startCheckout, userIdOf } from '../../test-support/billing-test-kit';
import { createPaymentEventHandler } from '../fulfilment/fulfilment';
import { deliverSandboxEvents } from '../sandbox/sandbox-delivery';
import { consoleSuite } from '../../test-support/admin-test-kit';

let t: TestApp;
let operator: string;

consoleSuite((suite) => ({ t, operator } = suite));

const get = async <T>(path: string): Promise<T> => {
  const response = await t.request(`/api/admin${path}`, { cookie: operator });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as T;
};
const ordersFor = async (query: string) => (await get<{ orders: OrderItem[] }>(`/payments/orders${query}`)).orders.map((order) => `${order.planType} ${order.status} ${order.createdAt.slice(0, 10)}`);

describe('orders', () => {
  it('filter by plan, status and day (both ends included), newest first', async () => {
    const at = (day: string) => new Date(`${day}T12:00:00Z`);
    await t.deps.database.db.insert(orders).values([
      { planType: 'monthly', amount: 3600, currency: 'usd', status: 'paid', createdAt: at('2031-01-01') },
      { planType: 'monthly', amount: 3600, currency: 'usd', status: 'refunded', createdAt: at('2031-01-10') },
      { planType: 'yearly', amount: 20400, currency: 'usd', status: 'paid', createdAt: at('2031-01-31') },
      { planType: 'yearly', amount: 20400, currency: 'usd', status: 'disputed', createdAt: at('2031-02-01') },
    ]);
    const january = '&from=2031-01-01&to=2031-01-31';
    expect(await ordersFor(`?${january.slice(1)}`)).toEqual(['yearly paid 2031-01-31', 'monthly refunded 2031-01-10', 'monthly paid 2031-01-01']);
    expect(await ordersFor(`?plan=monthly${january}`)).toEqual(['monthly refunded 2031-01-10', 'monthly paid 2031-01-01']);
    expect(await ordersFor(`?status=paid&plan=yearly${january}`)).toEqual(['yearly paid 2031-01-31']);
    expect(await ordersFor('?status=disputed&from=2031-01-01')).toEqual(['yearly disputed 2031-02-01']);
    expect(await ordersFor('?from=2031-01-02&to=2031-01-30')).toEqual(['monthly refunded 2031-01-10']);
  });
});

describe('payment events', () => {
  it('lists an event fulfilment could not apply and replays it through the same path', async () => {
    const payments = sandboxOf(t);
    const email = 'replay-buyer@example.com';
    const { sessionId } = await startCheckout(t, { customerEmail: email });
    await payments.sandbox.pay(sessionId, payBody(email));
    // The provider is unreachable while the events are delivered: each delivery fails and is kept.
    const unreachable = { ...payments, retrieveCheckoutSession: async () => Promise.reject(new Error('provider timed out')) };
    const broken = createPaymentEventHandler({ db: t.deps.database.db, payments: unreachable, logger: createLogger('silent'), clock: t.deps.clock, entitlements: t.services.entitlements });
    await deliverSandboxEvents(payments, broken, createLogger('silent'));

    const before = await get<PaymentEvents>('/payments/events');
    const failure = before.failures.find((entry) => entry.type === 'checkout.session.completed');
    expect(failure).toMatchObject({ kind: 'handler', error: 'provider timed out', attempts: 1, resolvedAt: null });
    expect(before.processed.some((event) => event.id === failure!.eventId)).toBe(false);
    const buyersOrders = async () => (await get<{ orders: OrderItem[] }>('/payments/orders?status=paid')).orders.filter((order) => order.email === email);
    expect(await buyersOrders()).toEqual([]);

    const replay = await t.request(`/api/admin/payments/events/${failure!.id}/replay`, { body: {}, cookie: operator });
    expect(await replay.json()).toEqual({ result: 'processed' });
    const after = await get<PaymentEvents>('/payments/events');
    expect(after.failures.find((entry) => entry.id === failure!.id)?.resolvedAt).not.toBeNull();
    expect(after.processed.some((event) => event.id === failure!.eventId)).toBe(true);
    expect(await buyersOrders()).toMatchObject([{ planType: 'monthly', status: 'paid', currency: 'usd' }]);

    // A second replay is harmless: the event is already applied.
    const again = await t.request(`/api/admin/payments/events/${failure!.id}/replay`, { body: {}, cookie: operator });
    expect(await again.json()).toEqual({ result: 'duplicate' });
  });

  it('answers 404 for a failure that does not exist', async () => {
    const missing = await t.request('/api/admin/payments/events/00000000-0000-4000-8000-000000000000/replay', { body: {}, cookie: operator });
    expect(missing.status).toBe(404);
  });
});

describe('refunding an order (#46)', () => {
  it('links the order to its member, refunds it in full at the provider once, audits it, and ends the access it paid for', async () => {
    const email = 'refund-me@example.com';
    const cookie = await signUp(t, email);
    await buy(t, email, { customerEmail: email }, cookie);
    await jobsOf(t).runOnce();
    const userId = await userIdOf(t, cookie);
    const [order] = (await get<{ orders: OrderItem[] }>('/payments/orders?status=paid')).orders.filter((item) => item.email === email);
    expect(order).toMatchObject({ userId, amount: 3600, status: 'paid' });
    expect((await (await t.request('/api/access', { cookie })).json()).hasAccess).toBe(true);

    const refunded = await t.request(`/api/admin/payments/orders/${order!.id}/refund`, { body: {}, cookie: operator });
    expect(refunded.status, await refunded.clone().text()).toBe(200);
    expect(await refunded.json()).toEqual({ message: 'Refunded $36.00. The access this order paid for ends when the provider confirms the refund.' });
    await jobsOf(t).runOnce();
    expect((await get<{ orders: OrderItem[] }>('/payments/orders?status=refunded')).orders.map((item) => item.id)).toContain(order!.id);
    expect((await (await t.request('/api/access', { cookie })).json()).hasAccess).toBe(false);

    const log = await get<{ entries: { action: string; targetUserId: string | null; details: Record<string, unknown> }[] }>(`/audit-log?member=${userId}`);
    expect(log.entries).toContainEqual(expect.objectContaining({ action: 'refund_order', targetUserId: userId, details: { order: order!.id, amount: 3600, currency: 'usd' } }));

    // a second refund is refused with the reason the console shows beside its disabled button
    const again = await t.request(`/api/admin/payments/orders/${order!.id}/refund`, { body: {}, cookie: operator });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { message: string } }).error.message).toBe('This order was refunded already.');
    expect((await t.request('/api/admin/payments/orders/00000000-0000-4000-8000-000000000000/refund', { body: {}, cookie: operator })).status).toBe(404);
    expect((await t.request('/api/admin/payments/orders/nope/refund', { body: {}, cookie: operator })).status).toBe(400);
  });
});
