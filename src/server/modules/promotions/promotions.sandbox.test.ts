// Promotion codes end to end in the sandbox: the console creates them (mirrored as the sandbox's
// own coupon and promotion code), the landing page looks them up, checkout charges the discounted
// price and the sandbox keeps the discount on renewals for as long as the code says.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setActiveCatalogue } from '@shared/catalogue';
import type { PromotionItem } from '@shared/promotions-contract';
import { operatorAuditLog, orders, sandboxCoupons, sandboxPromotionCodes } from '../../db/schema';
import { consoleSuite, OPERATOR_EMAIL, type ConsoleSuite } from '../../test-support/admin-test-kit';
import { listOutboxMails } from '../mail/outbox.repository';
import { PROMOTION_ADMIN_ROUTES } from './promotions.routes';
import { buyerBrowser, checkoutRow, DAY_MS, ordersOfSession, payOnPage, startCheckout } from '../../test-support/billing-test-kit';

// a test adds a plan to the process's catalogue: later suites of the worker get the seed's
afterAll(() => setActiveCatalogue(null));

let suite: ConsoleSuite;
consoleSuite((value) => (suite = value));
let emails = 0;
const email = (name: string) => `${name}-${++emails}@example.com`;

async function createCode(body: Record<string, unknown>): Promise<Response> {
  return suite.t.request('/api/admin/promotion-codes', { body, cookie: suite.operator });
}

async function created(body: Record<string, unknown>): Promise<PromotionItem> {
  const response = await createCode(body);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as PromotionItem;
}

async function listed(code: string): Promise<PromotionItem> {
  const response = await suite.t.request('/api/admin/promotion-codes', { cookie: suite.operator });
  const { promotions } = (await response.json()) as { promotions: PromotionItem[] };
  return promotions.find((promotion) => promotion.code === code)!;
}

/** Checkout with a code, paid on the sandbox page; answers the session id. */
async function buyWithCode(code: string | null, buyer: string, planType: 'monthly' | 'yearly' | 'lifetime' = 'monthly') {
  const { sessionId } = await startCheckout(suite.t, { planType, promotionCode: code });
  const paid = await payOnPage(suite.t, sessionId, buyer);
  expect(paid.status, await paid.clone().text()).toBe(200);
  return sessionId;
}

async function renewNow(sessionId: string) {
  const row = await checkoutRow(suite.t, sessionId);
  const response = await suite.t.request(`/api/sandbox/portal/${row!.providerCustomerId}/subscriptions/${row!.providerSubscriptionId}/renew-now`, { body: {} });
  expect(response.status).toBe(200);
}

async function subscriptionOrders(sessionId: string) {
  const row = await checkoutRow(suite.t, sessionId);
  const rows = await suite.t.deps.database.db.select().from(orders).where(eq(orders.providerSubscriptionId, row!.providerSubscriptionId!));
  return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).map((order) => [order.amount, order.amountDiscount, order.promotionCode]);
}

describe('operators create promotion codes in the console', () => {
  let bf20: PromotionItem;
  beforeAll(async () => {
    bf20 = await created({ code: 'bf20', percentOff: 20 });
  });

  it('keeps the code upper-case, mirrors it as the sandbox coupon and promotion code, and audits it', async () => {
    expect(bf20).toMatchObject({ code: 'BF20', percentOff: 20, duration: 'once', status: 'active', redemptions: 0, provider: { state: 'mirrored', kind: 'sandbox', error: null } });
    const [promotion] = await suite.t.deps.database.db.select().from(sandboxPromotionCodes).where(eq(sandboxPromotionCodes.code, 'BF20'));
    const [coupon] = await suite.t.deps.database.db.select().from(sandboxCoupons).where(eq(sandboxCoupons.id, promotion!.couponId));
    expect([promotion!.id, coupon!.percentOff, coupon!.duration]).toEqual([bf20.provider.promotionCodeId, 20, 'once']);
    const audit = await suite.t.deps.database.db.select().from(operatorAuditLog).where(eq(operatorAuditLog.action, 'create_promotion_code'));
    expect(audit.map((entry) => entry.details.code)).toContain('BF20');
  });

  it('refuses the same code in another case, and bad terms with a clear 400', async () => {
    expect((await createCode({ code: 'Bf20', percentOff: 10 })).status).toBe(409);
    const cases: [Record<string, unknown>, string][] = [
      [{ code: 'X'.repeat(200), percentOff: 10 }, 'A promotion code has 3 to 40 characters.'],
      [{ code: 'NEG', amountOff: -100, currency: 'usd' }, 'Amount off must be a positive whole number of cents (minor units).'],
      [{ code: 'ZERO', percentOff: 0 }, 'Percent off must be a whole number from 1 to 100.'],
      [{ code: 'PLANS', percentOff: 10, plans: ['weekly'] }, 'Unknown plan: weekly.'],
      [{ code: 'MONTHS', percentOff: 10, durationInMonths: 3 }, 'Months go with a repeating discount only (--duration repeating).'],
    ];
    for (const [body, message] of cases) {
      const response = await createCode(body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toBe(message);
    }
  });

  it('is refused to members (403) and to visitors (401), every console route', async () => {
    for (const route of PROMOTION_ADMIN_ROUTES) {
      const path = `/api/admin${route.path.replace(':code', 'BF20')}`;
      const body = route.method === 'POST' ? { code: 'MINE', percentOff: 90 } : undefined;
      expect((await suite.t.request(path, { method: route.method, body, cookie: suite.member })).status, path).toBe(403);
      expect((await suite.t.request(path, { method: route.method, body })).status, path).toBe(401);
    }
    expect((await listed('BF20')).status).toBe('active');
  });

  it('lets anyone look a usable code up (any case), and says why another cannot be used', async () => {
    const found = await suite.t.request('/api/promotion-codes/bf20');
    expect(await found.json()).toEqual({ code: 'BF20', percentOff: 20, amountOff: null, currency: null, duration: 'once', durationInMonths: null, plans: null, firstTimeOnly: false, churnedOnly: false, expiresAt: null });
    const unknown = await suite.t.request('/api/promotion-codes/NOPE');
    expect([unknown.status, ((await unknown.json()) as { error: { message: string } }).error.message]).toEqual([404, 'The code NOPE is not valid.']);
    expect((await suite.t.request(`/api/promotion-codes/${'Y'.repeat(200)}`)).status).toBe(400);
    expect((await suite.t.request('/api/promotion-codes/BF_20')).status).toBe(400);
  });

  it('charges Monthly $36 with 20 % off at 2880, shown on the checkout page, the payment details and the order', async () => {
    const { sessionId } = await startCheckout(suite.t, { promotionCode: 'bf20' });
    const page = await suite.t.request(`/api/sandbox/checkout/${sessionId}`, { cookie: buyerBrowser(sessionId) });
    expect(await page.json()).toMatchObject({ amount: 3600, discount: { code: 'BF20', amount: 720, duration: 'once' }, allowPromotionCodes: false });
    const buyer = email('bf');
    expect((await payOnPage(suite.t, sessionId, buyer)).status).toBe(200);

    // the purchase mail (the receipt) names what was charged
    await suite.t.deps.mailer.runOnce();
    const mails = await listOutboxMails(suite.t.deps.database.db, { to: buyer });
    expect(mails.map((mail) => mail.text).join('\n')).toContain('$28.80');

    const [order] = await ordersOfSession(suite.t, sessionId);
    expect([order!.amount, order!.amountDiscount, order!.promotionCode]).toEqual([2880, 720, 'BF20']);
    const details = await suite.t.request('/api/get-payment-details', { body: { sessionId }, cookie: buyerBrowser(sessionId) });
    expect(await details.json()).toMatchObject({ amountTotal: 2880, amountDiscount: 720, promotionCode: 'BF20', currency: 'usd' });
    expect(await listed('BF20')).toMatchObject({ redemptions: 1, revenue: [{ currency: 'usd', amount: 2880 }], discounted: [{ currency: 'usd', amount: 720 }] });
  });

  it('a once code takes nothing off the renewals', async () => {
    const sessionId = await buyWithCode('BF20', email('once'));
    await renewNow(sessionId);
    expect(await subscriptionOrders(sessionId)).toEqual([
      [2880, 720, 'BF20'],
      [3600, 0, null],
    ]);
  });
});

describe('how long a discount lasts on renewals', () => {
  it('forever: every renewal is discounted', async () => {
    await created({ code: 'FOREVER10', amountOff: 1000, currency: 'usd', duration: 'forever' });
    const sessionId = await buyWithCode('forever10', email('forever'));
    await renewNow(sessionId);
    await renewNow(sessionId);
    expect(await subscriptionOrders(sessionId)).toEqual([
      [2600, 1000, 'FOREVER10'],
      [2600, 1000, 'FOREVER10'],
      [2600, 1000, 'FOREVER10'],
    ]);
  });

  it('repeating 2 months: the first two monthly payments only', async () => {
    await created({ code: 'TWOMONTHS', percentOff: 50, duration: 'repeating', durationInMonths: 2 });
    const sessionId = await buyWithCode('TWOMONTHS', email('repeating'));
    await renewNow(sessionId);
    await renewNow(sessionId);
    expect(await subscriptionOrders(sessionId)).toEqual([
      [1800, 1800, 'TWOMONTHS'],
      [1800, 1800, 'TWOMONTHS'],
      [3600, 0, null],
    ]);
  });
});

describe('restrictions', () => {
  const refusal = async (response: Response) => [response.status, ((await response.json()) as { error: { code: string; message: string } }).error];

  it('a code with a maximum of one redemption: a checkout started before the last one is refused at payment', async () => {
    await created({ code: 'ONLYONE', percentOff: 30, maxRedemptions: 1 });
    const first = await startCheckout(suite.t, { promotionCode: 'ONLYONE' });
    const second = await startCheckout(suite.t, { promotionCode: 'ONLYONE' });
    expect((await payOnPage(suite.t, first.sessionId, email('one'))).status).toBe(200);
    expect(await refusal(await payOnPage(suite.t, second.sessionId, email('two')))).toEqual([400, { code: 'promotion_code_invalid', message: 'The code ONLYONE has been fully redeemed.' }]);
    expect(await refusal(await suite.t.request('/api/create-checkout', { body: { planType: 'monthly', customerEmail: null, fbc: null, fbp: null, userAgent: 'vitest', originPage: '/', promotionCode: 'onlyone' } }))).toEqual([
      400,
      { code: 'promotion_code_invalid', message: 'The code ONLYONE has been fully redeemed.' },
    ]);
    expect((await listed('ONLYONE')).status).toBe('exhausted');
    expect((await suite.t.request('/api/promotion-codes/ONLYONE')).status).toBe(404);
  });

  it('a code for other plans is refused for this one', async () => {
    await created({ code: 'YEARLYONLY', percentOff: 10, plans: ['yearly'] });
    const response = await suite.t.request('/api/create-checkout', { body: { planType: 'monthly', customerEmail: null, fbc: null, fbp: null, userAgent: 'vitest', originPage: '/', promotionCode: 'YEARLYONLY' } });
    expect(await refusal(response)).toEqual([400, { code: 'promotion_code_invalid', message: 'The code YEARLYONLY does not apply to the Monthly plan.' }]);
    const yearly = await buyWithCode('YEARLYONLY', email('yearly'), 'yearly');
    expect((await ordersOfSession(suite.t, yearly))[0]!.amount).toBe(18360);
  });

  it('a first-time code: refused for an e-mail that paid before, at checkout and on the payment page', async () => {
    await created({ code: 'WELCOME', percentOff: 25, firstTimeOnly: true });
    const returning = email('returning');
    await buyWithCode(null, returning, 'lifetime');
    const named = await suite.t.request('/api/create-checkout', { body: { planType: 'monthly', customerEmail: returning, fbc: null, fbp: null, userAgent: 'vitest', originPage: '/', promotionCode: 'WELCOME' } });
    expect(await refusal(named)).toEqual([400, { code: 'promotion_code_invalid', message: 'The code WELCOME is for first-time buyers only.' }]);
    const anonymous = await startCheckout(suite.t, { promotionCode: 'WELCOME' });
    expect((await refusal(await payOnPage(suite.t, anonymous.sessionId, returning)))[0]).toBe(400);
    expect((await payOnPage(suite.t, anonymous.sessionId, email('newcomer'))).status).toBe(200);
  });

  it('a switched-off code: deactivated here and at the sandbox provider, audited', async () => {
    await created({ code: 'STOPME', percentOff: 15 });
    const response = await suite.t.request('/api/admin/promotion-codes/stopme/deactivate', { body: {}, cookie: suite.operator });
    expect(await response.json()).toMatchObject({ code: 'STOPME', status: 'inactive', provider: { state: 'mirrored' } });
    const audit = await suite.t.deps.database.db.select().from(operatorAuditLog).where(eq(operatorAuditLog.action, 'deactivate_promotion_code'));
    expect(audit.map((entry) => [entry.operatorEmail, entry.details.code])).toEqual([[OPERATOR_EMAIL, 'STOPME']]);
    const [promotion] = await suite.t.deps.database.db.select().from(sandboxPromotionCodes).where(eq(sandboxPromotionCodes.code, 'STOPME'));
    expect(promotion!.active).toBe(false);
    expect(await refusal(await suite.t.request('/api/promotion-codes/STOPME'))).toEqual([404, { code: 'promotion_code_invalid', message: 'The code STOPME is no longer available.' }]);
  });
});

describe('the buyer types a code on the sandbox checkout page', () => {
  it('applies a valid code when none was preset, refuses an unknown one, and charges the discounted price', async () => {
    await created({ code: 'TYPED', percentOff: 10 });
    const { sessionId } = await startCheckout(suite.t);
    const before = await suite.t.request(`/api/sandbox/checkout/${sessionId}`);
    expect(await before.json()).toMatchObject({ allowPromotionCodes: true, discount: null });
    const unknown = await suite.t.request(`/api/sandbox/checkout/${sessionId}/promotion-code`, { body: { code: 'NOSUCH' } });
    expect([unknown.status, ((await unknown.json()) as { error: { message: string } }).error.message]).toEqual([400, 'The code NOSUCH is not valid.']);
    const applied = await suite.t.request(`/api/sandbox/checkout/${sessionId}/promotion-code`, { body: { code: 'typed' } });
    expect(await applied.json()).toMatchObject({ amount: 3600, discount: { code: 'TYPED', amount: 360 } });
    expect((await payOnPage(suite.t, sessionId, email('typed'))).status).toBe(200);
    const [order] = await ordersOfSession(suite.t, sessionId);
    expect([order!.amount, order!.promotionCode]).toEqual([3240, 'TYPED']);
  });
});

describe('MRR counts discounts for what they are', () => {
  const mrr = async () => (await suite.t.services.reports.overview()).mrr.find((line) => line.currency === 'usd')?.amount ?? 0;

  it('a forever code lowers it; a once code does not, not even in its first period', async () => {
    await created({ code: 'MRR-FOREVER', percentOff: 20, duration: 'forever' });
    await created({ code: 'MRR-ONCE', percentOff: 20 });
    const before = await mrr();
    await buyWithCode('MRR-FOREVER', email('mrr-forever'));
    expect(await mrr()).toBe(before + 2880);
    const once = await buyWithCode('MRR-ONCE', email('mrr-once'));
    expect(await mrr()).toBe(before + 2880 + 3600);
    await renewNow(once);
    expect(await mrr()).toBe(before + 2880 + 3600);
  });
});

describe('a code for a plan added in the console', () => {
  it('applies to that plan in the sandbox checkout, as at Stripe, and not to the others', async () => {
    const added = await suite.t.request('/api/admin/catalogue/plans', { body: { slug: 'fortnight', name: 'Fortnight', price: 2000, period: { unit: 'week', count: 2 } }, cookie: suite.operator });
    expect(added.status, await added.clone().text()).toBe(201);
    await created({ code: 'FORTNIGHT25', percentOff: 25, plans: ['fortnight'] });
    const { sessionId } = await startCheckout(suite.t, { planType: 'fortnight', promotionCode: 'FORTNIGHT25' });
    expect((await payOnPage(suite.t, sessionId, email('fortnight'))).status).toBe(200);
    expect((await ordersOfSession(suite.t, sessionId)).map((order) => [order.amount, order.amountDiscount, order.promotionCode])).toEqual([[1500, 500, 'FORTNIGHT25']]);
    const monthly = await suite.t.request('/api/create-checkout', { body: { planType: 'monthly', customerEmail: null, fbc: null, fbp: null, userAgent: 'vitest', originPage: '/', promotionCode: 'FORTNIGHT25' } });
    expect(monthly.status).toBe(400);
  });
});

describe('expiry (moves the clock on, so last)', () => {
  const refusal = async (response: Response) => [response.status, ((await response.json()) as { error: { code: string; message: string } }).error];

  it('an expired code is refused with its reason', async () => {
    const tomorrow = new Date(suite.time.now().getTime() + DAY_MS).toISOString().slice(0, 10);
    await created({ code: 'SOON', percentOff: 10, expires: tomorrow });
    expect((await suite.t.request('/api/promotion-codes/SOON')).status).toBe(200);
    suite.time.advance(2 * DAY_MS);
    const lookup = await suite.t.request('/api/promotion-codes/SOON');
    expect(await refusal(lookup)).toEqual([404, { code: 'promotion_code_invalid', message: 'The code SOON has expired.' }]);
    // the operator's session is not for days later: the service answers the list
    expect((await suite.t.services.promotions.list()).find((promotion) => promotion.code === 'SOON')?.status).toBe('expired');
  });
});
