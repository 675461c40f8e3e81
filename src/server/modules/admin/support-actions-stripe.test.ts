// Support actions with Stripe, through the real SDK against the Stripe-shaped server: free days are
// a later trial_end with proration_behavior none, a pause is pause_collection (behavior void) with
// the vendor's access choice in the subscription's metadata, a ban cancels the subscription and
// refunds the payment; the webhooks Stripe sends afterwards leave our state as the action left it.
import { desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { userSubscriptions } from '../../db/schema';
import { OPERATOR_EMAIL } from '../../test-support/admin-test-kit';
import { signUp, startCheckout, userIdOf } from '../../test-support/billing-test-kit';
import { stripeSuite } from '../../test-support/stripe-test-kit';
import { operatorSession } from '../../test-support/test-app';
import { userHasPremiumAccess } from '../access/access.repository';

const bench = stripeSuite({ ADMIN_EMAILS: OPERATOR_EMAIL });
const { email, webhook, lastRequest } = bench;
let operator: string;

beforeAll(async () => {
  operator = (await operatorSession(bench.t, OPERATOR_EMAIL)).cookie;
});

const db = () => bench.t.deps.database.db;
const act = (userId: string, action: string, body: unknown = {}) => bench.t.request(`/api/admin/members/${userId}/${action}`, { cookie: operator, body });

/** A signed-in member who paid for monthly on Stripe's Checkout; answers its Stripe subscription. */
async function stripeMember() {
  const address = email('stripe-support');
  const cookie = await signUp(bench.t, address);
  const { sessionId } = await startCheckout(bench.t, { planType: 'monthly' }, cookie);
  const session = bench.stripe.complete(sessionId, address);
  expect((await webhook('checkout.session.completed', session)).status).toBe(200);
  return { address, cookie, userId: await userIdOf(bench.t, cookie), subscriptionId: session.subscription as string };
}

async function rowOf(userId: string) {
  const [row] = await db().select().from(userSubscriptions).where(eq(userSubscriptions.userId, userId)).orderBy(desc(userSubscriptions.createdAt));
  return row!;
}

type Json = Record<string, unknown>;
const subscription = (id: string) => bench.stripe.subscriptions.get(id)!;
const periodEnd = (id: string) => ((subscription(id).items as { data: Json[] }).data[0]!.current_period_end as number) * 1000;
/** Stripe re-sends the subscription as it now is; our handler reads it again. */
const subscriptionUpdated = async (id: string) => expect((await webhook('customer.subscription.updated', subscription(id))).status).toBe(200);

describe('support actions with Stripe', () => {
  it('free days: trial_end moves to the period end plus the days, nothing prorated or charged', async () => {
    const member = await stripeMember();
    const end = periodEnd(member.subscriptionId);
    const charges = bench.stripe.charges.size;
    const response = await act(member.userId, 'free-days', { days: 7 });
    expect(response.status, await response.clone().text()).toBe(200);

    const update = lastRequest('POST', new RegExp(`^/v1/subscriptions/${member.subscriptionId}$`))!;
    const until = end + 7 * 86_400_000;
    expect(update.form.get('trial_end')).toBe(String(until / 1000));
    expect(update.form.get('proration_behavior')).toBe('none');
    expect(subscription(member.subscriptionId)).toMatchObject({ status: 'trialing', trial_end: until / 1000 });
    expect(bench.stripe.charges.size).toBe(charges);
    await subscriptionUpdated(member.subscriptionId);
    expect(await rowOf(member.userId)).toMatchObject({ status: 'trialing', isActive: true, expiresAt: new Date(until) });
  });

  it('pause keeping access: pause_collection void, the renewal voided and access kept; resumed, collection is back', async () => {
    const member = await stripeMember();
    const response = await act(member.userId, 'pause-collection', { access: 'keep' });
    expect(response.status, await response.clone().text()).toBe(200);
    const pause = lastRequest('POST', new RegExp(`^/v1/subscriptions/${member.subscriptionId}$`))!;
    expect(pause.form.get('pause_collection[behavior]')).toBe('void');
    expect(pause.form.get('metadata[pause_access]')).toBe('keep');
    expect(await rowOf(member.userId)).toMatchObject({ collectionPaused: true, isActive: true });

    const charges = bench.stripe.charges.size;
    const voided = bench.stripe.renew(member.subscriptionId);
    expect(bench.stripe.invoices.get(voided)).toMatchObject({ status: 'void', amount_paid: 0 });
    expect(bench.stripe.charges.size).toBe(charges);
    await subscriptionUpdated(member.subscriptionId);
    expect(await rowOf(member.userId)).toMatchObject({ collectionPaused: true, isActive: true, expiresAt: new Date(periodEnd(member.subscriptionId)) });

    expect((await act(member.userId, 'resume-collection')).status).toBe(200);
    expect(lastRequest('POST', new RegExp(`^/v1/subscriptions/${member.subscriptionId}$`))!.form.get('pause_collection')).toBe('');
    expect(subscription(member.subscriptionId)).toMatchObject({ pause_collection: null, metadata: { planType: 'monthly' } });
    expect(await rowOf(member.userId)).toMatchObject({ collectionPaused: false, isActive: true });
    const paid = bench.stripe.renew(member.subscriptionId);
    expect(bench.stripe.invoices.get(paid)).toMatchObject({ status: 'paid' });
  });

  it('pause stopping access: Stripe keeps the choice, so its later events do not bring access back before resume', async () => {
    const member = await stripeMember();
    expect((await act(member.userId, 'pause-collection', { access: 'stop' })).status).toBe(200);
    expect(subscription(member.subscriptionId)).toMatchObject({ pause_collection: { behavior: 'void' }, metadata: { pause_access: 'stop' } });
    expect(await userHasPremiumAccess(db(), member.userId)).toBe(false);
    await subscriptionUpdated(member.subscriptionId);
    expect(await userHasPremiumAccess(db(), member.userId)).toBe(false);
    expect((await act(member.userId, 'resume-collection')).status).toBe(200);
    expect(await userHasPremiumAccess(db(), member.userId)).toBe(true);
  });

  it('ban: the subscription is canceled at Stripe and the payment refunded; its events keep access off; checkout refused before Stripe is asked', async () => {
    const member = await stripeMember();
    const refunds = bench.stripe.refunds.size;
    const response = await act(member.userId, 'ban', { refundLastPayment: true });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(lastRequest('DELETE', new RegExp(`^/v1/subscriptions/${member.subscriptionId}$`))).toBeDefined();
    expect(subscription(member.subscriptionId).status).toBe('canceled');
    expect(bench.stripe.refunds.size).toBe(refunds + 1);
    expect(await userHasPremiumAccess(db(), member.userId)).toBe(false);

    expect((await webhook('customer.subscription.deleted', subscription(member.subscriptionId))).status).toBe(200);
    const firstInvoice = subscription(member.subscriptionId).latest_invoice as string;
    expect((await webhook('charge.refunded', bench.stripe.chargeOf(firstInvoice))).status).toBe(200);
    expect(await rowOf(member.userId)).toMatchObject({ isActive: false, status: 'canceled', revokedReason: 'banned' });
    expect(await userHasPremiumAccess(db(), member.userId)).toBe(false);

    const sessions = bench.stripe.sessions.size;
    const checkout = await bench.t.request('/api/create-checkout', { cookie: member.cookie, body: { planType: 'monthly', customerEmail: null, fbc: null, fbp: null, userAgent: null, originPage: '/' } });
    expect(checkout.status).toBe(403);
    expect(bench.stripe.sessions.size).toBe(sessions);
  });

  it('Stripe refuses what it refuses: an update of a canceled subscription, a trial end in the past or beyond two years', async () => {
    const member = await stripeMember();
    const payments = bench.t.deps.payments;
    await expect(payments.extendPeriod(member.subscriptionId, new Date(Date.now() - 60_000))).rejects.toMatchObject({ status: 502, message: expect.stringContaining('must be an integer Unix timestamp in the future') });
    await expect(payments.extendPeriod(member.subscriptionId, new Date(Date.now() + 800 * 86_400_000))).rejects.toMatchObject({ message: expect.stringContaining('less than 730 days') });
    await payments.cancelSubscriptionNow(member.subscriptionId);
    await expect(payments.pauseCollection(member.subscriptionId, 'keep')).rejects.toMatchObject({ message: expect.stringContaining('A canceled subscription can only update its cancellation_details and metadata.') });
    expect(subscription(member.subscriptionId)).toMatchObject({ status: 'canceled', pause_collection: null });
  });
});
