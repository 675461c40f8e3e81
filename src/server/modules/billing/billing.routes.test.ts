import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { subscriptionViewDtoSchema, upgradePreviewSchema } from '@shared/api-contract';
import { sandboxCheckoutSessions, sandboxInvoices, sandboxSubscriptions, securityEvents, userSubscriptions } from '../../db/schema';
import type { TestApp } from '../../test-support/test-app';
import {
  billingSuite,
  buy,
  buyerBrowser,
  CARDS,
  checkoutBody,
  checkoutRow,
  DAY_MS,
  ordersOfSession,
  rowsOfSession,
  rowsOfUser,
  sandboxOf,
  signUp,
  startCheckout,
  userIdOf,
} from '../../test-support/billing-test-kit';
import { claimCheckoutSession } from '../fulfilment/fulfilment';
import { currentUsername, linkUsername } from '../tradingview/tradingview.repository';
import { computeProration } from '../sandbox/proration';

let t: TestApp;
const { time, email } = billingSuite((app) => (t = app));

const json = async (response: Response) => (await response.json()) as Record<string, unknown> & { error?: { code: string; message: string } };

/** A signed-in member who bought `plan` and claimed it (as the payment page does). */
async function member(name: string, plan: 'monthly' | 'yearly' | 'lifetime' | 'quarterly' = 'monthly', card: string = CARDS.ok) {
  const address = email(name);
  const cookie = await signUp(t, address);
  const sessionId = await buy(t, address, { planType: plan }, cookie, card);
  const userId = await userIdOf(t, cookie);
  await claimCheckoutSession(t.services.entitlements, sessionId, userId);
  return { email: address, cookie, userId, sessionId };
}

describe('POST /api/create-checkout', () => {
  it('lets an anonymous visitor start a monthly subscription checkout and records the tracking fields', async () => {
    const response = await t.request('/api/create-checkout', {
      body: checkoutBody({ fbc: 'fb.1.1700000000000.abc', fbp: 'fb.1.1700000000000.123', userAgent: 'Mozilla/5.0 test' }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { url: string; sessionId: string };
    expect(body.url).toBe(`/sandbox/checkout/${body.sessionId}`);
    expect(await checkoutRow(t, body.sessionId)).toMatchObject({
      planType: 'monthly',
      provider: 'sandbox',
      email: null,
      originPage: '/',
      fbc: 'fb.1.1700000000000.abc',
      fbp: 'fb.1.1700000000000.123',
      userAgent: 'Mozilla/5.0 test',
      status: 'open',
      paymentStatus: 'unpaid',
    });
    const [provider] = await t.deps.database.db.select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.id, body.sessionId));
    expect(provider).toMatchObject({
      mode: 'subscription',
      unitAmount: 3600,
      currency: 'usd',
      successUrl: `http://localhost:3000/payment-success?session_id=${body.sessionId}`,
      cancelUrl: 'http://localhost:3000/payment-canceled',
    });
  });

  it('sells the EU variant on /eu and sends a cancel back to /eu', async () => {
    const { sessionId } = await startCheckout(t, { planType: 'quarterly', originPage: '/eu' });
    expect((await checkoutRow(t, sessionId))?.planType).toBe('euQuarterly');
    const [provider] = await t.deps.database.db.select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.id, sessionId));
    expect(provider).toMatchObject({ planType: 'euQuarterly', unitAmount: 5999, cancelUrl: 'http://localhost:3000/payment-canceled?from=/eu' });
  });

  it('sells lifetime as a one-time payment, also on /eu', async () => {
    const { sessionId } = await startCheckout(t, { planType: 'lifetime', originPage: '/eu', customerEmail: 'Life.Buyer@Example.com' });
    const [provider] = await t.deps.database.db.select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.id, sessionId));
    expect(provider).toMatchObject({ mode: 'payment', planType: 'lifetime', unitAmount: 54999, customerEmail: 'life.buyer@example.com' });
  });

  it.each([
    [{ planType: 'weekly' }, 'planType'],
    [{ originPage: '/us' }, 'originPage'],
    [{ customerEmail: 'not-an-email' }, 'customerEmail'],
    [{ fbc: 'x'.repeat(600) }, 'fbc'],
  ])('refuses %o with a 400 naming the field', async (change, field) => {
    const response = await t.request('/api/create-checkout', { body: { ...checkoutBody(), ...change } });
    expect(response.status).toBe(400);
    const body = await json(response);
    expect(body.error?.code).toBe('validation_failed');
    expect(body.error?.message).toContain(field);
  });

  it('refuses malformed JSON with a 400', async () => {
    const response = await t.request('/api/create-checkout', { body: '{"planType":' });
    expect(response.status).toBe(400);
    expect((await json(response)).error?.code).toBe('invalid_json');
  });

  it('refuses any purchase by a signed-in lifetime holder', async () => {
    const holder = await member('lifetime-holder', 'lifetime');
    for (const plan of ['monthly', 'lifetime'] as const) {
      const signedIn = await t.request('/api/create-checkout', { body: checkoutBody({ planType: plan }), cookie: holder.cookie });
      expect(signedIn.status).toBe(409);
      expect((await json(signedIn)).error).toEqual({ code: 'lifetime_owned', message: 'You already have a Lifetime subscription active. No further purchase required.' });
    }
  });

  it('tells an anonymous visitor nothing about whoever owns the e-mail they name', async () => {
    const holder = await member('lifetime-named', 'lifetime');
    const anonymous = await t.request('/api/create-checkout', { body: checkoutBody({ customerEmail: holder.email.toUpperCase() }) });
    expect(anonymous.status).toBe(200);
    const { sessionId } = (await anonymous.json()) as { sessionId: string };
    // The payment is judged after it is made: a second plan for a holder is refunded there.
    expect(await checkoutRow(t, sessionId)).toMatchObject({ email: holder.email, status: 'open' });
  });

  it('refuses a second active subscription of the same type but allows another plan', async () => {
    const monthly = await member('monthly-holder');
    const same = await t.request('/api/create-checkout', { body: checkoutBody({ planType: 'monthly' }), cookie: monthly.cookie });
    expect(same.status).toBe(409);
    expect((await json(same)).error).toEqual({ code: 'subscription_exists', message: 'You already have an active subscription of this type.' });
    const euSame = await t.request('/api/create-checkout', { body: checkoutBody({ planType: 'monthly', originPage: '/eu' }), cookie: monthly.cookie });
    expect((await json(euSame)).error?.code).toBe('subscription_exists');
    const lifetime = await t.request('/api/create-checkout', { body: checkoutBody({ planType: 'lifetime' }), cookie: monthly.cookie });
    expect(lifetime.status).toBe(200);
  });

  it('fixes the signed-in member’s e-mail and customer on the checkout', async () => {
    const monthly = await member('returning');
    const { sessionId } = await startCheckout(t, { planType: 'lifetime', customerEmail: 'someone-else@example.com' }, monthly.cookie);
    const [provider] = await t.deps.database.db.select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.id, sessionId));
    const [row] = await rowsOfSession(t, monthly.sessionId);
    expect(provider).toMatchObject({ customerEmail: monthly.email, customerId: row?.providerCustomerId });
    expect(provider?.metadata).toMatchObject({ userId: monthly.userId, planType: 'lifetime', originPage: '/' });
  });
});

describe('POST /api/get-payment-details', () => {
  // from the buyer's own browser (the one that started the checkout), signed in with `cookie` when given
  const details = (sessionId: string, cookie?: string) => t.request('/api/get-payment-details', { body: { sessionId }, cookie: buyerBrowser(sessionId, cookie) });

  it('answers 404 for an unknown session and 409 for an unpaid one', async () => {
    const unknown = await details('cs_sbx_doesnotexist');
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).error).toEqual({ code: 'session_not_found', message: 'Payment session not found.' });
    const { sessionId } = await startCheckout(t);
    const unpaid = await details(sessionId);
    expect(unpaid.status).toBe(409);
    expect((await json(unpaid)).error).toEqual({ code: 'session_not_paid', message: 'This payment has not been completed.' });
  });

  it('refuses a missing session id with a 400', async () => {
    const response = await t.request('/api/get-payment-details', { body: {} });
    expect(response.status).toBe(400);
    expect((await json(response)).error?.message).toContain('Missing payment session information.');
  });

  it('says "new" for a buyer without an account, with the paid amount', async () => {
    const buyer = email('new-buyer');
    const sessionId = await buy(t, buyer, { planType: 'yearly' });
    const response = await details(sessionId);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ email: buyer, planType: 'yearly', amountTotal: 20400, amountTax: 0, amountDiscount: 0, promotionCode: null, trial: null, currency: 'usd', userStatus: 'new', emailProven: true });
  });

  it('fulfils on the spot when the buyer arrives before the provider’s event, once', async () => {
    const { sessionId } = await startCheckout(t, { planType: 'monthly' });
    // Paid at the provider, events not delivered yet.
    await sandboxOf(t).sandbox.pay(sessionId, { email: email('early'), cardNumber: CARDS.ok, expiry: '12 / 39', cvc: '123', name: 'Early Bird' });
    expect(await rowsOfSession(t, sessionId)).toHaveLength(0);
    const response = await details(sessionId);
    expect(response.status).toBe(200);
    expect((await json(response)).userStatus).toBe('new');
    expect(await rowsOfSession(t, sessionId)).toHaveLength(1);
    // the events arrive later and change nothing
    const { deliverSandboxEvents } = await import('../sandbox/sandbox-delivery');
    const { createPaymentEventHandler } = await import('../fulfilment/fulfilment');
    await deliverSandboxEvents(sandboxOf(t), createPaymentEventHandler({ db: t.deps.database.db, payments: t.deps.payments, logger: t.deps.logger, clock: time.clock, entitlements: t.services.entitlements }), t.deps.logger);
    expect(await rowsOfSession(t, sessionId)).toHaveLength(1);
    expect(await ordersOfSession(t, sessionId)).toHaveLength(1);
  });

  it('walks existing_needs_login → existing_needs_tv → existing_complete for an existing account', async () => {
    const address = email('existing');
    const cookie = await signUp(t, address);
    const userId = await userIdOf(t, cookie);
    const sessionId = await buy(t, address, { planType: 'quarterly' });

    const anonymous = await json(await details(sessionId));
    expect(anonymous).toMatchObject({ userStatus: 'existing_needs_login', email: address });
    expect(anonymous).not.toHaveProperty('existingUserId');
    const other = await signUp(t, email('someone-else'));
    expect((await json(await details(sessionId, other))).userStatus).toBe('existing_needs_login');

    expect((await json(await details(sessionId, cookie))).userStatus).toBe('existing_needs_tv');
    await claimCheckoutSession(t.services.entitlements, sessionId, userId);
    expect((await json(await details(sessionId, cookie))).userStatus).toBe('existing_needs_tv');
    await linkUsername(t.deps.database.db, userId, 'chart_wizard', new Date());
    expect((await json(await details(sessionId, cookie))).userStatus).toBe('existing_complete');
  });

  it('says new_needs_tv once the account made for this purchase has claimed it', async () => {
    const address = email('fresh');
    const sessionId = await buy(t, address, { planType: 'monthly' });
    expect((await json(await details(sessionId))).userStatus).toBe('new');
    const cookie = await signUp(t, address); // what verify-payment does: create the account, then claim
    const userId = await userIdOf(t, cookie);
    expect((await json(await details(sessionId, cookie))).userStatus).toBe('existing_needs_tv');
    await claimCheckoutSession(t.services.entitlements, sessionId, userId);
    expect((await json(await details(sessionId, cookie))).userStatus).toBe('new_needs_tv');
    expect((await json(await details(sessionId))).userStatus).toBe('existing_needs_login');
  });
});

describe('claimCheckoutSession', () => {
  it('links the purchase once, only to the account of the e-mail that paid, and carries the username over', async () => {
    const address = email('claimer');
    const cookie = await signUp(t, address);
    const userId = await userIdOf(t, cookie);
    const first = await buy(t, address, { planType: 'monthly' });
    await claimCheckoutSession(t.services.entitlements, first, userId);
    await linkUsername(t.deps.database.db, userId, 'tv_claimer', new Date());

    const second = await buy(t, address, { planType: 'lifetime' });
    const intruder = await userIdOf(t, await signUp(t, email('intruder')));
    await expect(claimCheckoutSession(t.services.entitlements, second, intruder)).rejects.toMatchObject({ code: 'email_mismatch', status: 403 });
    const result = await claimCheckoutSession(t.services.entitlements, second, userId);
    expect(result).toMatchObject({ userId, planType: 'lifetime', alreadyClaimed: false });
    expect(await claimCheckoutSession(t.services.entitlements, second, userId)).toMatchObject({ alreadyClaimed: true });
    await expect(claimCheckoutSession(t.services.entitlements, second, intruder)).rejects.toMatchObject({ code: 'session_claimed', status: 409 });

    expect(await rowsOfSession(t, second)).toEqual([expect.objectContaining({ userId, planType: 'lifetime', isActive: true })]);
    // the username is the member's, not a row's: the claimed purchase is shown with it
    expect(await currentUsername(t.deps.database.db, userId)).toBe('tv_claimer');
    const view = subscriptionViewDtoSchema.parse(await (await t.request('/api/subscription', { cookie })).json());
    expect(view).toMatchObject({ planType: 'lifetime', tradingviewUsername: 'tv_claimer' });
    expect(await ordersOfSession(t, second)).toEqual([expect.objectContaining({ userId, amount: 54999, currency: 'usd' })]);
    expect((await checkoutRow(t, second))?.claimedByUserId).toBe(userId);
  });

  it('refuses unknown and unpaid sessions', async () => {
    const userId = await userIdOf(t, await signUp(t, email('nobody')));
    await expect(claimCheckoutSession(t.services.entitlements, 'cs_sbx_missing', userId)).rejects.toMatchObject({ code: 'session_not_found' });
    const { sessionId } = await startCheckout(t);
    await expect(claimCheckoutSession(t.services.entitlements, sessionId, userId)).rejects.toMatchObject({ code: 'session_not_paid' });
  });

  it('is done at fulfilment when the signed-in member who started the checkout paid with their own e-mail', async () => {
    const address = email('auto-claim');
    const cookie = await signUp(t, address);
    const userId = await userIdOf(t, cookie);
    const sessionId = await buy(t, address, { planType: 'yearly' }, cookie);
    expect(await rowsOfSession(t, sessionId)).toEqual([expect.objectContaining({ userId, planType: 'yearly', isActive: true })]);
    expect((await checkoutRow(t, sessionId))?.claimedByUserId).toBe(userId);
  });

  it('is not done at fulfilment for an anonymous buyer typing a member’s e-mail', async () => {
    const address = email('victim');
    await signUp(t, address);
    const sessionId = await buy(t, address, { planType: 'monthly' });
    expect(await rowsOfSession(t, sessionId)).toEqual([expect.objectContaining({ userId: null })]);
  });
});

describe('GET /api/subscription and POST /api/check-subscription', () => {
  it('need a signed-in user', async () => {
    expect((await t.request('/api/subscription')).status).toBe(401);
    expect((await t.request('/api/check-subscription', { body: {} })).status).toBe(401);
  });

  it('answers an empty view without history', async () => {
    const cookie = await signUp(t, email('empty'));
    const view = subscriptionViewDtoSchema.parse(await (await t.request('/api/subscription', { cookie })).json());
    expect(view).toMatchObject({ planType: null, isActive: false, amount: null, latestPlanType: null });
  });

  it('shows the member’s plan with the order’s amount', async () => {
    const monthly = await member('viewer');
    const view = subscriptionViewDtoSchema.parse(await (await t.request('/api/subscription', { cookie: monthly.cookie })).json());
    const [row] = await rowsOfSession(t, monthly.sessionId);
    expect(view).toMatchObject({ planType: 'monthly', isActive: true, isCanceled: false, status: 'active', amount: 3600, currency: 'usd', canCancel: true, latestPlanType: 'monthly' });
    expect(view.expiresAt).toBe(row?.expiresAt?.toISOString());
  });

  it("shows the member's current TradingView username, the new one after a change", async () => {
    const monthly = await member('username-view');
    const view = async () => subscriptionViewDtoSchema.parse(await (await t.request('/api/subscription', { cookie: monthly.cookie })).json());
    expect(await view()).toMatchObject({ planType: 'monthly', tradingviewUsername: null });
    await linkUsername(t.deps.database.db, monthly.userId, 'first_name', new Date());
    expect(await view()).toMatchObject({ planType: 'monthly', tradingviewUsername: 'first_name' });
    await linkUsername(t.deps.database.db, monthly.userId, 'second_name', new Date());
    expect(await view()).toMatchObject({ planType: 'monthly', tradingviewUsername: 'second_name' });
  });

  it('forces a provider sync when the active row has no expiry', async () => {
    const monthly = await member('no-expiry');
    const [row] = await rowsOfSession(t, monthly.sessionId);
    await t.deps.database.db.update(userSubscriptions).set({ expiresAt: null }).where(eq(userSubscriptions.id, row!.id));
    const view = subscriptionViewDtoSchema.parse(await (await t.request('/api/subscription', { cookie: monthly.cookie })).json());
    expect(view.expiresAt).toBe(row?.expiresAt?.toISOString());
  });

  it('check-subscription picks up a paid checkout whose events were missed', async () => {
    const address = email('missed');
    const cookie = await signUp(t, address);
    const userId = await userIdOf(t, cookie);
    const { sessionId } = await startCheckout(t, { planType: 'monthly' }, cookie);
    await sandboxOf(t).sandbox.pay(sessionId, { email: null, cardNumber: CARDS.ok, expiry: '12 / 39', cvc: '123', name: 'M' });
    const response = await t.request('/api/check-subscription', { body: {}, cookie });
    expect(await response.json()).toEqual({ success: true });
    expect(await rowsOfUser(t, userId)).toEqual([expect.objectContaining({ planType: 'monthly', isActive: true })]);
  });
});

describe('plan changes', () => {
  const preview = (cookie: string | undefined, planType: string) => t.request('/api/preview-upgrade-cost', { body: { planType }, ...(cookie ? { cookie } : {}) });
  const update = (cookie: string | undefined, planType: string) => t.request('/api/update-subscription', { body: { planType }, ...(cookie ? { cookie } : {}) });

  it('need a signed-in user and a valid plan', async () => {
    expect((await preview(undefined, 'yearly')).status).toBe(401);
    expect((await update(undefined, 'yearly')).status).toBe(401);
    const cookie = await signUp(t, email('validator'));
    const bad = await preview(cookie, 'weekly');
    expect(bad.status).toBe(400);
    expect((await json(bad)).error?.code).toBe('validation_failed');
  });

  it('answers no_customer without a subscription, redirect for lifetime, 409 for the same plan', async () => {
    const cookie = await signUp(t, email('no-sub'));
    const none = await preview(cookie, 'yearly');
    expect(none.status).toBe(404);
    expect((await json(none)).error).toEqual({ code: 'no_customer', message: 'No Stripe customer found for this account.' });
    const monthly = await member('changer-a');
    expect(await (await preview(monthly.cookie, 'lifetime')).json()).toEqual({ redirectToCheckout: true });
    const same = await preview(monthly.cookie, 'monthly');
    expect(same.status).toBe(409);
    expect((await json(same)).error?.code).toBe('subscription_exists');
    const lifetimeUpdate = await update(monthly.cookie, 'lifetime');
    expect(lifetimeUpdate.status).toBe(400);
  });

  it('refuses lifetime holders', async () => {
    const holder = await member('lifetime-changer', 'lifetime');
    const response = await preview(holder.cookie, 'yearly');
    expect(response.status).toBe(409);
    expect((await json(response)).error?.code).toBe('lifetime_owned');
    expect((await json(await update(holder.cookie, 'yearly'))).error?.code).toBe('lifetime_owned');
  });

  it('previews Stripe-style proration and charges exactly the previewed amount', async () => {
    const monthly = await member('upgrader');
    const [before] = await rowsOfSession(t, monthly.sessionId);
    time.advance(10 * DAY_MS);
    const previewed = upgradePreviewSchema.parse(await (await preview(monthly.cookie, 'yearly')).json());
    const [sub] = await t.deps.database.db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, before!.providerSubscriptionId!));
    const expected = computeProration({
      current: { amount: 3600, intervalMonths: 1, name: '' },
      next: { amount: 20400, intervalMonths: 12, name: '' },
      periodStart: sub!.currentPeriodStart,
      periodEnd: sub!.currentPeriodEnd,
      prorationDate: time.now(),
    });
    // 10 of ~30 days used: about two thirds of $36 come back
    expect(previewed).toEqual({ currentPlan: 'monthly', newPlan: 'yearly', prorationCredit: expected.prorationCredit, newPlanCharge: 20400, totalDue: 20400 - expected.prorationCredit, currency: 'usd' });
    expect(expected.prorationCredit).toBeGreaterThan(2300);
    expect(expected.prorationCredit).toBeLessThan(2500);

    time.advance(30_000); // the member reads the dialog for half a minute
    const response = await update(monthly.cookie, 'yearly');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, planType: 'yearly' });

    const [after] = await rowsOfSession(t, monthly.sessionId);
    expect(after).toMatchObject({ planType: 'yearly', isActive: true, orderId: null });
    expect(after!.expiresAt!.getTime()).toBeGreaterThan(before!.expiresAt!.getTime() + 300 * DAY_MS);
    const invoices = await t.deps.database.db.select().from(sandboxInvoices).where(eq(sandboxInvoices.billingReason, 'subscription_update'));
    expect(invoices.map((invoice) => invoice.amountDue)).toContain(previewed.totalDue);
    const events = await t.deps.database.db.select().from(securityEvents).where(eq(securityEvents.userId, monthly.userId));
    expect(events).toEqual([expect.objectContaining({ event: 'SUBSCRIPTION_CHANGE', details: { from: 'monthly', to: 'yearly' } })]);

    const view = subscriptionViewDtoSchema.parse(await (await t.request('/api/subscription', { cookie: monthly.cookie })).json());
    expect(view).toMatchObject({ planType: 'yearly', amount: 20400 });
  });

  it('keeps the plan when the card is declined', async () => {
    const monthly = await member('declined-upgrade', 'monthly', CARDS.failsLater);
    const response = await update(monthly.cookie, 'quarterly');
    expect(response.status).toBe(402);
    expect((await json(response)).error).toEqual({ code: 'payment_failed', message: 'Your card was declined.' });
    expect(await rowsOfSession(t, monthly.sessionId)).toEqual([expect.objectContaining({ planType: 'monthly', isActive: true })]);
  });
});

describe('POST /api/post-payment-cleanup', () => {
  const cleanup = (cookie: string | undefined, body: unknown) => t.request('/api/post-payment-cleanup', { body, ...(cookie ? { cookie } : {}) });

  it('needs the signed-in owner of the e-mail', async () => {
    expect((await cleanup(undefined, { email: 'a@example.com', newPlanType: 'lifetime' })).status).toBe(401);
    const monthly = await member('cleanup-owner');
    const other = await cleanup(monthly.cookie, { email: 'someone@example.com', newPlanType: 'lifetime' });
    expect(other.status).toBe(403);
    expect((await cleanup(monthly.cookie, { email: 'bad', newPlanType: 'lifetime' })).status).toBe(400);
  });

  it('refuses before the lifetime purchase is theirs', async () => {
    const monthly = await member('cleanup-early');
    const response = await cleanup(monthly.cookie, { email: monthly.email, newPlanType: 'lifetime' });
    expect(response.status).toBe(409);
    expect(await rowsOfSession(t, monthly.sessionId)).toEqual([expect.objectContaining({ isActive: true })]);
  });

  it('ends the replaced subscription after a lifetime purchase', async () => {
    const monthly = await member('upgrader-to-life');
    await buy(t, monthly.email, { planType: 'lifetime' }, monthly.cookie);
    const response = await cleanup(monthly.cookie, { email: monthly.email.toUpperCase(), newPlanType: 'lifetime' });
    expect(await response.json()).toEqual({ success: true });
    expect(await rowsOfSession(t, monthly.sessionId)).toEqual([expect.objectContaining({ status: 'canceled', isActive: false })]);
    const view = subscriptionViewDtoSchema.parse(await (await t.request('/api/subscription', { cookie: monthly.cookie })).json());
    expect(view).toMatchObject({ planType: 'lifetime', isActive: true, isCanceled: false, amount: 54999 });
  });
});

describe('POST /api/customer-portal', () => {
  it('needs a signed-in user with a customer', async () => {
    expect((await t.request('/api/customer-portal', { body: {} })).status).toBe(401);
    const cookie = await signUp(t, email('portal-none'));
    const none = await t.request('/api/customer-portal', { body: {}, cookie });
    expect(none.status).toBe(404);
    expect((await json(none)).error?.code).toBe('no_customer');
  });

  it('opens the sandbox portal of the member’s customer', async () => {
    const monthly = await member('portal');
    const [row] = await rowsOfSession(t, monthly.sessionId);
    const response = await t.request('/api/customer-portal', { body: {}, cookie: monthly.cookie });
    expect(await response.json()).toEqual({ url: `/sandbox/portal/${row?.providerCustomerId}` });
  });
});
