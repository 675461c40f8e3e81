import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { session, userSubscriptions } from '../../db/schema';
import { createTestApp, signUp, type TestApp } from '../../test-support/test-app';
import { decodedCookieValue, rawCookieValue, verifiedToken } from './session.middleware';

// The API reads the session itself (one statement with the access rule, kept a moment: MEMBER_CACHE_MS) instead of asking
// better-auth's getSession; these pin down that callers see what better-auth would answer.

const SECRET = 'test-secret-test-secret-test-secret-1234';
const COOKIE = 'candlewise.session_token';
const DAY = 86_400_000;
const sign = (token: string) => `${token}.${createHmac('sha256', SECRET).update(token).digest('base64')}`;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const tokenOf = (cookie: string) => verifiedToken(decodedCookieValue(rawCookieValue(cookie, COOKIE) ?? ''), SECRET)!;
const accessOf = async (cookie: string) => {
  const response = await t.request('/api/access', { cookie });
  return { status: response.status, body: await response.json() };
};

describe('reading the session cookie', () => {
  it('takes the first cookie of that name, unquoted and percent-decoded', () => {
    const sent = rawCookieValue(`other=1; ${COOKIE}="a%2Bb.c%3D"; ${COOKIE}=second`, COOKIE);
    expect(sent).toBe('"a%2Bb.c%3D"');
    expect(decodedCookieValue(sent!)).toBe('a+b.c=');
    expect(rawCookieValue('other=1', COOKIE)).toBeNull();
    expect(rawCookieValue(`noequals; x${COOKIE}=1;${COOKIE} = spaced `, COOKIE)).toBe('spaced');
    expect(decodedCookieValue('a%ZZb')).toBe('a%ZZb');
  });

  it('accepts only the HMAC-SHA256 signature of the token under the secret', () => {
    expect(verifiedToken(sign('abc'), SECRET)).toBe('abc');
    expect(verifiedToken(sign('abc'), 'another-secret-another-secret-another-1')).toBeNull();
    expect(verifiedToken(`abd.${sign('abc').split('.')[1]}`, SECRET)).toBeNull();
    expect(verifiedToken('abc', SECRET)).toBeNull();
    expect(verifiedToken('.abc', SECRET)).toBeNull();
  });
});

describe('the API session', () => {
  it('knows a signed-in user, with or without access', async () => {
    const cookie = await signUp(t, 'reader@example.com');
    expect(await accessOf(cookie)).toEqual({ status: 200, body: { hasAccess: false } });
  });

  it('refuses a cookie whose signature was tampered with, or a token signed by someone else', async () => {
    const cookie = await signUp(t, 'tamper@example.com');
    const token = tokenOf(cookie);
    const forged = `${token}.${createHmac('sha256', 'not-the-secret-not-the-secret-not-the-s').update(token).digest('base64')}`;
    expect((await accessOf(`${COOKIE}=${encodeURIComponent(forged)}`)).status).toBe(401);
    expect((await accessOf(`${COOKIE}=${token}`)).status).toBe(401);
    expect((await accessOf(`${COOKIE}=${encodeURIComponent(sign('no-such-session'))}`)).status).toBe(401);
  });

  it('ends at once when the session is signed out', async () => {
    const cookie = await signUp(t, 'leaver@example.com');
    expect((await accessOf(cookie)).status).toBe(200);
    expect((await t.request('/api/auth/sign-out', { body: {}, cookie })).status).toBe(200);
    expect((await accessOf(cookie)).status).toBe(401);
  });

  it('refuses an expired session, and better-auth deletes it', async () => {
    const cookie = await signUp(t, 'expired@example.com');
    const token = tokenOf(cookie);
    await t.deps.database.db.update(session).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(session.token, token));
    expect((await accessOf(cookie)).status).toBe(401);
    expect(await t.deps.database.db.select().from(session).where(eq(session.token, token))).toEqual([]);
  });

  it('extends a session older than a day through better-auth, and keeps the member signed in', async () => {
    const cookie = await signUp(t, 'regular@example.com');
    const token = tokenOf(cookie);
    const soon = new Date(Date.now() + 2 * DAY);
    await t.deps.database.db.update(session).set({ expiresAt: soon }).where(eq(session.token, token));
    expect(await accessOf(cookie)).toEqual({ status: 200, body: { hasAccess: false } });
    const [row] = await t.deps.database.db.select({ expiresAt: session.expiresAt }).from(session).where(eq(session.token, token));
    expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * DAY);
  });

  it('shows access granted and ended on the very next request, though the request before was answered from memory', async () => {
    const cookie = await signUp(t, 'member@example.com');
    const [{ userId } = { userId: '' }] = await t.deps.database.db.select({ userId: session.userId }).from(session).where(eq(session.token, tokenOf(cookie)));
    const [row] = await t.deps.database.db
      .insert(userSubscriptions)
      .values({ userId, planType: 'monthly', status: 'active', isActive: true, expiresAt: new Date(Date.now() + 30 * DAY), provider: 'sandbox' })
      .returning({ id: userSubscriptions.id });
    expect(await accessOf(cookie)).toEqual({ status: 200, body: { hasAccess: true } });
    expect((await t.request('/api/content/guides', { cookie })).status).toBe(200);

    await t.deps.database.db.update(userSubscriptions).set({ isActive: false, status: 'canceled' }).where(eq(userSubscriptions.id, row!.id));
    expect(await accessOf(cookie)).toEqual({ status: 200, body: { hasAccess: false } });
    expect((await t.request('/api/content/guides', { cookie })).status).toBe(403);
  });
});
