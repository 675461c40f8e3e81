// The shop's limits tried as an attacker would: forged client addresses, password guessing, a
// flood of failed sign-ins and of anonymous checkouts, each reproduced against the real app,
// which must refuse it, with counts asserted. Where the client address matters the app listens
// on a real socket (port 0) and TRUST_PROXY is off, so a forged x-forwarded-for is just a header.
// The limits count in the database, so these run on both engines (see database-suites.ts).
// (Hostile bodies and the sandbox mailbox are in attacks-hostile-input / attacks-sandbox-mailbox.)
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorInputFromResponse } from '@shared/api-contract';
import { LOGIN_TEXTS, loginError } from '@shared/error-messages';
import { AUTH_FAILURE_SCORE_CAP, SCORE_PENALTIES } from '@shared/security';
import { ANONYMOUS_CHECKOUTS_PER_ADDRESS, SIGN_IN_FAILURES_PER_ACCOUNT } from '@shared/throttle';
import { queryRows } from '../db/query';
import { checkoutSessions, securityEvents, user } from '../db/schema';
import { recordRepeatedSecurityEvent, recordSecurityEvent } from '../modules/security/security.repository';
import { listen, post, randomAddress, tally } from '../test-support/attack-kit';
import { cookieFrom, createTestApp, signUp, type TestApp } from '../test-support/test-app';

const PASSWORD = 'Sup3rSecret!';

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
      server = await listen(t.app.fetch);
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

describe('a flood of anonymous checkouts', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: '' });
    server = await listen(t.app.fetch);
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
