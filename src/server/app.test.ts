import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test-support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('the HTTP app', () => {
  it('answers health and readiness', async () => {
    expect(await (await t.request('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await t.request('/readyz');
    expect(ready.status).toBe(200);
    expect((await ready.json()).status).toBe('ready');
  });

  it('answers an unknown API route with the JSON error shape', async () => {
    const response = await t.request('/api/definitely-not-here');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: 'not_found', message: 'No API route GET /api/definitely-not-here' } });
  });

  it('exposes only the public site settings, with the sandbox adapters named', async () => {
    const settings = await (await t.request('/api/site')).json();
    expect(settings).toMatchObject({ brandName: 'Candlewise', companyState: 'New Mexico', sandbox: ['payments', 'tradingview', 'discord', 'mail'] });
    expect(JSON.stringify(settings)).not.toMatch(/secret|STRIPE|sessionid/i);
  });

  it('refuses the access check without a session', async () => {
    const response = await t.request('/api/access');
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe('unauthorized');
  });
});

describe('HTTPS in production', () => {
  let production: TestApp;
  beforeAll(async () => {
    production = await createTestApp({ NODE_ENV: 'production', PREVIEW_HOSTS: 'preview.example.net', PUBLIC_URL: 'https://shop.example.com' });
  });
  afterAll(async () => {
    await production.close();
  });

  it.each([
    { host: 'shop.example.com', proto: 'http', redirected: true },
    { host: 'shop.example.com', proto: 'https', redirected: false },
    { host: 'localhost:3000', proto: 'http', redirected: false },
    { host: 'preview.example.net', proto: 'http', redirected: false },
  ])('$proto://$host → redirected: $redirected', async ({ host, proto, redirected }) => {
    const response = await production.request('/healthz', { headers: { host, 'x-forwarded-proto': proto } });
    expect(response.status).toBe(redirected ? 308 : 200);
    if (redirected) expect(response.headers.get('location')).toBe(`https://${host}/healthz`);
  });
});

describe('OpenAPI document', () => {
  it('describes every operation of the JSON API with its request schema', async () => {
    const document = await (await t.request('/api/openapi.json')).json();
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/create-checkout', '/api/verify-payment', '/api/subscription', '/api/tradingview/activate', '/api/operator', '/api/operator-invitations/accept']),
    );
    expect(document.paths['/api/operator'].get.responses[200].content['application/json'].schema.properties.standing.enum).toEqual([
      'member',
      'confirm_email',
      'enrol_two_factor',
      'sign_in_again',
      'operator',
    ]);
    const checkout = document.paths['/api/create-checkout'].post.requestBody.content['application/json'].schema;
    // a plan is a catalogue slug (decision 045): the operator adds plans, so the document names no fixed list
    expect(checkout.required).toContain('planType');
    expect(Object.keys(checkout.properties)).toContain('planType');
  });
});

describe('cross-site requests', () => {
  it('refuses a form post from another site before any route runs', async () => {
    const response = await t.app.request('/api/create-checkout', {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'text/plain' },
      body: '{"planType":"monthly"}',
    });
    expect(response.status).toBe(403);
  });
});
