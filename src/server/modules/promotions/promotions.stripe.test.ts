// Promotion codes through the Stripe adapter against the Stripe look-alike: mirrored once as a
// coupon plus a promotion code (a retry, a restart or a crash between Stripe's answer and our
// write finds them again), preset with `discounts` or typed by the buyer (`allow_promotion_codes`),
// charged at the discounted price, and kept on renewals for the coupon's duration.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PromotionItem } from '@shared/promotions-contract';
import { promotionCodes } from '../../db/schema';
import { createLogger } from '../../logger';
import { buyerBrowser, checkoutRow, ordersOfSession, ordersOfSubscription, startCheckout } from '../../test-support/billing-test-kit';
import { STRIPE_TEST_ENV, TEST_PRICE_IDS } from '../../test-support/fake-stripe-server';
import { stripeSuite } from '../../test-support/stripe-test-kit';
import { operatorSession } from '../../test-support/test-app';
import { createStripePayments } from '../payments/stripe-payments';
import { createPromotionsService } from './promotions.service';

const OPERATOR = 'promo-operator@example.com';
const bench = stripeSuite({ ADMIN_EMAILS: OPERATOR });
let operator: string;
let counter = 0;
const email = (name: string) => `${name}-${++counter}@example.com`;
const requestsTo = (method: string, path: RegExp) => bench.stripe.requests.filter((request) => request.method === method && path.test(request.path));

beforeAll(async () => {
  operator = (await operatorSession(bench.t, OPERATOR)).cookie;
});

async function create(body: Record<string, unknown>): Promise<PromotionItem> {
  const response = await bench.t.request('/api/admin/promotion-codes', { body, cookie: operator });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as PromotionItem;
}

/** Another instance of the shop (a restart, a second server) on the same database and Stripe account. */
function anotherInstance() {
  const payments = createStripePayments(
    { secretKey: STRIPE_TEST_ENV.STRIPE_SECRET_KEY, webhookSecret: STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET, priceIds: TEST_PRICE_IDS, connection: { host: '127.0.0.1', port: bench.stripe.port, protocol: 'http' }, timeoutMs: 5_000 },
    createLogger('silent'),
  );
  return createPromotionsService({ db: bench.t.deps.database.db, payments, clock: () => new Date(), logger: createLogger('silent'), audit: async () => {} });
}

const stripeCodes = (code: string) => [...bench.stripe.promotions.promotionCodes.values()].filter((promotion) => promotion.code === code);

/** Checkout with `code` paid on Stripe's page, its webhook delivered; answers the session. */
async function buy(code: string | null, options: { typed?: string; planType?: 'monthly' | 'yearly' } = {}) {
  const { sessionId } = await startCheckout(bench.t, { planType: options.planType ?? 'monthly', promotionCode: code });
  if (options.typed) bench.stripe.promotions.typeCode(sessionId, options.typed);
  const session = bench.stripe.complete(sessionId, email('buyer'));
  expect((await bench.webhook('checkout.session.completed', session)).status).toBe(200);
  return session;
}

async function subscriptionOrders(subscriptionId: string) {
  const rows = await ordersOfSubscription(bench.t, subscriptionId);
  return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).map((order) => [order.amount, order.amountDiscount, order.promotionCode]);
}

describe('mirroring a code at Stripe', () => {
  it('makes one coupon and one promotion code, and never a second on retry, restart or a lost answer', async () => {
    const item = await create({ code: 'BF20', percentOff: 20 });
    expect(item.provider).toMatchObject({ state: 'mirrored', kind: 'stripe', error: null });
    expect(bench.stripe.promotions.coupons.get(`candlewise-${item.id}`)).toMatchObject({ percent_off: 20, duration: 'once', name: 'BF20', metadata: { promotionId: item.id } });
    expect(stripeCodes('BF20')).toEqual([expect.objectContaining({ id: item.provider.promotionCodeId, active: true, promotion: { type: 'coupon', coupon: `candlewise-${item.id}` } })]);
    const keys = requestsTo('POST', /^\/v1\/(coupons|promotion_codes)$/).map((request) => request.headers['idempotency-key']);
    expect(keys).toEqual([`candlewise-coupon-${item.id}`, `candlewise-promotion-code-${item.id}`]);

    // a restart: another instance finds nothing to do
    await anotherInstance().syncPending();
    // the shop crashed after Stripe made them but before it wrote the ids down: found by code and our id
    await bench.t.deps.database.db.update(promotionCodes).set({ providerPromotionCodeId: null, providerCouponId: null, provider: null }).where(eq(promotionCodes.id, item.id));
    expect(await anotherInstance().sync('bf20')).toMatchObject({ provider: { state: 'mirrored', promotionCodeId: item.provider.promotionCodeId } });
    expect(stripeCodes('BF20')).toHaveLength(1);
    expect([...bench.stripe.promotions.coupons.keys()].filter((id) => id === `candlewise-${item.id}`)).toHaveLength(1);
  });

  it('mirrors a churned-only code under a name no buyer can type on Stripe’s page (Stripe has no such restriction), found again after a crash', async () => {
    const item = await create({ code: 'BACK20', percentOff: 20, churnedOnly: true });
    const hidden = `BACK20-${item.id.replaceAll('-', '').slice(0, 12).toUpperCase()}`;
    expect(stripeCodes('BACK20')).toEqual([]);
    expect(stripeCodes(hidden)).toEqual([expect.objectContaining({ id: item.provider.promotionCodeId, active: true })]);
    await bench.t.deps.database.db.update(promotionCodes).set({ providerPromotionCodeId: null, providerCouponId: null, provider: null }).where(eq(promotionCodes.id, item.id));
    expect(await anotherInstance().sync('back20')).toMatchObject({ provider: { state: 'mirrored', promotionCodeId: item.provider.promotionCodeId } });
    expect(stripeCodes(hidden)).toHaveLength(1);
  });

  it('keeps the code with a visible "failed" state while Stripe refuses, and mirrors it on retry', async () => {
    const key = bench.stripe.apiKey;
    bench.stripe.apiKey = 'sk_test_other';
    const item = await create({ code: 'LATER', amountOff: 500, currency: 'usd', duration: 'forever', maxRedemptions: 10, firstTimeOnly: true, expires: '2099-12-31', plans: ['yearly'] });
    bench.stripe.apiKey = key;
    expect(item.provider.state).toBe('failed');
    expect(item.provider.error).toMatch(/temporarily unavailable|refused/);
    expect(stripeCodes('LATER')).toHaveLength(0);

    const retried = await bench.t.request('/api/admin/promotion-codes/later/sync', { body: {}, cookie: operator });
    expect(await retried.json()).toMatchObject({ provider: { state: 'mirrored', error: null } });
    expect(bench.stripe.promotions.coupons.get(`candlewise-${item.id}`)).toMatchObject({ amount_off: 500, currency: 'usd', duration: 'forever', applies_to: { products: [`prod_${TEST_PRICE_IDS.yearly}`] } });
    expect(stripeCodes('LATER')[0]).toMatchObject({ max_redemptions: 10, expires_at: Date.UTC(2099, 11, 31, 23, 59, 59) / 1000, restrictions: { first_time_transaction: true } });
  });

  it('switches the code off at Stripe too', async () => {
    await create({ code: 'OFFNOW', percentOff: 5 });
    await bench.t.request('/api/admin/promotion-codes/OFFNOW/deactivate', { body: {}, cookie: operator });
    expect(stripeCodes('OFFNOW')[0]).toMatchObject({ active: false });
  });
});

describe('checkout with a code at Stripe', () => {
  it('presets the code with `discounts` (no allow_promotion_codes) and records what Stripe charged: 2880', async () => {
    const session = await buy('bf20');
    const sent = bench.lastRequest('POST', /^\/v1\/checkout\/sessions$/)!.form;
    expect(sent.get('discounts[0][promotion_code]')).toBe(stripeCodes('BF20')[0]!.id);
    expect(sent.has('allow_promotion_codes')).toBe(false);
    expect(session).toMatchObject({ amount_total: 2880, total_details: { amount_discount: 720 } });
    const [order] = await ordersOfSession(bench.t, session.id as string);
    expect([order!.amount, order!.amountDiscount, order!.promotionCode]).toEqual([2880, 720, 'BF20']);
    expect(await checkoutRow(bench.t, session.id as string)).toMatchObject({ amountTotal: 2880, amountDiscount: 720, promotionCode: 'BF20' });
    const details = await bench.t.request('/api/get-payment-details', { body: { sessionId: session.id }, cookie: buyerBrowser(session.id as string) });
    expect(await details.json()).toMatchObject({ amountTotal: 2880, amountDiscount: 720, promotionCode: 'BF20' });
  });

  it('without a code lets the buyer type one on Stripe’s page; the order names it', async () => {
    const session = await buy(null, { typed: 'bf20' });
    expect(bench.lastRequest('POST', /^\/v1\/checkout\/sessions$/)!.form.get('allow_promotion_codes')).toBe('true');
    const [order] = await ordersOfSession(bench.t, session.id as string);
    expect([order!.amount, order!.amountDiscount, order!.promotionCode]).toEqual([2880, 720, 'BF20']);
  });

  it('Stripe refuses `discounts` with `allow_promotion_codes`, as the real API does', async () => {
    const response = await fetch(`http://127.0.0.1:${bench.stripe.port}/v1/checkout/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bench.stripe.apiKey}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ mode: 'subscription', 'line_items[0][price]': TEST_PRICE_IDS.monthly, 'line_items[0][quantity]': '1', success_url: 'https://x/s', cancel_url: 'https://x/c', allow_promotion_codes: 'true', 'discounts[0][promotion_code]': stripeCodes('BF20')[0]!.id as string }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe('You may only specify one of these parameters: allow_promotion_codes, discounts.');
  });

  it('keeps a forever discount on every renewal and a once discount on the first payment only', async () => {
    await create({ code: 'ALWAYS', percentOff: 20, duration: 'forever' });
    const forever = await buy('ALWAYS');
    const once = await buy('BF20');
    for (const session of [forever, once]) {
      const invoiceId = bench.stripe.renew(session.subscription as string);
      expect((await bench.deliver(bench.stripe.invoicePaidEvent(invoiceId))).status).toBe(200);
    }
    expect(await subscriptionOrders(forever.subscription as string)).toEqual([
      [2880, 720, 'ALWAYS'],
      [2880, 720, 'ALWAYS'],
    ]);
    expect(await subscriptionOrders(once.subscription as string)).toEqual([
      [2880, 720, 'BF20'],
      [3600, 0, null],
    ]);
  });

  it('a code used up at Stripe is refused with a 400 before Stripe is asked', async () => {
    await create({ code: 'ONCEONLY', percentOff: 50, maxRedemptions: 1 });
    await buy('ONCEONLY');
    const response = await bench.t.request('/api/create-checkout', { body: { planType: 'monthly', customerEmail: null, fbc: null, fbp: null, userAgent: 'vitest', originPage: '/', promotionCode: 'ONCEONLY' } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe('The code ONCEONLY has been fully redeemed.');
  });

  it('a Stripe refusal of the code (a race) is a 400 for the buyer, not an outage', async () => {
    const item = await create({ code: 'RACE', percentOff: 10 });
    // someone switched it off in Stripe's dashboard
    bench.stripe.promotions.promotionCodes.get(item.provider.promotionCodeId!)!.active = false;
    const response = await bench.t.request('/api/create-checkout', { body: { planType: 'monthly', customerEmail: null, fbc: null, fbp: null, userAgent: 'vitest', originPage: '/', promotionCode: 'RACE' } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('promotion_code_invalid');
  });
});
