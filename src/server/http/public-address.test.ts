import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { compose } from '../composition';
import { createLogger } from '../logger';
import { checkoutBody, payBody } from '../test-support/billing-test-kit';
import { createTestApp, type TestApp } from '../test-support/test-app';

// Any port, any address: with PORT=3300 a buyer was once sent back to localhost:3000, and
// the auth API refused a shop opened on 127.0.0.1.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PORT: '3300', PUBLIC_URL: '' });
});
afterAll(async () => {
  await t.close();
});

async function returnUrlAfterPaying(app: TestApp, origin: string): Promise<string> {
  const started = await app.request('/api/create-checkout', { body: checkoutBody(), headers: { origin } });
  expect(started.status).toBe(200);
  const { sessionId } = (await started.json()) as { sessionId: string };
  const paid = await app.request(`/api/sandbox/checkout/${sessionId}/pay`, { body: payBody('ada@example.com'), headers: { origin } });
  expect(paid.status).toBe(200);
  return ((await paid.json()) as { redirectUrl: string }).redirectUrl;
}

describe('the shop on another port (development)', () => {
  it.each(['http://localhost:3300', 'http://127.0.0.1:3300'])('sends a buyer who paid on %s back to the same address', async (origin) => {
    expect(await returnUrlAfterPaying(t, origin)).toMatch(new RegExp(`^${origin}/payment-success\\?session_id=cs_`));
  });

  it('sends a request from an unknown origin back to PUBLIC_URL', async () => {
    expect(await returnUrlAfterPaying(t, 'http://evil.example')).toMatch(/^http:\/\/localhost:3300\/payment-success/);
  });

  it.each(['http://localhost:3300', 'http://127.0.0.1:3300'])('lets the auth API serve a browser on %s', async (origin) => {
    const email = `port-${origin.includes('127') ? 'ip' : 'name'}@example.com`;
    const response = await t.request('/api/auth/sign-up/email', { body: { email, password: 'Sup3rSecret!', name: 'port' }, headers: { origin } });
    expect(response.status, await response.clone().text()).toBe(200);
  });

  it.each([
    ['http://127.0.0.1:3300', 400],
    ['http://localhost:3300', 400],
    ['http://127.0.0.1:4000', 403],
  ])('lets the CSRF check pass a form post from %s only on the shop\'s port (%i)', async (origin, status) => {
    const response = await t.app.request('/api/create-checkout', { method: 'POST', headers: { origin, 'content-type': 'application/x-www-form-urlencoded' }, body: 'planType=monthly' });
    expect(response.status).toBe(status);
  });

  it('still refuses an origin on another port', async () => {
    const response = await t.request('/api/auth/sign-up/email', { body: { email: 'other-port@example.com', password: 'Sup3rSecret!', name: 'x' }, headers: { origin: 'http://127.0.0.1:4000' } });
    expect(response.status).toBe(403);
  });

  it('says once in the log when requests arrive where PUBLIC_URL does not point', async () => {
    const lines: string[] = [];
    const logger = createLogger('warn', { destination: { write: (line: string) => void lines.push(line) } });
    const app = await createApp(compose({ ...t.deps, logger }));
    await app.request('http://localhost:3300/healthz');
    expect(lines).toEqual([]);
    await app.request('http://127.0.0.1:3300/healthz');
    await app.request('http://127.0.0.1:3300/api/site');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!).msg).toContain('PUBLIC_URL is http://localhost:3300 but requests arrive at http://127.0.0.1:3300');
  });
});

describe('return links in production', () => {
  let production: TestApp;
  beforeAll(async () => {
    production = await createTestApp({ NODE_ENV: 'production', PUBLIC_URL: 'https://shop.example.com', TRUSTED_ORIGINS: 'https://staging.example.com' });
  });
  afterAll(async () => {
    await production.close();
  });

  it('always use PUBLIC_URL', async () => {
    const started = await production.request('/api/create-checkout', {
      body: checkoutBody(),
      headers: { origin: 'https://staging.example.com', 'x-forwarded-proto': 'https', host: 'staging.example.com' },
    });
    expect(started.status).toBe(200);
    const { sessionId } = (await started.json()) as { sessionId: string };
    const paid = await production.request(`/api/sandbox/checkout/${sessionId}/pay`, { body: payBody('ada@example.com'), headers: { 'x-forwarded-proto': 'https' } });
    expect(((await paid.json()) as { redirectUrl: string }).redirectUrl).toMatch(/^https:\/\/shop\.example\.com\/payment-success/);
  });
});
