// Free trials with Stripe, through the real SDK against the Stripe-shaped server: the checkout asks
// for trial_period_days with the card collected, a repeat (same card fingerprint, same TradingView
// username) is ended with trial_end=now and charged, trial_will_end reminds, the trial's end
// converts it, and a cancellation during the trial ends it without a charge.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { outbox, trials, userSubscriptions } from '../../db/schema';
import { ordersOfSession, ordersOfSubscription, rowsOfSession, signUp, startCheckout } from '../../test-support/billing-test-kit';
import { stripeSuite } from '../../test-support/stripe-test-kit';

const bench = stripeSuite({ TRIAL_DAYS: '7' });
const { email, webhook, deliver, lastRequest } = bench;

async function trialOf(subscriptionId: string) {
  const [row] = await bench.t.deps.database.db.select().from(trials).where(eq(trials.providerSubscriptionId, subscriptionId));
  return row;
}

async function templatesTo(address: string) {
  return (await bench.t.deps.database.db.select().from(outbox).where(eq(outbox.to, address))).map((mail) => mail.template);
}

/** A signed-in buyer's trial checkout paid with a card of `fingerprint`, its completion delivered. */
async function stripeTrial(fingerprint: string, username?: string) {
  const address = email('stripe-trial');
  const cookie = await signUp(bench.t, address);
  const { sessionId } = await startCheckout(bench.t, { planType: 'monthly' }, cookie);
  const session = bench.stripe.complete(sessionId, address, { fingerprint });
  expect((await webhook('checkout.session.completed', session)).status).toBe(200);
  if (username) {
    const activated = await bench.t.request('/api/tradingview/activate', { body: { tv_username: username }, cookie });
    expect(activated.status, await activated.clone().text()).toBe(200);
  }
  return { address, cookie, sessionId, subscriptionId: session.subscription as string };
}

describe('free trials with Stripe', () => {
  it('a trial checkout asks for trial_period_days with the card collected up front; lifetime never', async () => {
    await startCheckout(bench.t, { planType: 'quarterly' });
    const trial = lastRequest('POST', /^\/v1\/checkout\/sessions$/)!;
    expect(trial.form.get('subscription_data[trial_period_days]')).toBe('7');
    expect(trial.form.get('payment_method_collection')).toBe('always');
    await startCheckout(bench.t, { planType: 'lifetime' });
    const lifetime = lastRequest('POST', /^\/v1\/checkout\/sessions$/)!;
    expect(lifetime.form.has('subscription_data[trial_period_days]')).toBe(false);
  });

  it('the trialing subscription gives access to the trial end, nothing paid, and the card fingerprint is kept', async () => {
    const buyer = await stripeTrial('fp_first');
    const [row] = await rowsOfSession(bench.t, buyer.sessionId);
    const sub = bench.stripe.subscriptions.get(buyer.subscriptionId)!;
    expect(row).toMatchObject({ status: 'trialing', isActive: true });
    expect(row!.expiresAt!.getTime()).toBe((sub.trial_end as number) * 1000);
    expect((await ordersOfSession(bench.t, buyer.sessionId)).map((order) => order.amount)).toEqual([0]);
    expect(await trialOf(buyer.subscriptionId)).toMatchObject({ outcome: 'running', cardFingerprint: 'fp_first', amount: 3600 });
    expect((await (await bench.t.request('/api/subscription', { cookie: buyer.cookie })).json()).status).toBe('trialing');
  });

  it('the same card again: trial_end=now at Stripe, the charge recorded, the buyer told', async () => {
    await stripeTrial('fp_shared');
    const repeat = await stripeTrial('fp_shared');
    expect(lastRequest('POST', new RegExp(`^/v1/subscriptions/${repeat.subscriptionId}$`))?.form.get('trial_end')).toBe('now');
    expect(await trialOf(repeat.subscriptionId)).toMatchObject({ outcome: 'refused_repeat', repeatReason: 'card' });
    expect((await rowsOfSession(bench.t, repeat.sessionId))[0]).toMatchObject({ status: 'active', isActive: true });
    const charged = bench.stripe.subscriptions.get(repeat.subscriptionId)!.latest_invoice as string;
    expect((await deliver(bench.stripe.invoicePaidEvent(charged))).status).toBe(200);
    const subscriptionOrders = await ordersOfSubscription(bench.t, repeat.subscriptionId);
    expect(subscriptionOrders.map((order) => order.amount).sort()).toEqual([0, 3600]);
    expect(await templatesTo(repeat.address)).toContain('trial_refused');
  });

  it('the TradingView username of an earlier trial, attached later, ends the trial at once', async () => {
    const first = await stripeTrial('fp_tv_one', 'stripe_farmer');
    // a username belongs to one member (decision 048): refused to anyone else while the first trial
    // gives access; once it ended, the next member to claim it is judged by it
    const [firstRow] = await bench.t.deps.database.db.select({ userId: userSubscriptions.userId }).from(userSubscriptions).where(eq(userSubscriptions.providerSubscriptionId, first.subscriptionId));
    await bench.t.deps.database.db.update(userSubscriptions).set({ isActive: false }).where(eq(userSubscriptions.userId, firstRow!.userId!));
    const repeat = await stripeTrial('fp_tv_two', 'stripe_farmer');
    expect(await trialOf(repeat.subscriptionId)).toMatchObject({ outcome: 'refused_repeat', repeatReason: 'tradingview_username' });
    expect(bench.stripe.subscriptions.get(repeat.subscriptionId)!.status).toBe('active');
  });

  it('trial_will_end mails the reminder; the trial end converts it', async () => {
    const buyer = await stripeTrial('fp_convert');
    expect((await deliver(bench.stripe.trialWillEndEvent(buyer.subscriptionId))).status).toBe(200);
    expect(await templatesTo(buyer.address)).toContain('trial_ending');
    for (const event of bench.stripe.endTrial(buyer.subscriptionId)) expect((await deliver(event)).status).toBe(200);
    expect(await trialOf(buyer.subscriptionId)).toMatchObject({ outcome: 'converted' });
    const subscriptionOrders = await ordersOfSubscription(bench.t, buyer.subscriptionId);
    expect(subscriptionOrders.map((order) => order.amount).sort()).toEqual([0, 3600]);
  });

  it("the trial end converts it also when its customer.subscription.updated comes before its invoice.paid", async () => {
    const buyer = await stripeTrial('fp_convert_reversed');
    const [paid, updated] = bench.stripe.endTrial(buyer.subscriptionId);
    expect([paid!.type, updated!.type]).toEqual(['invoice.paid', 'customer.subscription.updated']);
    expect((await deliver(updated!)).status).toBe(200);
    expect(await trialOf(buyer.subscriptionId)).toMatchObject({ outcome: 'converted' });
    expect((await deliver(paid!)).status).toBe(200);
    expect(await trialOf(buyer.subscriptionId)).toMatchObject({ outcome: 'converted' });
    const subscriptionOrders = await ordersOfSubscription(bench.t, buyer.subscriptionId);
    expect(subscriptionOrders.map((order) => order.amount).sort()).toEqual([0, 3600]);
  });

  it('canceled during the trial: it ends with the trial, without a charge or a reminder', async () => {
    const buyer = await stripeTrial('fp_cancel');
    const sub = bench.stripe.subscriptions.get(buyer.subscriptionId)!;
    sub.cancel_at_period_end = true;
    await webhook('customer.subscription.updated', sub);
    await deliver(bench.stripe.trialWillEndEvent(buyer.subscriptionId));
    expect(await templatesTo(buyer.address)).not.toContain('trial_ending');
    for (const event of bench.stripe.endTrial(buyer.subscriptionId)) expect((await deliver(event)).status).toBe(200);
    expect(await trialOf(buyer.subscriptionId)).toMatchObject({ outcome: 'canceled' });
    expect([...bench.stripe.charges.values()].filter((charge) => charge.customer === sub.customer)).toEqual([]);
    expect((await (await bench.t.request('/api/access', { cookie: buyer.cookie })).json()).hasAccess).toBe(false);
  });
});
