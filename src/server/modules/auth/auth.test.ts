import { AsyncLocalStorage } from 'node:async_hooks';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { errorInputFromResponse } from '@shared/api-contract';
import { LOGIN_TEXTS, RESET_TEXTS, SIGN_UP_TEXTS, loginError, resetError, signUpError } from '@shared/error-messages';
import { RESET_LINK_TTL_SECONDS } from '@shared/timing';
import { createApp } from '../../app';
import { compose } from '../../composition';
import { loadConfig } from '../../config';
import { account, securityEvents, session, user, verification } from '../../db/schema';
import { buildDependencies } from '../../dependencies';
import { createLogger } from '../../logger';
import type { Mail, MailPort } from '../mail/mail.port';
import { TEST_ORIGIN, cookieFrom, createTestApp, signUp, type TestApp } from '../../test-support/test-app';
import { createTestDatabase } from '../../test-support/test-database';

const PASSWORD = 'Sup3rSecret!';

/** The error texts the /auth page would show for this response. */
async function errorOf(response: Response) {
  return errorInputFromResponse(response.status, await response.json());
}

const getSession = async (t: TestApp, cookie: string) =>
  (await (await t.request('/api/auth/get-session', { cookie })).json()) as { user: { id: string; email: string } } | null;

const signIn = (t: TestApp, email: string, password: string, ip = '203.0.113.7') =>
  t.request('/api/auth/sign-in/email', { body: { email, password }, headers: { 'x-forwarded-for': ip } });

/**
 * A bound, not a speed: the first mail of a worker loads the mail templates (React and its
 * renderer), which has taken over 15 s on a busy 2-core machine.
 */
const MAIL_WAIT_MS = 45_000;

/** Mails are sent in the background; wait until the n-th one arrived. */
async function mailNumber(t: TestApp, n: number): Promise<Mail> {
  await vi.waitFor(() => expect(t.mails.length).toBeGreaterThanOrEqual(n), { timeout: MAIL_WAIT_MS });
  return t.mails[n - 1]!;
}

const tokenIn = (mail: Mail) => {
  const match = mail.text.match(/\/reset-password\?token=([A-Za-z0-9_-]+)/);
  if (!match?.[1]) throw new Error(`no reset link in: ${mail.text}`);
  return match[1];
};

describe('accounts through better-auth', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  describe('sign-up', () => {
    it('creates the account, hashes the password and sets an httpOnly, SameSite=Lax session cookie', async () => {
      const response = await t.request('/api/auth/sign-up/email', { body: { email: 'ada@example.com', password: PASSWORD, name: 'ada' } });
      expect(response.status).toBe(200);
      const body = await response.json();
      expect(body.token).toBeTruthy();
      expect(body.user).toMatchObject({ email: 'ada@example.com' });

      const cookies = response.headers.getSetCookie();
      const sessionCookie = cookies.find((cookie) => cookie.startsWith('candlewise.session_token='));
      expect(sessionCookie).toBeDefined();
      expect(sessionCookie).toMatch(/HttpOnly/i);
      expect(sessionCookie).toMatch(/SameSite=Lax/i);
      expect(sessionCookie).not.toMatch(/Secure/i); // http://localhost

      const current = await getSession(t, cookieFrom(response));
      expect(current?.user.email).toBe('ada@example.com');

      const [credential] = await t.deps.database.db.select().from(account).where(eq(account.userId, body.user.id));
      expect(credential?.password).toBeTruthy();
      expect(credential?.password).not.toContain(PASSWORD);
    });

    it('refuses a second account for the same e-mail; the page shows User Already Exists', async () => {
      const response = await t.request('/api/auth/sign-up/email', { body: { email: 'ADA@example.com', password: PASSWORD, name: 'ada' } });
      expect(response.status).toBe(422);
      const shown = signUpError(await errorOf(response));
      expect(shown).toEqual({ ...SIGN_UP_TEXTS.userExists, switchToSignIn: true });
    });

    it.each([
      ['too short', 'Ab1', 'weak_password'],
      ['without an upper-case letter', 'lowercase123', 'weak_password'],
      ['without a digit', 'NoDigitsHere', 'weak_password'],
      ['longer than 128', `Aa1${'x'.repeat(126)}`, 'validation_failed'],
    ])('refuses a password %s with a 400', async (_case, password, code) => {
      const response = await t.request('/api/auth/sign-up/email', { body: { email: `weak-${code}-${password.length}@example.com`, password, name: 'weak' } });
      expect(response.status).toBe(400);
      expect((await response.json()).error.code).toBe(code);
    });

    it('shows the weak-password text for a short password', async () => {
      const response = await t.request('/api/auth/sign-up/email', { body: { email: 'short@example.com', password: 'Ab1', name: 'short' } });
      expect(signUpError(await errorOf(response)).description).toBe(SIGN_UP_TEXTS.weakPassword);
    });
  });

  describe('sign-in', () => {
    beforeAll(async () => {
      await signUp(t, 'grace@example.com', PASSWORD);
    });

    it('signs in with the right password and answers the session', async () => {
      const response = await signIn(t, 'grace@example.com', PASSWORD);
      expect(response.status).toBe(200);
      expect((await getSession(t, cookieFrom(response)))?.user.email).toBe('grace@example.com');
    });

    it('answers a wrong password and an unknown e-mail identically, and the page shows Invalid Credentials', async () => {
      const wrongPassword = await signIn(t, 'grace@example.com', 'Wr0ngPassword');
      const unknownEmail = await signIn(t, 'nobody@example.com', 'Wr0ngPassword');
      expect(wrongPassword.status).toBe(401);
      expect(unknownEmail.status).toBe(401);
      const [wrongBody, unknownBody] = [await wrongPassword.text(), await unknownEmail.text()];
      expect(wrongBody).toBe(unknownBody);
      expect(wrongPassword.headers.getSetCookie()).toEqual([]);
      expect(loginError(errorInputFromResponse(401, JSON.parse(wrongBody)))).toEqual(LOGIN_TEXTS.invalidCredentials);
    });

    it('records failed sign-ins as AUTH_FAILURE, with the user id when the e-mail has an account', async () => {
      await signIn(t, 'Grace@Example.com', 'AnotherWrong1');
      await signIn(t, 'stranger@example.com', 'AnotherWrong1');
      const [grace] = await t.deps.database.db.select({ id: user.id }).from(user).where(eq(user.email, 'grace@example.com'));
      const events = await t.deps.database.db.select().from(securityEvents).where(eq(securityEvents.event, 'AUTH_FAILURE'));
      const forGrace = events.filter((event) => event.userId === grace!.id);
      // repeats within 15 minutes fold into one row with a count, so a flood cannot fill the log
      expect(forGrace.reduce((sum, event) => sum + event.count, 0)).toBeGreaterThanOrEqual(2);
      expect(forGrace[0]?.ipAddress).toBe('203.0.113.7');
      const forStranger = events.filter((event) => event.details?.email === 'stranger@example.com');
      expect(forStranger).toHaveLength(1);
      expect(forStranger[0]?.userId).toBeNull();
    });

    it('records a failed sign-in made on the server through auth.api too (payment page)', async () => {
      const [grace] = await t.deps.database.db.select({ id: user.id }).from(user).where(eq(user.email, 'grace@example.com'));
      const countFor = async () =>
        (await t.deps.database.db.select().from(securityEvents).where(eq(securityEvents.userId, grace!.id))).reduce((sum, event) => sum + event.count, 0);
      const before = await countFor();
      await expect(t.deps.auth.api.signInEmail({ body: { email: 'grace@example.com', password: 'Wr0ngAgain' }, headers: new Headers() })).rejects.toThrow();
      expect(await countFor()).toBe(before + 1);
    });

    it('does not record a successful sign-in', async () => {
      const before = await t.deps.database.db.select().from(securityEvents);
      await signIn(t, 'grace@example.com', PASSWORD);
      expect(await t.deps.database.db.select().from(securityEvents)).toHaveLength(before.length);
    });

    it('limits sign-in attempts per address; the page shows Too Many Attempts', async () => {
      const ip = '198.51.100.23';
      const statuses: number[] = [];
      // other e-mails each time: this is the per-address limit, not the per-account back-off
      for (let attempt = 0; attempt < 11; attempt += 1) statuses.push((await signIn(t, `guess-${attempt}@example.com`, 'Wr0ngPassword', ip)).status);
      expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
      const limited = await signIn(t, 'grace@example.com', PASSWORD, ip);
      expect(limited.status).toBe(429);
      expect(loginError(await errorOf(limited))).toEqual(LOGIN_TEXTS.tooManyAttempts);
      // another address is not affected
      expect((await signIn(t, 'grace@example.com', PASSWORD, '198.51.100.24')).status).toBe(200);
    });
  });

  describe('sign-out and sessions', () => {
    it('a member behind a busy shared address stays signed in however often pages ask', async () => {
      const cookie = await signUp(t, 'tabs@example.com');
      const statuses = new Set<number>();
      for (let view = 0; view < 150; view += 1) {
        const response = await t.request('/api/auth/get-session', { cookie, headers: { 'x-forwarded-for': '198.51.100.77' } });
        statuses.add(response.status);
      }
      expect([...statuses]).toEqual([200]);
      expect((await getSession(t, cookie))?.user.email).toBe('tabs@example.com');
    });

    it('auth calls that overlap all finish, and between calls better-auth leaves no async context switched on', async () => {
      // each from its own address, so that the other tests' sign-up limit is left alone
      const signUpFrom = async (email: string, ip: string) => {
        const response = await t.request('/api/auth/sign-up/email', { body: { email, password: PASSWORD, name: 'overlap' }, headers: { 'x-forwarded-for': ip } });
        expect(response.status).toBe(200);
        return cookieFrom(response);
      };
      const cookies = await Promise.all([1, 2, 3].map((n) => signUpFrom(`overlap-${n}@example.com`, `203.0.113.${50 + n}`)));
      // sessions read while sign-ins run: one call ends while the others are still under way
      const [sessions, signIns] = await Promise.all([
        Promise.all(cookies.map((cookie) => getSession(t, cookie))),
        Promise.all([1, 2].map((n) => signIn(t, `overlap-${n}@example.com`, PASSWORD, `203.0.113.${60 + n}`))),
      ]);
      expect(sessions.map((session) => session?.user.email)).toEqual(['overlap-1@example.com', 'overlap-2@example.com', 'overlap-3@example.com']);
      expect(signIns.map((response) => response.status)).toEqual([200, 200]);
      // better-auth's storages (request state, endpoint context, adapter) exist and are off:
      // `enabled` is Node's own flag for whether a storage hooks every promise of the process
      const { context } = (globalThis as unknown as Record<symbol, { context: Record<string, unknown> }>)[Symbol.for('better-auth:global')]!;
      const storages = Object.values(context).filter((value) => value instanceof AsyncLocalStorage);
      expect(storages.length).toBeGreaterThanOrEqual(2);
      expect(storages.map((storage) => (storage as unknown as { enabled: boolean }).enabled)).toEqual(storages.map(() => false));
    });

    it('get-session answers what better-auth answers, and extends a session due for it with a new cookie right after a kept read', async () => {
      const cookie = await signUp(t, 'kept-session@example.com');
      const ours = await t.request('/api/auth/get-session', { cookie });
      const theirs = await t.deps.auth.handler(new Request(`${TEST_ORIGIN}/api/auth/get-session`, { headers: { cookie } }));
      expect(ours.status).toBe(200);
      expect(ours.headers.get('content-type')).toMatch(/^application\/json/);
      const answer = (await ours.json()) as { session: { token: string; expiresAt: string }; user: { email: string } };
      expect(answer).toEqual(await theirs.json());
      expect(answer.user.email).toBe('kept-session@example.com');
      expect(ours.headers.getSetCookie()).toEqual([]);

      // a day before better-auth's refresh point (30 days, refreshed after one): the next read extends it
      const dueSoon = new Date(Date.now() + 2 * 24 * 3600 * 1000);
      await t.deps.database.db.update(session).set({ expiresAt: dueSoon }).where(eq(session.token, answer.session.token));
      const refreshed = await t.request('/api/auth/get-session', { cookie });
      expect(refreshed.headers.getSetCookie().some((value) => value.startsWith('candlewise.session_token='))).toBe(true);
      const extended = (await refreshed.json()) as { session: { expiresAt: string } };
      expect(new Date(extended.session.expiresAt).getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);
    });

    it('sign-out ends the session on the server and clears the cookie', async () => {
      const cookie = await signUp(t, 'linus@example.com');
      const response = await t.request('/api/auth/sign-out', { body: {}, cookie });
      expect(response.status).toBe(200);
      expect(response.headers.getSetCookie().some((value) => /candlewise\.session_token=;/.test(value) && /Max-Age=0/i.test(value))).toBe(true);
      expect(await getSession(t, cookie)).toBeNull();
    });

    it('"Sign Out of All Devices" revokes every session of the user and no one else\'s', async () => {
      const first = await signUp(t, 'margaret@example.com');
      const second = cookieFrom(await signIn(t, 'margaret@example.com', PASSWORD, '192.0.2.10'));
      const someoneElse = await signUp(t, 'katherine@example.com');
      expect((await getSession(t, second))?.user.email).toBe('margaret@example.com');

      const response = await t.request('/api/auth/revoke-sessions', { body: {}, cookie: second });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: true });
      expect(await getSession(t, first)).toBeNull();
      expect(await getSession(t, second)).toBeNull();
      expect((await getSession(t, someoneElse))?.user.email).toBe('katherine@example.com');
    });

    it('Settings → change password: the current one is required, every other session ends, this one goes on (#46)', async () => {
      // from an address of its own: the file's other sign-ups use up the default address's limit
      const signedUp = await t.request('/api/auth/sign-up/email', { body: { email: 'pw-changer@example.com', password: PASSWORD, name: 'pw-changer' }, headers: { 'x-forwarded-for': '192.0.2.12' } });
      expect(signedUp.status).toBe(200);
      const here = cookieFrom(signedUp);
      const elsewhere = cookieFrom(await signIn(t, 'pw-changer@example.com', PASSWORD, '192.0.2.11'));
      const wrong = await t.request('/api/auth/change-password', { body: { currentPassword: 'Not-the-one1', newPassword: 'N3wSecret!!', revokeOtherSessions: true }, cookie: here });
      expect(wrong.status).toBe(400);
      expect((await errorOf(wrong)).message).toMatch(/invalid password/i);
      expect((await getSession(t, elsewhere))?.user.email).toBe('pw-changer@example.com');

      const changed = await t.request('/api/auth/change-password', { body: { currentPassword: PASSWORD, newPassword: 'N3wSecret!!', revokeOtherSessions: true }, cookie: here });
      expect(changed.status, await changed.clone().text()).toBe(200);
      // better-auth gives this browser a new session in place of the revoked ones
      const renewed = cookieFrom(changed);
      expect((await getSession(t, renewed))?.user.email).toBe('pw-changer@example.com');
      expect(await getSession(t, elsewhere)).toBeNull();
      expect((await signIn(t, 'pw-changer@example.com', PASSWORD, '192.0.2.12')).status).toBe(401);
      expect((await signIn(t, 'pw-changer@example.com', 'N3wSecret!!', '192.0.2.12')).status).toBe(200);
    });

    it('refuses revoke-sessions without a session', async () => {
      const response = await t.request('/api/auth/revoke-sessions', { body: {} });
      expect(response.status).toBe(401);
    });

    it('refuses a cookie-carrying POST from a foreign origin', async () => {
      const cookie = await signUp(t, 'csrf@example.com');
      const response = await t.request('/api/auth/revoke-sessions', { body: {}, cookie, headers: { origin: 'https://evil.example' } });
      expect(response.status).toBe(403);
      expect((await getSession(t, cookie))?.user.email).toBe('csrf@example.com');
    });
  });

  describe('password reset', () => {
    const email = 'reset-me@example.com';
    let oldCookie: string;
    beforeAll(async () => {
      oldCookie = await signUp(t, email);
    });

    it('answers the same whether or not the address has an account, and mails only a real one', async () => {
      const mailsBefore = t.mails.length;
      const known = await t.request('/api/auth/request-password-reset', { body: { email }, headers: { 'x-forwarded-for': '192.0.2.50' } });
      const unknown = await t.request('/api/auth/request-password-reset', { body: { email: 'ghost@example.com' }, headers: { 'x-forwarded-for': '192.0.2.50' } });
      expect(known.status).toBe(200);
      expect(unknown.status).toBe(200);
      expect(await known.text()).toBe(await unknown.text());

      const mail = await mailNumber(t, mailsBefore + 1);
      expect(mail.to).toBe(email);
      expect(mail.subject).toContain('Candlewise');
      expect(mail.text).toContain(`${TEST_ORIGIN}/reset-password?token=`);
      expect(mail.text).toContain('10 minutes');
      expect(mail.html).toContain('Candlewise');
      expect(mail.html).toContain(`${TEST_ORIGIN}/reset-password?token=${tokenIn(mail)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(t.mails.filter((sent) => sent.to === 'ghost@example.com')).toEqual([]);
    });

    it('issues a token valid for 10 minutes that the reset page can check', async () => {
      const token = tokenIn(t.mails.filter((mail) => mail.to === email).at(-1)!);
      const [row] = await t.deps.database.db.select().from(verification).where(eq(verification.identifier, `reset-password:${token}`));
      const lifetimeSeconds = (row!.expiresAt.getTime() - Date.now()) / 1000;
      expect(lifetimeSeconds).toBeGreaterThan(RESET_LINK_TTL_SECONDS - 30);
      expect(lifetimeSeconds).toBeLessThanOrEqual(RESET_LINK_TTL_SECONDS);
      expect(await (await t.request(`/api/auth/reset-token-status?token=${token}`)).json()).toEqual({ valid: true });
      expect(await (await t.request('/api/auth/reset-token-status?token=not-a-real-token-123')).json()).toEqual({ valid: false });
      expect(await (await t.request('/api/auth/reset-token-status')).json()).toEqual({ valid: false });
    });

    it('refuses a new password shorter than 8 and keeps the token usable', async () => {
      const token = tokenIn(t.mails.filter((mail) => mail.to === email).at(-1)!);
      const response = await t.request('/api/auth/reset-password', { body: { token, newPassword: 'short' } });
      expect(response.status).toBe(400);
      expect(await (await t.request(`/api/auth/reset-token-status?token=${token}`)).json()).toEqual({ valid: true });
    });

    it('sets the new password with the mailed token, ends old sessions and signs the user in', async () => {
      const token = tokenIn(t.mails.filter((mail) => mail.to === email).at(-1)!);
      const response = await t.request('/api/auth/reset-password', { body: { token, newPassword: 'Brand-New-Pass1' } });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: true });

      const fresh = cookieFrom(response);
      expect((await getSession(t, fresh))?.user.email).toBe(email);
      expect(await getSession(t, oldCookie)).toBeNull();

      expect((await signIn(t, email, PASSWORD, '192.0.2.60')).status).toBe(401);
      expect((await signIn(t, email, 'Brand-New-Pass1', '192.0.2.60')).status).toBe(200);
    });

    it('refuses a token a second time; the page shows Reset Link Error', async () => {
      const token = tokenIn(t.mails.filter((mail) => mail.to === email).at(-1)!);
      const response = await t.request('/api/auth/reset-password', { body: { token, newPassword: 'Another-Pass1' } });
      expect(response.status).toBe(400);
      expect(resetError(await errorOf(response), 'update')).toEqual(RESET_TEXTS.linkError);
      expect(response.headers.getSetCookie()).toEqual([]);
    });

    it('refuses an expired token', async () => {
      const mailsBefore = t.mails.length;
      await t.request('/api/auth/request-password-reset', { body: { email }, headers: { 'x-forwarded-for': '192.0.2.51' } });
      const token = tokenIn(await mailNumber(t, mailsBefore + 1));
      // eleven minutes later
      await t.deps.database.db
        .update(verification)
        .set({ expiresAt: new Date(Date.now() - 60_000) })
        .where(eq(verification.identifier, `reset-password:${token}`));
      expect(await (await t.request(`/api/auth/reset-token-status?token=${token}`)).json()).toEqual({ valid: false });
      const response = await t.request('/api/auth/reset-password', { body: { token, newPassword: 'Too-Late-Pass1' } });
      expect(response.status).toBe(400);
      expect(resetError(await errorOf(response), 'update')).toEqual(RESET_TEXTS.linkError);
      expect((await signIn(t, email, 'Too-Late-Pass1', '192.0.2.61')).status).toBe(401);
    });
  });
});

describe('registration switched off (AUTH_REGISTRATION_DISABLED)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_REGISTRATION_DISABLED: 'true' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses sign-up with a 403; the page shows the registration-disabled text', async () => {
    const response = await t.request('/api/auth/sign-up/email', { body: { email: 'late@example.com', password: PASSWORD, name: 'late' } });
    expect(response.status).toBe(403);
    expect(signUpError(await errorOf(response)).description).toBe(SIGN_UP_TEXTS.registrationDisabled);
    const [count] = await t.deps.database.db.select({ n: sql<number>`count(*)::int` }).from(user);
    expect(count?.n).toBe(0);
  });
});

describe('e-mail confirmation switched on (AUTH_REQUIRE_EMAIL_VERIFICATION)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_REQUIRE_EMAIL_VERIFICATION: 'true' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates the account without a session and mails a confirmation link', async () => {
    const response = await t.request('/api/auth/sign-up/email', { body: { email: 'verify@example.com', password: PASSWORD, name: 'verify' } });
    expect(response.status).toBe(200);
    expect((await response.json()).token).toBeNull();
    expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith('candlewise.session_token='))).toBe(false);
    const mail = await mailNumber(t, 1);
    expect(mail.to).toBe('verify@example.com');
    expect(mail.text).toContain('/api/auth/verify-email?token=');
  });

  it('answers a duplicate sign-up like a new one (no account enumeration)', async () => {
    const response = await t.request('/api/auth/sign-up/email', { body: { email: 'verify@example.com', password: PASSWORD, name: 'verify' } });
    expect(response.status).toBe(200);
    expect((await response.json()).token).toBeNull();
  });

  it('refuses sign-in until the address is confirmed; the page shows Email Not Confirmed', async () => {
    const response = await signIn(t, 'verify@example.com', PASSWORD);
    expect(response.status).toBe(403);
    expect(loginError(await errorOf(response))).toEqual(LOGIN_TEXTS.emailNotConfirmed);
  });

  it('signs in after following the mailed link', async () => {
    const link = t.mails[0]!.text.match(/https?:\/\/\S+verify-email\S+/)![0];
    const confirm = await t.request(link.replace(TEST_ORIGIN, ''));
    expect([200, 302]).toContain(confirm.status);
    expect((await signIn(t, 'verify@example.com', PASSWORD)).status).toBe(200);
  });

  it('a password reset counts as confirmation and signs the user in', async () => {
    await signUpUnverified(t, 'unconfirmed@example.com');
    const before = t.mails.length;
    await t.request('/api/auth/request-password-reset', { body: { email: 'unconfirmed@example.com' } });
    await vi.waitFor(() => expect(t.mails.some((mail, index) => index >= before && mail.text.includes('/reset-password?token='))).toBe(true), { timeout: MAIL_WAIT_MS });
    const token = tokenIn(t.mails.filter((mail) => mail.text.includes('/reset-password?token=')).at(-1)!);
    const response = await t.request('/api/auth/reset-password', { body: { token, newPassword: 'Confirmed-By-Reset1' } });
    expect(response.status).toBe(200);
    expect((await getSession(t, cookieFrom(response)))?.user.email).toBe('unconfirmed@example.com');
  });
});

async function signUpUnverified(t: TestApp, email: string) {
  const response = await t.request('/api/auth/sign-up/email', { body: { email, password: PASSWORD, name: 'x' } });
  expect(response.status).toBe(200);
}

describe('HTTPS deployments', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ NODE_ENV: 'production', PUBLIC_URL: 'https://shop.example.com', AUTH_SECRET: 'a'.repeat(40) });
  });
  afterAll(async () => {
    await t.close();
  });

  it('marks the session cookie Secure', async () => {
    const response = await t.request('/api/auth/sign-up/email', {
      body: { email: 'secure@example.com', password: PASSWORD, name: 'secure' },
      headers: { origin: 'https://shop.example.com', host: 'shop.example.com', 'x-forwarded-proto': 'https' },
    });
    expect(response.status).toBe(200);
    const sessionCookie = response.headers.getSetCookie().find((cookie) => cookie.includes('session_token='));
    expect(sessionCookie).toMatch(/; Secure/i);
    expect(sessionCookie).toMatch(/HttpOnly/i);
  });

  it('trusts only the configured origins', async () => {
    const response = await t.request('/api/auth/sign-in/email', {
      body: { email: 'secure@example.com', password: PASSWORD },
      headers: { origin: 'http://localhost:3000', host: 'shop.example.com', 'x-forwarded-proto': 'https' },
    });
    expect(response.status).toBe(403);
  });
});

describe('several server instances on one database', () => {
  const secret = 'shared-secret-shared-secret-shared-1234';
  let close: () => Promise<void>;
  let first: Awaited<ReturnType<typeof createApp>>;
  let second: Awaited<ReturnType<typeof createApp>>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: TEST_ORIGIN });
    const mail: MailPort = { kind: 'outbox', send: async () => undefined };
    const build = async () => createApp(compose(await buildDependencies(config, database, createLogger('silent'), { secret, mail })));
    first = await build();
    second = await build();
    close = () => database.close();
  });
  afterAll(async () => {
    await close();
  });

  const call = (app: typeof first, path: string, init: { body?: unknown; cookie?: string } = {}) =>
    app.request(path, {
      method: init.body === undefined ? 'GET' : 'POST',
      headers: {
        origin: TEST_ORIGIN,
        'x-forwarded-for': '203.0.113.9',
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(init.cookie ? { cookie: init.cookie } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });

  it('accepts on one instance a session made on the other, and sees a revocation made on the other', async () => {
    const signedUp = await call(first, '/api/auth/sign-up/email', { body: { email: 'fleet@example.com', password: PASSWORD, name: 'fleet' } });
    const cookie = cookieFrom(signedUp);
    const onSecond = await (await call(second, '/api/auth/get-session', { cookie })).json();
    expect(onSecond?.user.email).toBe('fleet@example.com');
    expect((await call(second, '/api/access', { cookie })).status).toBe(200);

    expect((await call(second, '/api/auth/revoke-sessions', { body: {}, cookie })).status).toBe(200);
    expect(await (await call(first, '/api/auth/get-session', { cookie })).json()).toBeNull();
    expect((await call(first, '/api/access', { cookie })).status).toBe(401);
  });

  it('shares one rate limit between the instances', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt += 1) {
      const app = attempt % 2 === 0 ? first : second;
      // a new e-mail each time: the per-account back-off is not what this test is about
      statuses.push((await call(app, '/api/auth/sign-in/email', { body: { email: `fleet-${attempt}@example.com`, password: 'Wr0ngPassword' } })).status);
    }
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});
