// The shop tried as an attacker would: forged client addresses, password guessing, a flood of
// failed sign-ins, the sandbox mailbox, huge bodies and names, anonymous checkouts and hostile
// strings, each reproduced against the real app, which must refuse it, with counts asserted. Where the client address matters the app listens on a real
// socket (port 0) and TRUST_PROXY is off, so a forged x-forwarded-for is just a header.
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorInputFromResponse } from '@shared/api-contract';
import { LOGIN_TEXTS, loginError } from '@shared/error-messages';
import { AUTH_FAILURE_SCORE_CAP, SCORE_PENALTIES } from '@shared/security';
import { ANONYMOUS_CHECKOUTS_PER_ADDRESS, SIGN_IN_FAILURES_PER_ACCOUNT } from '@shared/throttle';
import { NAME_MAX_LENGTH, VALIDATION_MESSAGES } from '@shared/validation';
import { queryRows } from '../db/query';
import { checkoutSessions, securityEvents, user } from '../db/schema';
import { API_BODY_LIMIT, WEBHOOK_BODY_LIMIT } from '../http/body-limit';
import { recordRepeatedSecurityEvent, recordSecurityEvent } from '../modules/security/security.repository';
import { TEST_ORIGIN, cookieFrom, createTestApp, operatorSession, signUp, type TestApp } from '../test-support/test-app';

const PASSWORD = 'Sup3rSecret!';
const randomAddress = () => `${1 + Math.floor(Math.random() * 222)}.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;

/** The app on a real socket: requests carry the socket's address like a visitor's would. */
async function listen(t: TestApp): Promise<{ url: string; close: () => Promise<void> }> {
  const server: ServerType = await new Promise((resolve) => {
    const started = serve({ fetch: t.app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(started));
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});

/** A clock tests can move; the throttles read the app's clock. */
function movableClock() {
  let offsetMs = 0;
  return { now: () => new Date(Date.now() + offsetMs), advance: (ms: number) => void (offsetMs += ms), reset: () => void (offsetMs = 0) };
}

describe('password guessing with forged client addresses', () => {
  describe('straight at the server (no trusted proxy)', () => {
    let t: TestApp;
    let server: Awaited<ReturnType<typeof listen>>;
    beforeAll(async () => {
      t = await createTestApp({ TRUST_PROXY: '' });
      await signUp(t, 'victim@example.com');
      server = await listen(t);
    });
    afterAll(async () => {
      await server.close();
      await t.close();
    });

    it('50 guesses with a random x-forwarded-for each are limited; the buyer reads Too Many Attempts', async () => {
      const statuses: number[] = [];
      let last: Response | null = null;
      for (let guess = 0; guess < 50; guess += 1) {
        last = await post(`${server.url}/api/auth/sign-in/email`, { email: 'victim@example.com', password: `Wrong-${guess}` }, { 'x-forwarded-for': randomAddress() });
        statuses.push(last.status);
      }
      // five free guesses for the account, then its back-off; the address limit would stop at ten
      expect(tally(statuses)).toEqual({ 401: SIGN_IN_FAILURES_PER_ACCOUNT.free, 429: 50 - SIGN_IN_FAILURES_PER_ACCOUNT.free });
      expect(loginError(errorInputFromResponse(429, await last!.json()))).toEqual(LOGIN_TEXTS.tooManyAttempts);
    });

    it('guesses on many accounts from one socket hit the per-address limit whatever the header says', async () => {
      const statuses: number[] = [];
      for (let guess = 0; guess < 20; guess += 1) {
        statuses.push((await post(`${server.url}/api/auth/sign-in/email`, { email: `nobody-${guess}@example.com`, password: 'Wrong-1' }, { 'x-forwarded-for': randomAddress() })).status);
      }
      // better-auth's own limit (10 a minute) keyed by the socket address: the ten above already
      // count for this socket, so none of these reach a password check
      expect(tally(statuses)).toEqual({ 429: 20 });
    });
  });

  describe('behind a trusted proxy (every guess from a different real address)', () => {
    const clock = movableClock();
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({}, { clock: clock.now });
      await signUp(t, 'target@example.com');
    });
    afterAll(async () => {
      await t.close();
    });

    const guess = (password: string) =>
      t.request('/api/auth/sign-in/email', { body: { email: 'target@example.com', password }, headers: { 'x-forwarded-for': randomAddress() } });

    it('the per-account back-off holds across addresses, doubles, and a correct password clears it', async () => {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 50; attempt += 1) statuses.push((await guess(`Wrong-${attempt}`)).status);
      expect(tally(statuses)).toEqual({ 401: 5, 429: 45 });

      // even the right password waits: the attacker cannot tell it apart
      expect((await guess(PASSWORD)).status).toBe(429);
      clock.advance(SIGN_IN_FAILURES_PER_ACCOUNT.firstDelayMs);
      expect((await guess('Wrong-again')).status).toBe(401);
      clock.advance(SIGN_IN_FAILURES_PER_ACCOUNT.firstDelayMs);
      expect((await guess(PASSWORD)).status).toBe(429); // the wait has doubled
      clock.advance(SIGN_IN_FAILURES_PER_ACCOUNT.firstDelayMs);
      expect((await guess(PASSWORD)).status).toBe(200);
      expect((await guess('Wrong-after')).status).toBe(401); // cleared: counting starts over
    });
  });
});

describe('the security log under a flood of failed sign-ins', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  // A thousand sign-ins: the bound, like the hostile sweep's, is for a machine that is busy, not a speed.
  it('1,000 failed sign-ins leave the log readable and the score above the floor', async () => {
    const cookie = await signUp(t, 'member@example.com');
    const [member] = await t.deps.database.db.select({ id: user.id }).from(user).where(eq(user.email, 'member@example.com'));
    const userId = member!.id;
    await recordSecurityEvent(t.deps.database.db, { userId, event: 'UNAUTHORIZED_ACCESS', details: { path: '/dashboard' } });
    // the first few through the real sign-in route, the rest through the same recorder
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await t.request('/api/auth/sign-in/email', { body: { email: 'member@example.com', password: 'Wrong-1' }, headers: { 'x-forwarded-for': randomAddress() } })).status).toBe(401);
    }
    for (let attempt = 5; attempt < 1000; attempt += 1) {
      await recordRepeatedSecurityEvent(t.deps.database.db, { userId, event: 'AUTH_FAILURE', details: { email: 'member@example.com' }, ipAddress: randomAddress() });
    }

    const rows = await t.deps.database.db.select().from(securityEvents).where(eq(securityEvents.userId, userId));
    expect(rows).toHaveLength(2);
    expect(rows.find((row) => row.event === 'AUTH_FAILURE')?.count).toBe(1000);
    expect(rows.some((row) => row.event === 'UNAUTHORIZED_ACCESS')).toBe(true);

    const alerts = (await (await t.request('/api/security/alerts', { cookie })).json()) as { score: number; alerts: { type: string; message: string }[] };
    expect(alerts.score).toBe(100 - AUTH_FAILURE_SCORE_CAP * SCORE_PENALTIES.AUTH_FAILURE - SCORE_PENALTIES.UNAUTHORIZED_ACCESS);
    expect(alerts.alerts.map((alert) => alert.type).sort()).toEqual(['critical', 'warning']);
    expect(alerts.alerts.find((alert) => alert.type === 'warning')?.message).toMatch(/^1000 failed sign-in attempts in the last 15 minutes/);
  }, 300_000);
});

describe('the sandbox mailbox and the reset links in it', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });
  const app = async (env: Record<string, string>) => {
    const t = await createTestApp({ ADMIN_EMAILS: 'ops@example.com', ...env });
    apps.push(t);
    return t;
  };
  const LIVE_STRIPE = {
    STRIPE_SECRET_KEY: 'sk_test_attack',
    STRIPE_WEBHOOK_SECRET: 'whsec_attack',
    STRIPE_PRICE_MONTHLY: 'price_m',
    STRIPE_PRICE_QUARTERLY: 'price_q',
    STRIPE_PRICE_YEARLY: 'price_y',
    STRIPE_PRICE_LIFETIME: 'price_l',
    STRIPE_PRICE_EU_MONTHLY: 'price_em',
    STRIPE_PRICE_EU_QUARTERLY: 'price_eq',
  };

  it.each<[string, Record<string, string>]>([
    ['in production', { NODE_ENV: 'production' }],
    ['with live payments', LIVE_STRIPE],
    ['with a live TradingView', { TRADINGVIEW_SESSION_ID: 'sid', TRADINGVIEW_SESSION_SIGN: 'sign' }],
  ])('%s a stranger cannot read a reset link for a member; only an operator can', async (_name, env) => {
    const t = await app(env);
    const member = await signUp(t, 'owner@example.com');
    // in production an operator also passes two-factor
    const { cookie: operator } = await operatorSession(t, 'ops@example.com', { twoFactor: true });
    expect((await t.request('/api/auth/request-password-reset', { body: { email: 'owner@example.com', redirectTo: '/reset-password' } })).status).toBe(200);

    const anonymous = await t.request('/api/sandbox/mailbox');
    expect(anonymous.status).toBe(401);
    expect(JSON.stringify(await anonymous.json())).not.toContain('reset-password');
    expect((await t.request('/api/sandbox/mailbox', { cookie: member })).status).toBe(403);
    expect((await t.request('/api/sandbox/mailbox', { cookie: operator })).status).toBe(200);
  });

  it('stays open to everyone in an all-sandbox demo outside production', async () => {
    const t = await app({});
    expect((await t.request('/api/sandbox/mailbox')).status).toBe(200);
  });
});

describe('oversized bodies and names', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    t = await createTestApp();
    server = await listen(t);
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

describe('a flood of anonymous checkouts', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: '' });
    server = await listen(t);
  });
  afterAll(async () => {
    await server.close();
    await t.close();
  });

  const checkout = (headers: Record<string, string> = {}) =>
    post(`${server.url}/api/create-checkout`, { planType: 'monthly', customerEmail: null, fbc: null, fbp: null, userAgent: null, originPage: '/' }, headers);

  it('are limited per address, whatever x-forwarded-for says; each refused one costs no provider call', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < ANONYMOUS_CHECKOUTS_PER_ADDRESS.max + 10; attempt += 1) statuses.push((await checkout({ 'x-forwarded-for': randomAddress() })).status);
    expect(tally(statuses)).toEqual({ 200: ANONYMOUS_CHECKOUTS_PER_ADDRESS.max, 429: 10 });
    const [counted] = await queryRows<{ sessions: number }>(t.deps.database.db, sql`SELECT count(*)::int AS sessions FROM sandbox_checkout_sessions`);
    expect(counted?.sessions).toBe(ANONYMOUS_CHECKOUTS_PER_ADDRESS.max);
  });

  it('a signed-in member is not limited by it', async () => {
    const signedUp = await post(`${server.url}/api/auth/sign-up/email`, { email: 'buyer@example.com', password: PASSWORD, name: 'buyer' });
    const cookie = cookieFrom(signedUp);
    expect((await checkout({ cookie })).status).toBe(200);
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

describe('create-checkout stores its own row before calling the provider', () => {
  const calls: { rowsBefore: { id: string; status: string }[] }[] = [];
  let failProvider = false;
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    // watch the provider port the app was built with (the routes hold this same object)
    const payments = t.deps.payments;
    const create = payments.createCheckoutSession.bind(payments);
    payments.createCheckoutSession = async (input) => {
      calls.push({ rowsBefore: await t.deps.database.db.select({ id: checkoutSessions.id, status: checkoutSessions.status }).from(checkoutSessions) });
      if (failProvider) throw new Error('provider down');
      return create(input);
    };
  });
  afterAll(async () => {
    await t.close();
  });

  const body = { planType: 'monthly', customerEmail: 'order@example.com', fbc: null, fbp: null, userAgent: null, originPage: '/' };

  it('the row exists (provisional) when the provider is called, and carries the provider id after', async () => {
    const response = await t.request('/api/create-checkout', { body });
    expect(response.status).toBe(200);
    const { sessionId } = (await response.json()) as { sessionId: string };
    expect(calls.at(-1)?.rowsBefore).toEqual([expect.objectContaining({ status: 'creating' })]);
    expect(await t.deps.database.db.select({ id: checkoutSessions.id, status: checkoutSessions.status }).from(checkoutSessions)).toEqual([{ id: sessionId, status: 'open' }]);
  });

  it('a provider failure leaves no row behind', async () => {
    failProvider = true;
    const response = await t.request('/api/create-checkout', { body });
    failProvider = false;
    expect(response.status).toBeGreaterThanOrEqual(500);
    expect(await t.deps.database.db.select().from(checkoutSessions)).toHaveLength(1);
  });
});
