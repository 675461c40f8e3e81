// Hostile bodies tried against the real app as an attacker would send them: 5 MB and streamed
// bodies, huge names, and every POST route × every hostile value (NUL, lone surrogates, controls,
// huge strings, wrong types) in every field, which must be refused without a 5xx. The size
// limits are met on a real socket (port 0), where the Node adapter reads the body.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAME_MAX_LENGTH, VALIDATION_MESSAGES } from '@shared/validation';
import { user } from '../db/schema';
import { API_BODY_LIMIT, WEBHOOK_BODY_LIMIT } from '../http/body-limit';
import { listen, post, randomAddress } from '../test-support/attack-kit';
import { TEST_ORIGIN, createTestApp, signUp, type TestApp } from '../test-support/test-app';

const PASSWORD = 'Sup3rSecret!';

describe('oversized bodies and names', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    t = await createTestApp();
    server = await listen(t.app.fetch);
  });
  afterAll(async () => {
    await server.close();
    await t.close();
  });

  const FIVE_MB = 'x'.repeat(5 * 1024 * 1024);
  const POSTS = ['/api/create-checkout', '/api/get-payment-details', '/api/verify-payment', '/api/auth/sign-in/email', '/api/auth/sign-up/email', '/api/security/events/unauthorized-access', '/api/webhooks/stripe'];

  it.each(POSTS)('a 5 MB body to %s is refused with 413 and the JSON error shape', async (path) => {
    const response = await post(`${server.url}${path}`, JSON.stringify({ planType: FIVE_MB }));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: 'payload_too_large' } });
  });

  it('a streamed body without a length is cut off once it passes the limit', async () => {
    let sent = 0;
    const chunk = new Uint8Array(64 * 1024).fill(120);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 5 * 1024 * 1024) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const response = await fetch(`${server.url}/api/create-checkout`, { method: 'POST', headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: 'payload_too_large' } });
  });

  it('the limits are 64 KB for the API and 1 MB for webhooks', async () => {
    const justOver = (limit: number) => JSON.stringify({ pad: 'x'.repeat(limit) });
    expect((await post(`${server.url}/api/create-checkout`, justOver(API_BODY_LIMIT))).status).toBe(413);
    // a webhook body under its limit reaches the route (no Stripe here: 404), one over does not
    expect((await post(`${server.url}/api/webhooks/stripe`, justOver(API_BODY_LIMIT))).status).toBe(404);
    expect((await post(`${server.url}/api/webhooks/stripe`, justOver(WEBHOOK_BODY_LIMIT))).status).toBe(413);
  });

  it('a long sign-up name is refused, and an update cannot store one either', async () => {
    const long = 'N'.repeat(10_000);
    const refused = await t.request('/api/auth/sign-up/email', { body: { email: 'longname@example.com', password: PASSWORD, name: long } });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { code: 'validation_failed', details: [{ path: 'name', message: VALIDATION_MESSAGES.nameTooLong }] } });
    expect(await t.deps.database.db.select().from(user).where(eq(user.email, 'longname@example.com'))).toHaveLength(0);

    const cookie = await signUp(t, 'shortname@example.com');
    expect((await t.request('/api/auth/update-user', { body: { name: long }, cookie })).status).toBe(400);
    expect((await t.request('/api/auth/update-user', { body: { name: 'N'.repeat(NAME_MAX_LENGTH) }, cookie })).status).toBe(200);
    const [stored] = await t.deps.database.db.select({ name: user.name }).from(user).where(eq(user.email, 'shortname@example.com'));
    expect(stored?.name).toHaveLength(NAME_MAX_LENGTH);
  });
});

describe('hostile strings on every POST route', () => {
  let t: TestApp;
  let cookie: string;
  let fuzzCookie: string;
  beforeAll(async () => {
    t = await createTestApp();
    cookie = await signUp(t, 'member@example.com');
    // the fuzz signs its own member out along the way (sign-out, revoke-sessions)
    fuzzCookie = await signUp(t, 'fuzz@example.com');
  });
  afterAll(async () => {
    await t.close();
  });

  const HOSTILE: [string, unknown][] = [
    ['NUL', 'a\u0000b'],
    ['lone high surrogate', 'x\uD83D'],
    ['lone low surrogate', '\uDCA9x'],
    ['escape sequence', '\u001b[2J'],
    ['line break', 'a\r\nSet-Cookie: x=1'],
    ['C1 control', '\u0085'],
    ['huge string', 'h'.repeat(60_000)],
    ['number', 12345],
    ['array', ['a']],
    ['object', { $gt: '' }],
    ['null', null],
    ['boolean', true],
  ];
  const FIELDS = ['email', 'password', 'name', 'sessionId', 'planType', 'customerEmail', 'fbc', 'fbp', 'userAgent', 'originPage', 'tradingviewUsername', 'tv_username', 'newPlanType', 'path', 'token', 'newPassword', 'cardNumber', 'expiry', 'cvc', 'callbackURL', 'redirectTo', 'currentPassword'];
  const VALID: Record<string, unknown> = { email: 'fuzz@example.com', password: PASSWORD, name: 'Fuzz', sessionId: 'cs_missing', planType: 'monthly', customerEmail: null, fbc: null, fbp: null, userAgent: null, originPage: '/', newPlanType: 'yearly', path: '/dashboard', token: 'abcdefghijklmnopqrstuvwx', newPassword: PASSWORD, cardNumber: '4242424242424242', expiry: '12/40', cvc: '123' };
  const AUTH_POSTS = ['/api/auth/sign-in/email', '/api/auth/sign-up/email', '/api/auth/request-password-reset', '/api/auth/reset-password', '/api/auth/update-user', '/api/auth/change-password', '/api/auth/change-email', '/api/auth/sign-out', '/api/auth/revoke-sessions'];

  /** Every POST route the app mounts (parameters filled in), plus better-auth's behind its wildcard. */
  function postRoutes(): string[] {
    const own = t.app.routes
      .filter((route) => route.method === 'POST' && !route.path.includes('*'))
      .map((route) => route.path.replace(/:customerId/g, 'cus_fuzz').replace(/:subscriptionId/g, 'sub_fuzz').replace(/:action/g, 'cancel').replace(/:[A-Za-z]+/g, 'cs_fuzz'));
    return [...new Set([...own, ...AUTH_POSTS])];
  }

  it('every POST route × every hostile value in every field answers without a 5xx', async () => {
    const routes = postRoutes();
    expect(routes.length).toBeGreaterThan(20);
    const failures: string[] = [];
    let requests = 0;
    for (const path of routes) {
      for (const [label, value] of HOSTILE) {
        for (const as of [undefined, fuzzCookie]) {
          const body = Object.fromEntries(FIELDS.map((field) => [field, value]));
          const oneField = { ...VALID, email: value };
          for (const candidate of [body, oneField]) {
            requests += 1;
            const response = await t.request(path, { body: candidate, cookie: as, headers: { 'x-forwarded-for': randomAddress() } });
            if (response.status >= 500) failures.push(`${path} ${label}${as ? ' (member)' : ''}: ${response.status} ${await response.text()}`);
          }
        }
      }
    }
    expect(requests).toBe(routes.length * HOSTILE.length * 4);
    expect(failures).toEqual([]);
  }, 300_000);

  it.each<[string, string, Record<string, unknown>, boolean]>([
    ['create-checkout e-mail', '/api/create-checkout', { planType: 'monthly', customerEmail: 'a\u0000@b.co', fbc: null, fbp: null, userAgent: null, originPage: '/' }, false],
    ['create-checkout tracking value', '/api/create-checkout', { planType: 'monthly', customerEmail: null, fbc: 'fb.\uD800', fbp: null, userAgent: null, originPage: '/' }, false],
    ['get-payment-details session id', '/api/get-payment-details', { sessionId: 'cs_\uDC00' }, false],
    ['verify-payment session id', '/api/verify-payment', { sessionId: 'cs_\u0000', password: PASSWORD }, false],
    ['security event path', '/api/security/events/unauthorized-access', { path: '/dash\u0000board' }, true],
    ['sandbox pay e-mail', '/api/sandbox/checkout/cs_fuzz/pay', { email: 'a\u0000@b.co', cardNumber: '4242424242424242', expiry: '12/40', cvc: '123', name: 'A' }, false],
    ['reset token', '/api/auth/reset-password', { token: 'tok\u0000en', newPassword: PASSWORD }, false],
  ])('the reproduced 500s are now a 400 that names the problem: %s', async (_name, path, body, signedIn) => {
    const response = await t.request(path, { body, cookie: signedIn ? cookie : undefined, headers: { 'x-forwarded-for': randomAddress() } });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain(VALIDATION_MESSAGES.unsafeText);
  });
});
