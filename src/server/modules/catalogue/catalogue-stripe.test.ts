import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REGULAR_PRICES, DEFAULT_SALE_LABEL } from '@shared/campaign';
import { addPlan, setActiveCatalogue, setPrice, type Catalogue, type Edit } from '@shared/catalogue';
import { priceLookupKey, wantedPrices } from '@shared/catalogue-publishing';
import { ADVERTISED_PRICES, seedCatalogue } from '@shared/plans';
import { savePriceList } from '@shared/price-lists';
import { startFakeStripe, STRIPE_TEST_ENV, TEST_PRICE_IDS, type FakeStripe } from '../../test-support/fake-stripe-server';
import { createStripeClient, createStripePayments } from '../payments/stripe-payments';
import { createLogger } from '../../logger';
import { checkStripe } from '../../doctor/stripe-checks';
import { createCataloguePrices, publishCatalogue, type PublishSettings } from './catalogue-stripe';

// Publishing the catalogue at Stripe (decision record 058), with the SDK against the fake Stripe server.
const SEED = seedCatalogue({ prices: ADVERTISED_PRICES, regularPrices: DEFAULT_REGULAR_PRICES, saleEndsAt: '2025-11-26T23:59:59.000Z', saleLabel: DEFAULT_SALE_LABEL });
const AFTER_SALE = new Date('2026-03-01T00:00:00Z');
const SETTINGS: PublishSettings = { taxBehavior: 'exclusive', configured: TEST_PRICE_IDS };

function edited(edit: Edit): Catalogue {
  if ('problem' in edit) throw new Error(edit.problem);
  return edit.catalogue;
}

let fake: FakeStripe;
let stripe: ReturnType<typeof createStripeClient>;

beforeAll(async () => {
  fake = await startFakeStripe();
  stripe = createStripeClient({ secretKey: STRIPE_TEST_ENV.STRIPE_SECRET_KEY, connection: { host: '127.0.0.1', port: fake.port, protocol: 'http' }, timeoutMs: 5_000 });
});
afterAll(() => fake.close());

const priceWrites = () => fake.requests.filter((request) => request.method === 'POST' && request.path.startsWith('/v1/prices'));

describe('publishing the catalogue at Stripe', () => {
  it('creates a Product per plan and a Price per plan and list with its lookup key; takes over the configured prices that match; publishing again changes nothing', async () => {
    const weekly = edited(addPlan(SEED, { slug: 'weekly', name: 'Weekly', price: 1500, period: { unit: 'week', count: 1 } }));
    const published = await publishCatalogue(stripe, weekly, SETTINGS);

    const week = published.find((entry) => entry.price.plan === 'weekly')!;
    expect(week.how).toBe('created');
    const price = await stripe.prices.retrieve(week.id);
    expect(price).toMatchObject({ unit_amount: 1500, currency: 'usd', tax_behavior: 'exclusive', product: 'cw_weekly', lookup_key: 'cw_default_weekly_1500_usd_1week_exclusive', recurring: { interval: 'week', interval_count: 1 } });
    expect(await stripe.products.retrieve('cw_weekly')).toMatchObject({ name: 'Weekly' });
    // the seed's sale price of Monthly is what STRIPE_PRICE_MONTHLY charges: taken over, not duplicated
    const monthlySale = published.find((entry) => entry.price.plan === 'monthly' && entry.price.amount === ADVERTISED_PRICES.monthly)!;
    expect(monthlySale).toMatchObject({ how: 'adopted', id: TEST_PRICE_IDS.monthly });
    expect((await stripe.prices.retrieve(TEST_PRICE_IDS.monthly)).lookup_key).toBe(monthlySale.price.lookupKey);
    // the regular $47 is another Price; the one-time Lifetime is one-time
    const lifetime = published.find((entry) => entry.price.plan === 'lifetime')!;
    expect((await stripe.prices.retrieve(lifetime.id)).recurring).toBeNull();
    expect(published.every((entry) => entry.how !== 'kept')).toBe(true);

    const writes = priceWrites().length;
    const again = await publishCatalogue(stripe, weekly, SETTINGS);
    expect(again.map((entry) => entry.how)).toEqual(again.map(() => 'kept'));
    expect(again.map((entry) => entry.id)).toEqual(published.map((entry) => entry.id));
    expect(priceWrites()).toHaveLength(writes);
  });

  it('never edits a Price: a new amount is a new Price for new buyers, the old one still charges what it did', async () => {
    const before = edited(addPlan(SEED, { slug: 'daily', name: 'Daily', price: 300, period: { unit: 'day', count: 1 } }));
    const [old] = (await publishCatalogue(stripe, before, SETTINGS)).filter((entry) => entry.price.plan === 'daily');
    const after = edited(setPrice(before, 'daily', 400));
    const [next] = (await publishCatalogue(stripe, after, SETTINGS)).filter((entry) => entry.price.plan === 'daily');
    expect(next!.how).toBe('created');
    expect(next!.id).not.toBe(old!.id);
    expect((await stripe.prices.retrieve(old!.id)).unit_amount).toBe(300);
    expect((await stripe.prices.retrieve(next!.id)).unit_amount).toBe(400);
    expect(priceWrites().some((request) => request.path === `/v1/prices/${old!.id}` && request.form.has('unit_amount'))).toBe(false);
  });

  it("a vendor list's Prices are in its currency; a checkout charges its page's Price, published on first use, and the configured ids while the catalogue is the seed's", async () => {
    const partners = edited(savePriceList(SEED, { slug: 'partners', currency: 'eur', header: null, entries: [{ plan: 'quarterly', price: 6000 }] }, true));
    let edited_ = false;
    const checkoutPrice = createCataloguePrices({ catalogue: () => partners, edited: () => edited_, clock: () => AFTER_SALE, settings: SETTINGS }).checkout;
    expect(await checkoutPrice(stripe, 'quarterly', '/partners')).toBeNull();
    edited_ = true;
    const id = await checkoutPrice(stripe, 'quarterly', '/partners');
    expect(await stripe.prices.retrieve(id!)).toMatchObject({ unit_amount: 6000, currency: 'eur', lookup_key: priceLookupKey({ plan: 'quarterly', list: 'partners', amount: 6000, currency: 'eur', period: { unit: 'month', count: 3 }, taxBehavior: 'exclusive' }) });
    // after the seed's sale the default page charges the regular price
    const regular = await checkoutPrice(stripe, 'quarterly', '/');
    expect((await stripe.prices.retrieve(regular!)).unit_amount).toBe(DEFAULT_REGULAR_PRICES.quarterly);
    const lookups = fake.requests.filter((request) => request.method === 'GET' && request.path === '/v1/prices').length;
    expect(await checkoutPrice(stripe, 'quarterly', '/partners')).toBe(id);
    expect(fake.requests.filter((request) => request.method === 'GET' && request.path === '/v1/prices')).toHaveLength(lookups);
  });
});

describe("a plan change charges the catalogue's published Price", () => {
  const partners = edited(savePriceList(SEED, { slug: 'partners', currency: 'eur', header: null, entries: [{ plan: 'monthly', price: 2900 }, { plan: 'quarterly', price: 6000 }] }, true));
  let catalogueEdited = false;
  const prices = createCataloguePrices({ catalogue: () => partners, edited: () => catalogueEdited, clock: () => AFTER_SALE, settings: SETTINGS });
  const payments = () =>
    createStripePayments(
      { secretKey: STRIPE_TEST_ENV.STRIPE_SECRET_KEY, webhookSecret: STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET, priceIds: TEST_PRICE_IDS, connection: { host: '127.0.0.1', port: fake.port, protocol: 'http' }, timeoutMs: 5_000, published: prices },
      createLogger('silent'),
    );
  const chargedPrice = (subscriptionId: string) => {
    const request = [...fake.requests].reverse().find((each) => each.method === 'POST' && (each.path === '/v1/invoices/create_preview' || each.path === `/v1/subscriptions/${subscriptionId}`))!;
    return request.form.get('subscription_details[items][0][price]') ?? request.form.get('items[0][price]');
  };
  const now = () => Math.floor(Date.now() / 1000);

  it('charges the configured price ids while the catalogue is the seed\'s, its Price on the default page once edited, and names the new plan', async () => {
    const id = fake.seedSubscription({ email: 'changer@example.com', priceId: TEST_PRICE_IDS.monthly, metadata: { planType: 'monthly' } });
    await payments().previewPlanChange({ subscriptionId: id, planType: 'quarterly', prorationDate: now() });
    expect(chargedPrice(id)).toBe(TEST_PRICE_IDS.quarterly);

    catalogueEdited = true;
    const preview = await payments().previewPlanChange({ subscriptionId: id, planType: 'quarterly', prorationDate: now() });
    expect(preview).toMatchObject({ newPlanCharge: DEFAULT_REGULAR_PRICES.quarterly, currency: 'usd' });
    const published = await stripe.prices.retrieve(chargedPrice(id)!);
    expect(published).toMatchObject({ unit_amount: DEFAULT_REGULAR_PRICES.quarterly, lookup_key: 'cw_default_quarterly_14100_usd_3month_exclusive', metadata: { plan: 'quarterly', list: '/' } });
    // the subscription's metadata still says monthly (what it was bought as): its Price names the plan now
    const changed = await payments().applyPlanChange({ subscriptionId: id, planType: 'quarterly', prorationDate: now() });
    expect(changed).toMatchObject({ planType: 'quarterly', unitAmount: DEFAULT_REGULAR_PRICES.quarterly, currency: 'usd', priceList: '/' });
    expect(chargedPrice(id)).toBe(published.id);
  });

  it('a member who bought on a vendor list changes at that list\'s Price, in its currency; a plan no list sells in it is refused with the reason', async () => {
    catalogueEdited = true;
    const bought = await prices.checkout(stripe, 'monthly', '/partners');
    const id = fake.seedSubscription({ email: 'partner@example.com', priceId: bought!, metadata: { planType: 'monthly' } });
    expect(await payments().retrieveSubscription(id)).toMatchObject({ planType: 'monthly', currency: 'eur', priceList: 'partners' });

    const preview = await payments().previewPlanChange({ subscriptionId: id, planType: 'quarterly', prorationDate: now() });
    expect(preview).toMatchObject({ newPlanCharge: 6000, currency: 'eur' });
    const changed = await payments().applyPlanChange({ subscriptionId: id, planType: 'quarterly', prorationDate: now() });
    expect(changed).toMatchObject({ planType: 'quarterly', unitAmount: 6000, currency: 'eur', priceList: 'partners' });

    const updates = fake.requests.filter((request) => request.method === 'POST' && request.path === `/v1/subscriptions/${id}`).length;
    await expect(payments().applyPlanChange({ subscriptionId: id, planType: 'yearly', prorationDate: now() })).rejects.toMatchObject({ status: 400, message: 'Yearly is not sold in EUR, the currency your plan is billed in.' });
    expect(fake.requests.filter((request) => request.method === 'POST' && request.path === `/v1/subscriptions/${id}`)).toHaveLength(updates);
  });
});

describe('an invoice on a published Price', () => {
  // the plans' rules read the process's catalogue: Weekly is this test's
  afterAll(() => setActiveCatalogue(null));

  it('names its plan from the Price (asked of Stripe once), as the configured ids name theirs', async () => {
    const weekly = edited(addPlan(SEED, { slug: 'weekly', name: 'Weekly', price: 1500, period: { unit: 'week', count: 1 } }));
    setActiveCatalogue(weekly);
    const prices = createCataloguePrices({ catalogue: () => weekly, edited: () => true, clock: () => AFTER_SALE, settings: SETTINGS });
    const payments = createStripePayments(
      { secretKey: STRIPE_TEST_ENV.STRIPE_SECRET_KEY, webhookSecret: STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET, priceIds: TEST_PRICE_IDS, connection: { host: '127.0.0.1', port: fake.port, protocol: 'http' }, timeoutMs: 5_000, published: prices },
      createLogger('silent'),
    );
    // bought with no plan in the subscription's metadata: only its Price says Weekly
    const id = fake.seedSubscription({ email: 'weekly@example.com', priceId: (await prices.checkout(stripe, 'weekly', '/'))! });
    const renewal = fake.renew(id);
    const priceReads = () => fake.requests.filter((request) => request.method === 'GET' && request.path.startsWith('/v1/prices/')).length;
    const reads = priceReads();
    expect(await payments.retrieveInvoice(renewal)).toMatchObject({ planType: 'weekly', amountPaid: 1500, billingReason: 'subscription_cycle' });
    expect(await payments.retrieveInvoice(renewal)).toMatchObject({ planType: 'weekly' });
    expect(priceReads()).toBe(reads + 1);

    const configured = fake.seedSubscription({ email: 'configured@example.com', priceId: TEST_PRICE_IDS.monthly });
    expect(await payments.retrieveInvoice(fake.renew(configured))).toMatchObject({ planType: 'monthly' });
    expect(priceReads()).toBe(reads + 1);
  });
});

describe('moving a member to the current Price at their next renewal', () => {
  it('moves the subscription item to the new Price with no proration, leaving its discount; the renewal charges it; a second move changes nothing', async () => {
    const repriced = edited(setPrice(SEED, 'monthly', 4000));
    const target = wantedPrices(repriced, 'exclusive').find((price) => price.plan === 'monthly' && price.list === '/' && price.amount === 4000)!;
    const payments = createStripePayments(
      {
        secretKey: STRIPE_TEST_ENV.STRIPE_SECRET_KEY,
        webhookSecret: STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET,
        priceIds: TEST_PRICE_IDS,
        connection: { host: '127.0.0.1', port: fake.port, protocol: 'http' },
        timeoutMs: 5_000,
        published: createCataloguePrices({ catalogue: () => repriced, edited: () => true, clock: () => AFTER_SALE, settings: SETTINGS }),
      },
      createLogger('silent'),
    );
    const id = fake.seedSubscription({ email: 'mover@example.com', priceId: TEST_PRICE_IDS.monthly });
    const invoices = fake.invoices.size;

    const moved = await payments.movePriceAtRenewal(id, target);
    expect(moved).toMatchObject({ unitAmount: 4000, currency: 'usd' });
    const update = [...fake.requests].reverse().find((request) => request.method === 'POST' && request.path === `/v1/subscriptions/${id}`)!;
    expect(update.form.get('proration_behavior')).toBe('none');
    expect(update.form.get('items[0][id]')).toBe(moved.itemId);
    // the subscription's discounts are not named, so Stripe keeps them as they are
    expect([...update.form.keys()].filter((key) => key.startsWith('discounts'))).toEqual([]);
    expect(fake.invoices.size).toBe(invoices);

    const renewal = fake.invoices.get(fake.renew(id))!;
    expect(renewal).toMatchObject({ subtotal: 4000, amount_due: 4000 });

    const updates = fake.requests.filter((request) => request.method === 'POST' && request.path === `/v1/subscriptions/${id}`).length;
    expect(await payments.movePriceAtRenewal(id, target)).toMatchObject({ unitAmount: 4000 });
    expect(fake.requests.filter((request) => request.method === 'POST' && request.path === `/v1/subscriptions/${id}`)).toHaveLength(updates);
  });
});

describe('a promotion code for some plans only', () => {
  // the plans' rules read the process's catalogue: Weekly is this test's
  afterAll(() => setActiveCatalogue(null));

  // #43: it was restricted to the products of the STRIPE_PRICE_* prices only, so at Stripe it never applied to a plan added in the console
  it("names the plans' published Products beside their configured prices' products: it applies at Stripe to a plan added in the console", async () => {
    const weekly = edited(addPlan(SEED, { slug: 'weekly', name: 'Weekly', price: 1500, period: { unit: 'week', count: 1 } }));
    setActiveCatalogue(weekly);
    const payments = createStripePayments(
      {
        secretKey: STRIPE_TEST_ENV.STRIPE_SECRET_KEY,
        webhookSecret: STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET,
        priceIds: TEST_PRICE_IDS,
        connection: { host: '127.0.0.1', port: fake.port, protocol: 'http' },
        timeoutMs: 5_000,
        published: createCataloguePrices({ catalogue: () => weekly, edited: () => true, clock: () => AFTER_SALE, settings: SETTINGS }),
      },
      createLogger('silent'),
    );
    const terms = { code: 'WEEK20', percentOff: 20, amountOff: null, currency: null, duration: 'once' as const, durationInMonths: null, plans: ['weekly', 'monthly'], firstTimeOnly: false, churnedOnly: false, maxRedemptions: null, expiresAt: null };
    const { couponId, promotionCodeId } = await payments.promotions.mirror({ promotionId: 'promo-week20', terms, active: true });
    const products = (fake.promotions.coupons.get(couponId)!.applies_to as { products: string[] }).products;
    expect([...products].sort()).toEqual(['cw_monthly', 'cw_weekly', `prod_${TEST_PRICE_IDS.monthly}`].sort());
    // made the way publishing makes it: the plan's name
    expect(await stripe.products.retrieve('cw_weekly')).toMatchObject({ name: 'Weekly' });

    const checkout = (planType: string) =>
      payments.createCheckoutSession({ planType, mode: 'subscription', customerEmail: null, customerId: null, successUrl: 'http://shop.test/ok', cancelUrl: 'http://shop.test/', metadata: { planType, originPage: '/' }, promotionCodeId });
    const week = await checkout('weekly');
    expect(fake.complete(week.id, 'week20@example.com')).toMatchObject({ amount_total: 1200, total_details: { amount_discount: 300 } });
    // the configured Monthly price still takes it; a plan outside the code is refused by Stripe
    const month = await checkout('monthly');
    expect(fake.complete(month.id, 'month20@example.com')).toMatchObject({ total_details: { amount_discount: Math.round(DEFAULT_REGULAR_PRICES.monthly * 0.2) } });
    await expect(checkout('quarterly')).rejects.toMatchObject({ status: 400 });
  });
});

describe('npm run doctor checks every Price of the edited catalogue', () => {
  it('says each one is right, names one that is not published yet and one that charges another amount, with the fix', async () => {
    const catalogue = edited(addPlan(SEED, { slug: 'biweekly', name: 'Biweekly', price: 2500, period: { unit: 'week', count: 2 } }));
    const published = await publishCatalogue(stripe, catalogue, SETTINGS);
    const doctor = (checked: Catalogue) =>
      checkStripe(
        { secretKey: STRIPE_TEST_ENV.STRIPE_SECRET_KEY, webhookSecret: STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET, priceIds: TEST_PRICE_IDS, listPrices: ADVERTISED_PRICES, catalogue: { catalogue: checked, taxBehavior: 'exclusive', taxEnabled: false } },
        { connection: { host: '127.0.0.1', port: fake.port, protocol: 'http' }, timeoutMs: 5_000 },
      );
    const checks = await doctor(catalogue);
    const biweekly = published.find((entry) => entry.price.plan === 'biweekly')!;
    expect(checks.find((check) => check.message.startsWith('Biweekly'))).toMatchObject({ status: 'ok', message: `Biweekly (biweekly) on / at $25.00 every 2 weeks: ${biweekly.id}` });
    expect(checks.filter((check) => check.status === 'problem').map((check) => check.message)).toEqual([]);

    fake.prices.get(biweekly.id)!.amount = 2000;
    const repriced = edited(setPrice(catalogue, 'monthly', 4100));
    const problems = (await doctor(repriced)).filter((check) => check.status === 'problem');
    expect(problems.map((check) => check.message)).toEqual([
      'Monthly (monthly) on / at $41.00 per month: no Stripe price in test mode yet (lookup key cw_default_monthly_4100_usd_1month_exclusive)',
      `Biweekly (biweekly) on / at $25.00 every 2 weeks: ${biweekly.id} charges $20.00, the card shows $25.00`,
    ]);
    expect(problems[0]!.fix).toBe('run npm run admin -- plans publish');
  });
});
