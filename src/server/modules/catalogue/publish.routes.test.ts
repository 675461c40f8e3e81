// The console's "Publish to Stripe" (POST /api/admin/catalogue/publish) on the Stripe adapter,
// against the local Stripe look-alike: what `npm run admin -- plans publish` does, answered price
// by price, audited, and Stripe's own reason when it refuses.
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setActiveCatalogue } from '@shared/catalogue';
import { publishResponseSchema } from '@shared/catalogue-contract';
import { operatorAuditLog } from '../../db/schema';
import { createLogger } from '../../logger';
import { startFakeStripe, STRIPE_TEST_ENV, TEST_PRICE_IDS, type FakeStripe } from '../../test-support/fake-stripe-server';
import { createTestApp, operatorSession, type TestApp } from '../../test-support/test-app';
import { createStripePayments } from '../payments/stripe-payments';
import { createCataloguePrices } from './catalogue-stripe';

const OPERATOR = 'publisher@example.com';
let fake: FakeStripe;
let t: TestApp;
let operator: string;

beforeAll(async () => {
  fake = await startFakeStripe();
  // the adapter as dependencies.ts wires it, over the test app's own catalogue (read once the app is made)
  const published = createCataloguePrices({
    catalogue: () => t.deps.catalogue.current(),
    edited: () => t.deps.catalogue.version() > 0,
    clock: () => new Date(),
    settings: { taxBehavior: 'exclusive', configured: TEST_PRICE_IDS },
  });
  const payments = createStripePayments(
    { secretKey: STRIPE_TEST_ENV.STRIPE_SECRET_KEY, webhookSecret: STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET, priceIds: TEST_PRICE_IDS, connection: { host: '127.0.0.1', port: fake.port, protocol: 'http' }, timeoutMs: 5_000, published },
    createLogger('silent'),
  );
  t = await createTestApp({ ...STRIPE_TEST_ENV, ADMIN_EMAILS: OPERATOR }, { payments });
  operator = (await operatorSession(t, OPERATOR)).cookie;
});
afterAll(async () => {
  // the plans' rules read the process's catalogue, which this file edits: later suites of the worker get the seed's
  setActiveCatalogue(null);
  await t.close();
  await fake.close();
});

const publish = () => t.request('/api/admin/catalogue/publish', { method: 'POST', body: {}, cookie: operator });
const audited = () => t.deps.database.db.select().from(operatorAuditLog).where(eq(operatorAuditLog.action, 'catalogue_publish')).orderBy(asc(operatorAuditLog.createdAt));
const priceWrites = () => fake.requests.filter((request) => request.method === 'POST' && request.path.startsWith('/v1/prices')).length;

describe('"Publish to Stripe" on a live (Stripe) shop', () => {
  it("makes each missing Price, takes over the configured ones that match, says which is which; again, it finds them all; each run audited", async () => {
    const added = await t.request('/api/admin/catalogue/plans', { body: { slug: 'weekly', name: 'Weekly', price: 1500, period: { unit: 'week', count: 1 } }, cookie: operator });
    expect(added.status).toBe(201);

    const response = await publish();
    expect(response.status, await response.clone().text()).toBe(200);
    const first = publishResponseSchema.parse(await response.json());
    expect(first.mode).toBe('stripe');
    const weekly = first.prices.find((price) => price.plan === 'weekly')!;
    expect(weekly).toMatchObject({ list: '/', amount: 1500, currency: 'usd', period: { unit: 'week', count: 1 }, lookupKey: 'cw_default_weekly_1500_usd_1week_exclusive', how: 'created' });
    expect(fake.prices.get(weekly.id!)).toMatchObject({ amount: 1500, lookupKey: weekly.lookupKey });
    // the seed's sale price of Monthly is what STRIPE_PRICE_MONTHLY charges: named, not duplicated
    expect(first.prices.find((price) => price.plan === 'monthly' && price.id === TEST_PRICE_IDS.monthly)).toMatchObject({ how: 'adopted' });

    const writes = priceWrites();
    const again = publishResponseSchema.parse(await (await publish()).json());
    expect(again.prices.map((price) => price.how)).toEqual(again.prices.map(() => 'kept'));
    expect(priceWrites()).toBe(writes);

    const created = first.prices.filter((price) => price.how === 'created').length;
    const adopted = first.prices.filter((price) => price.how === 'adopted').length;
    expect((await audited()).map((entry) => [entry.operatorEmail, entry.details])).toEqual([
      [OPERATOR, { mode: 'stripe', prices: first.prices.length, created, adopted }],
      [OPERATOR, { mode: 'stripe', prices: first.prices.length, created: 0, adopted: 0 }],
    ]);
  });

  it("answers Stripe's reason when it refuses (502), and audits the attempt", async () => {
    fake.apiKey = 'sk_test_another_account';
    try {
      const response = await publish();
      expect(response.status).toBe(502);
      const { error } = (await response.json()) as { error: { message: string } };
      expect(error.message).toMatch(/^Stripe refused to publish the prices: Invalid API Key provided/);
      expect((await audited()).at(-1)?.details).toEqual({ mode: 'stripe', error: error.message });
    } finally {
      fake.apiKey = STRIPE_TEST_ENV.STRIPE_SECRET_KEY;
    }
  });
});
