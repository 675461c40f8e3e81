// Test helpers for suites that run the real app on the Stripe adapter against the local
// Stripe look-alike (fake-stripe-server.ts). Only imported by *.test.ts files.
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createLogger } from '../logger';
import { createTestApp, type TestApp } from './test-app';
import { startFakeStripe, STRIPE_TEST_ENV, TEST_PRICE_IDS, type FakeStripe, type RecordedRequest, type StripeEvent } from './fake-stripe-server';
import { createStripePayments } from '../modules/payments/stripe-payments';
import type { StripePaymentsPort } from '../modules/payments/payments.port';

export type StripeBench = {
  stripe: FakeStripe;
  t: TestApp;
  /** A unique e-mail address per call. */
  email: (name: string) => string;
  /** Posts a signed webhook of `type` carrying `object`, as Stripe would. */
  webhook: (type: string, object: unknown, options?: { secret?: string; id?: string }) => Promise<Response>;
  /** Posts a signed webhook of an event the fake produced. */
  deliver: (event: StripeEvent) => Promise<Response>;
  lastRequest: (method: string, path: RegExp) => RecordedRequest | undefined;
};

const signer = new Stripe('sk_test_signer');

/** The real Stripe adapter, configured as STRIPE_TEST_ENV, talking to the local look-alike. */
export function paymentsOn(stripe: FakeStripe, options: { tax?: boolean } = {}): StripePaymentsPort {
  return createStripePayments(
    {
      secretKey: STRIPE_TEST_ENV.STRIPE_SECRET_KEY,
      webhookSecret: STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET,
      priceIds: TEST_PRICE_IDS,
      connection: { host: '127.0.0.1', port: stripe.port, protocol: 'http' },
      timeoutMs: 5_000,
      tax: { enabled: options.tax === true },
    },
    createLogger('silent'),
  );
}

/** Registers the hooks of a Stripe suite (`env`: more configuration); the bench's fields are ready inside tests. */
export function stripeSuite(env: Record<string, string> = {}): StripeBench {
  let counter = 0;
  let eventCounter = 0;
  const bench = {
    email: (name: string) => `${name}-${++counter}@example.com`,
    webhook: (type: string, object: unknown, options: { secret?: string; id?: string } = {}) => {
      const payload = JSON.stringify({ id: options.id ?? `evt_test_${++eventCounter}`, object: 'event', type, created: Math.floor(Date.now() / 1000), api_version: '2026-10-28.endive', data: { object } });
      return signed(payload, options.secret);
    },
    deliver: (event: StripeEvent) => signed(JSON.stringify(event)),
    lastRequest: (method: string, path: RegExp) => [...bench.stripe.requests].reverse().find((request) => request.method === method && path.test(request.path)),
  } as StripeBench;

  function signed(payload: string, secret = STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET) {
    const header = signer.webhooks.generateTestHeaderString({ payload, secret });
    return bench.t.request('/api/webhooks/stripe', { body: payload, headers: { 'stripe-signature': header } });
  }

  beforeAll(async () => {
    bench.stripe = await startFakeStripe();
    bench.t = await createTestApp({ ...STRIPE_TEST_ENV, ...env }, { payments: paymentsOn(bench.stripe, { tax: env.STRIPE_TAX === 'true' }) });
  });
  afterAll(async () => {
    await bench.t.close();
    await bench.stripe.close();
  });
  beforeEach(() => {
    bench.stripe.portalConfigured = true;
    bench.stripe.declineUpdates = false;
    bench.stripe.authenticateUpdates = false;
  });
  return bench;
}
