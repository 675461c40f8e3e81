// What the shop shows to anyone who asks, tried as an attacker would: the client build's private
// files (source maps carry the whole client source, the operator console's included; the build's
// manifest), the HTTPS redirect's Location, and forged webhook signatures, which must cost the
// shop no row and no log line each, while the operators' alert still counts them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import viteConfig from '../../../vite.config.ts';
import { createApp } from '../app';
import { paymentEventFailures } from '../db/schema';
import { createLogger } from '../logger';
import { webhookRoutes } from '../modules/fulfilment/webhooks.routes';
import { createStripePayments } from '../modules/payments/stripe-payments';
import { createOperatorAlerts } from '../modules/admin/alerts.service';
import { STRIPE_TEST_ENV, TEST_PRICE_IDS } from '../test-support/fake-stripe-server';
import { createTestApp, type TestApp } from '../test-support/test-app';
import { tradingViewOf } from '../modules/tradingview/tradingview.integration';

const CONSOLE_SOURCE = 'export function OperatorConsole() { return "members, revenue, audit log"; }';

describe('the client build’s private files', () => {
  let t: TestApp;
  let app: Awaited<ReturnType<typeof createApp>>;
  const clientDir = mkdtempSync(join(tmpdir(), 'candlewise-public-surface-'));

  beforeAll(async () => {
    // a client build as Vite writes one with maps and a manifest
    mkdirSync(join(clientDir, 'assets'));
    mkdirSync(join(clientDir, '.vite'));
    writeFileSync(join(clientDir, 'index.html'), '<!doctype html><html><head><title>shop</title></head><body><div id="root"></div></body></html>');
    writeFileSync(join(clientDir, 'assets', 'admin-Ab12Cd34.js'), 'export const a=1;\n//# sourceMappingURL=admin-Ab12Cd34.js.map\n');
    writeFileSync(join(clientDir, 'assets', 'admin-Ab12Cd34.js.map'), JSON.stringify({ version: 3, sources: ['src/client/features/admin/console.tsx'], sourcesContent: [CONSOLE_SOURCE], mappings: '' }));
    writeFileSync(join(clientDir, 'assets', 'index-Zz98Yy76.css.map'), JSON.stringify({ version: 3, sources: ['src/client/styles.css'], sourcesContent: ['.x{}'], mappings: '' }));
    writeFileSync(join(clientDir, '.vite', 'manifest.json'), JSON.stringify({ 'src/client/features/admin/console.tsx': { file: 'assets/admin-Ab12Cd34.js', isDynamicEntry: true } }));
    t = await createTestApp();
    app = await createApp({ deps: t.deps, services: t.services, jobs: t.jobs }, { clientDir });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('serves the chunks themselves', async () => {
    const chunk = await app.request('/assets/admin-Ab12Cd34.js');
    expect(chunk.status).toBe(200);
    expect(await chunk.text()).toContain('export const a=1;');
  });

  it.each([
    '/assets/admin-Ab12Cd34.js.map',
    '/assets/index-Zz98Yy76.css.map',
    '/assets/ADMIN-Ab12Cd34.js.MAP',
    '/assets/admin-Ab12Cd34.js%2Emap',
    '/.vite/manifest.json',
    '/.vite/manifest.json?fresh=1',
    '/%2Evite/manifest.json',
    '/.vite/',
    '/.vite',
  ])('%s is not served, nor answered with the app', async (path) => {
    for (const method of ['GET', 'HEAD']) {
      const response = await app.request(path, { method });
      const body = await response.text();
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(body).not.toContain(CONSOLE_SOURCE);
      expect(body).not.toContain('sourcesContent');
      expect(body).not.toContain('isDynamicEntry');
    }
  });

  it('the production client build writes no source map into dist/client', () => {
    const config = viteConfig({ command: 'build', mode: 'production', isSsrBuild: false, isPreview: false });
    expect(config.build?.outDir).toBe('dist/client');
    // 'hidden' still writes the maps beside the chunks: only none at all keeps them off the server
    expect(config.build?.sourcemap ?? false).toBe(false);
  });
});

describe('the HTTPS redirect', () => {
  let production: TestApp;
  beforeAll(async () => {
    production = await createTestApp({ NODE_ENV: 'production', PUBLIC_URL: 'https://shop.example.com', PREVIEW_HOSTS: 'preview.example.net' });
  });
  afterAll(async () => {
    await production?.close();
  });

  it.each([
    ['evil.example', 'http://evil.example/x?next=1'],
    ['evil.example:8080', 'http://evil.example:8080/x?next=1'],
    ['shop.example.com', 'http://shop.example.com/x?next=1'],
  ])('sends Host %s to PUBLIC_URL’s origin, never the Host it was given', async (host, url) => {
    const response = await production.app.request(url, { headers: { host, 'x-forwarded-proto': 'http' } });
    expect(response.status).toBe(308);
    expect(response.headers.get('location')).toBe('https://shop.example.com/x?next=1');
  });

  it('a path that looks like another host stays on PUBLIC_URL’s', async () => {
    const response = await production.app.request('http://evil.example//evil.example/x', { headers: { host: 'evil.example', 'x-forwarded-proto': 'http' } });
    expect(new URL(response.headers.get('location')!).origin).toBe('https://shop.example.com');
  });

  it('still leaves a preview host and localhost on plain HTTP', async () => {
    for (const host of ['preview.example.net', 'localhost:3000']) {
      const response = await production.app.request(`http://${host}/healthz`, { headers: { host, 'x-forwarded-proto': 'http' } });
      expect(response.status, host).toBe(200);
    }
  });
});

describe('forged webhook signatures', () => {
  const FORGED = 1000;
  const signer = new Stripe('sk_test_signer');
  let t: TestApp;
  const payments = createStripePayments(
    {
      secretKey: STRIPE_TEST_ENV.STRIPE_SECRET_KEY,
      webhookSecret: STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET,
      priceIds: TEST_PRICE_IDS,
      // a forged delivery never gets as far as asking Stripe anything
      connection: { host: '127.0.0.1', port: 9, protocol: 'http' },
      timeoutMs: 1_000,
    },
    createLogger('silent'),
  );
  const forged = (n: number) => {
    const payload = JSON.stringify({ id: `evt_forged_${n}`, object: 'event', type: 'checkout.session.completed', created: 1, data: { object: { id: `cs_forged_${n}` } } });
    return { payload, signature: signer.webhooks.generateTestHeaderString({ payload, secret: 'whsec_not_the_shops' }) };
  };

  beforeAll(async () => {
    t = await createTestApp(STRIPE_TEST_ENV, { payments });
  });
  afterAll(async () => {
    await t?.close();
  });

  it(`${FORGED} of them are all refused with 400, store nothing, and the operators’ alert still sees them`, async () => {
    const db = t.deps.database.db;
    const storedBefore = await db.$count(paymentEventFailures);
    const statuses: number[] = [];
    for (let batch = 0; batch < FORGED; batch += 50) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => {
          const { payload, signature } = forged(batch + i);
          return t.request('/api/webhooks/stripe', { body: payload, headers: { 'stripe-signature': signature } });
        }),
      );
      statuses.push(...answers.map((answer) => answer.status));
    }
    expect(statuses.filter((status) => status === 400)).toHaveLength(FORGED);
    expect(await db.$count(paymentEventFailures)).toBe(storedBefore);

    const alerts = createOperatorAlerts({ db, tradingView: tradingViewOf(t.integrations).port, recipients: async () => [], clock: t.deps.clock, logger: createLogger('silent'), refusals: t.services.signatureRefusals });
    expect(await alerts.check()).toContainEqual({ key: 'webhook_signature', transition: 'fire' });
    const [alert] = (await alerts.active()).filter((active) => active.key === 'webhook_signature');
    expect(alert?.detail).toContain(`${FORGED} deliveries refused for a bad signature`);
    // the alert's own state is one row per alert, whatever the number of refusals
    expect(await db.$count(paymentEventFailures)).toBe(storedBefore);
  });

  it('are logged at most once a minute, each line with the number refused since the one before', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger('info', { destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } });
    let now = new Date('2026-11-01T12:00:00Z');
    // a database of its own: the tally is per instance, and this is another instance
    const other = await createTestApp(STRIPE_TEST_ENV, { payments });
    try {
      const app = new Hono().route('/api/webhooks', webhookRoutes({ payments, handler: other.services.paymentEvents, refusals: other.services.signatureRefusals, logger, clock: () => now }));
      const post = async (n: number) => {
        const { payload, signature } = forged(n);
        return (await app.request('/api/webhooks/stripe', { method: 'POST', body: payload, headers: { 'stripe-signature': signature } })).status;
      };
      const refusalLines = () => lines.filter((line) => line.msg === 'Stripe webhooks with a bad signature refused');

      for (let n = 0; n < 200; n += 1) expect(await post(n)).toBe(400);
      expect(refusalLines().map((line) => line.refused)).toEqual([1]);
      now = new Date(now.getTime() + 30_000);
      expect(await post(200)).toBe(400);
      expect(refusalLines()).toHaveLength(1);
      now = new Date(now.getTime() + 31_000);
      expect(await post(201)).toBe(400);
      expect(refusalLines().map((line) => line.refused)).toEqual([1, 201]);
    } finally {
      await other.close();
    }
  });
});
