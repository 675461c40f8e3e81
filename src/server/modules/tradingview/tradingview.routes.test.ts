import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ACTIVATION_TEXTS, activationError, activationErrorKind } from '@shared/error-messages';
import { GRANT_STATUS_TEXTS, tradingviewStatusResponseSchema } from '@shared/tradingview-grants';
import { VALIDATION_MESSAGES } from '@shared/validation';
import { sandboxTradingviewAccess, tradingviewGrants, user, userSubscriptions } from '../../db/schema';
import { cookieFrom, createTestApp, type TestApp } from '../../test-support/test-app';
import { FAKE_SESSION, startFakeTradingView, type FakeTradingView } from '../../test-support/fake-tradingview-server';
import { currentUsername, linkUsername, usernameHistory } from './tradingview.repository';
import { tradingViewOf } from './tradingview.integration';

const FUTURE = new Date(Date.now() + 30 * 24 * 60 * 60_000);

/** The status's change limit in this suite's app (TRADINGVIEW_USERNAME_CHANGE_DAYS=0). */
const unlimited = { nextChangeAt: null, changeDays: 0 };

let signUps = 0;

/** Signs up from an address of its own, so the suite stays under the sign-up rate limit. */
async function signUp(t: TestApp, email: string): Promise<string> {
  signUps += 1;
  const response = await t.request('/api/auth/sign-up/email', {
    body: { email, password: 'Sup3rSecret!', name: 'member' },
    headers: { 'x-forwarded-for': `198.51.100.${signUps}` },
  });
  if (response.status !== 200) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  return cookieFrom(response);
}

async function userIdOf(t: TestApp, email: string): Promise<string> {
  const [row] = await t.deps.database.db.select({ id: user.id }).from(user).where(eq(user.email, email));
  return row!.id;
}

async function subscribe(t: TestApp, userId: string, values: Partial<typeof userSubscriptions.$inferInsert> = {}) {
  await t.deps.database.db.insert(userSubscriptions).values({
    userId,
    planType: 'monthly',
    status: 'active',
    isActive: true,
    expiresAt: FUTURE,
    provider: 'sandbox',
    ...values,
  });
}

/** A signed-in member with a paid subscription (and optionally an older, expired one). */
async function payingMember(t: TestApp, email: string, values: Partial<typeof userSubscriptions.$inferInsert> = {}) {
  const cookie = await signUp(t, email);
  const userId = await userIdOf(t, email);
  await subscribe(t, userId, values);
  return { cookie, userId };
}

const activate = (t: TestApp, cookie: string | undefined, tvUsername: unknown) =>
  t.request('/api/tradingview/activate', { body: { tv_username: tvUsername }, cookie });

async function errorOf(response: Response) {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, ...body.error };
}

describe('TradingView routes on the sandbox adapter', () => {
  let t: TestApp;
  beforeAll(async () => {
    // changes of one's own username are not limited here (the lookup limit is what is tested;
    // the change limit has tradingview-usernames.test.ts)
    t = await createTestApp({ SANDBOX_TRADINGVIEW_MISSING_USERNAMES: 'ghost_trader', TRADINGVIEW_USERNAME_CHANGE_DAYS: '0' });
  });
  afterAll(async () => {
    await t.close();
  });

  /** The sandbox's three scripts, by the names its catalogue gives them (never their PUB; ids). */
  const sandboxScripts = () => t.deps.config.integrations.tradingview.sandboxScripts.map(({ id, name }) => ({ id, name }));

  it.each([
    ['POST', '/api/tradingview/activate'],
    ['PUT', '/api/tradingview/username'],
    ['GET', '/api/tradingview/status'],
  ])('%s %s needs a signed-in user', async (method, path) => {
    const response = await t.request(path, { method, body: method === 'GET' ? undefined : { tv_username: 'Trader_Joe' } });
    expect(await errorOf(response)).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(activationErrorKind({ status: 401, code: 'unauthorized' })).toBe('unauthorized');
  });

  it("activates: links the verified username as the member's current name, schedules the grant, then grants it", async () => {
    const { cookie, userId } = await payingMember(t, 'activate@example.com');
    await subscribe(t, userId, { isActive: false, status: 'canceled', expiresAt: new Date('2024-01-01T00:00:00Z') });

    const response = await activate(t, cookie, '  @Trader_Joe ');

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, verifiedUsername: 'Trader_Joe' });
    expect(await currentUsername(t.deps.database.db, userId)).toBe('Trader_Joe');
    expect(await usernameHistory(t.deps.database.db, userId)).toEqual([{ username: 'Trader_Joe', linkedAt: expect.any(Date), replacedAt: null }]);
    const [grant] = await t.deps.database.db.select().from(tradingviewGrants).where(eq(tradingviewGrants.userId, userId));
    expect(grant).toMatchObject({ username: 'Trader_Joe', desired: 'grant', status: 'pending' });

    const pending = tradingviewStatusResponseSchema.parse(await (await t.request('/api/tradingview/status', { cookie })).json());
    expect(pending).toEqual({ username: 'Trader_Joe', status: 'pending', message: GRANT_STATUS_TEXTS.pending, expiresAt: FUTURE.toISOString(), ...unlimited, scripts: sandboxScripts() });

    await tradingViewOf(t.integrations).reconciler.runOnce();

    const granted = await (await t.request('/api/tradingview/status', { cookie })).json();
    expect(granted).toEqual({ username: 'Trader_Joe', status: 'granted', message: GRANT_STATUS_TEXTS.granted, expiresAt: FUTURE.toISOString(), ...unlimited, scripts: sandboxScripts() });
    const access = await t.deps.database.db.select().from(sandboxTradingviewAccess).where(eq(sandboxTradingviewAccess.username, 'Trader_Joe'));
    expect(access.map((row) => row.scriptId).sort()).toEqual([...t.deps.config.integrations.tradingview.scriptIds].sort());
  });

  it("answers a username TradingView does not know with the spec's message", async () => {
    const { cookie, userId } = await payingMember(t, 'ghost@example.com');
    const response = await activate(t, cookie, 'Ghost_Trader');
    const error = await errorOf(response);
    expect(error).toMatchObject({ status: 422, code: 'tv_username_not_found' });
    expect(activationError(error)).toEqual({ title: ACTIVATION_TEXTS.title, description: ACTIVATION_TEXTS.not_found });
    expect(ACTIVATION_TEXTS.not_found).toBe('This TradingView username does not exist. Please check your username and try again.');
    expect(await currentUsername(t.deps.database.db, userId)).toBeNull();
    expect(await usernameHistory(t.deps.database.db, userId)).toEqual([]);
  });

  it.each([
    ['', VALIDATION_MESSAGES.tradingViewUsernameRequired],
    ['   ', VALIDATION_MESSAGES.tradingViewUsernameRequired],
    ['has spaces', VALIDATION_MESSAGES.tradingViewUsernameInvalid],
    ['x'.repeat(51), VALIDATION_MESSAGES.tradingViewUsernameTooLong],
    [42, VALIDATION_MESSAGES.tradingViewUsernameRequired],
  ])('refuses the invalid username %j with a 400 and the message', async (input, message) => {
    const { cookie } = await payingMember(t, `invalid-${Math.random().toString(36).slice(2)}@example.com`);
    expect(await errorOf(await activate(t, cookie, input))).toMatchObject({ status: 400, code: 'validation_failed', message });
  });

  it('refuses malformed JSON with a 400', async () => {
    const { cookie } = await payingMember(t, 'json@example.com');
    const response = await t.request('/api/tradingview/activate', { body: '{"tv_username":', cookie });
    expect(await errorOf(response)).toMatchObject({ status: 400, code: 'invalid_json' });
  });

  it('refuses a member without a paid subscription (403) before looking anything up', async () => {
    const cookie = await signUp(t, 'free@example.com');
    const error = await errorOf(await activate(t, cookie, 'Trader_Joe'));
    expect(error).toMatchObject({ status: 403, code: 'forbidden', message: 'You need an active subscription to activate TradingView access.' });

    const expired = await payingMember(t, 'expired@example.com', { expiresAt: new Date('2024-01-01T00:00:00Z') });
    expect(await errorOf(await activate(t, expired.cookie, 'Trader_Joe'))).toMatchObject({ status: 403, code: 'forbidden' });
  });

  it('refuses a cross-site form post', async () => {
    const { cookie } = await payingMember(t, 'csrf@example.com');
    const response = await t.request('/api/tradingview/activate', {
      body: '{"tv_username":"attacker"}',
      cookie,
      headers: { origin: 'https://evil.example', 'content-type': 'text/plain' },
    });
    expect(response.status).toBe(403);
  });

  it('corrects the username: the old account loses access and the new one gets it', async () => {
    const { cookie, userId } = await payingMember(t, 'correct@example.com', { planType: 'lifetime', expiresAt: null });
    await activate(t, cookie, 'Trader_Jo');
    await tradingViewOf(t.integrations).reconciler.runOnce();

    const response = await t.request('/api/tradingview/username', { method: 'PUT', body: { tv_username: 'Trader_Joe2' }, cookie });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, verifiedUsername: 'Trader_Joe2' });
    await tradingViewOf(t.integrations).reconciler.runOnce();

    const grants = await t.deps.database.db.select().from(tradingviewGrants).where(eq(tradingviewGrants.userId, userId)).orderBy(tradingviewGrants.createdAt);
    expect(grants).toMatchObject([
      { username: 'Trader_Jo', desired: 'revoke', status: 'revoked' },
      { username: 'Trader_Joe2', desired: 'grant', status: 'granted' },
    ]);
    expect(await t.deps.database.db.select().from(sandboxTradingviewAccess).where(eq(sandboxTradingviewAccess.username, 'Trader_Jo'))).toEqual([]);
    expect(await (await t.request('/api/tradingview/status', { cookie })).json()).toEqual({
      username: 'Trader_Joe2',
      status: 'granted',
      message: GRANT_STATUS_TEXTS.granted,
      expiresAt: null,
      ...unlimited,
      scripts: sandboxScripts(),
    });
  });

  it('changes the username with PUT: one reconciler pass revokes the old name and grants the new one, and keeps the history', async () => {
    const { cookie, userId } = await payingMember(t, 'rename@example.com', { planType: 'lifetime', expiresAt: null });
    expect((await activate(t, cookie, 'Chart_Old')).status).toBe(200);
    await tradingViewOf(t.integrations).reconciler.runOnce();
    const scripts = t.deps.config.integrations.tradingview.scriptIds;
    const holders = async (scriptId: string) => (await tradingViewOf(t.integrations).port.listUsers(scriptId)).map((row) => row.username);
    for (const scriptId of scripts) expect(await holders(scriptId)).toContain('Chart_Old');

    const response = await t.request('/api/tradingview/username', { method: 'PUT', body: { tv_username: 'Chart_New' }, cookie });
    expect(await response.json()).toEqual({ success: true, verifiedUsername: 'Chart_New' });
    // the change itself wrote both targets, before any pass ran
    const byCreation = () => t.deps.database.db.select().from(tradingviewGrants).where(eq(tradingviewGrants.userId, userId)).orderBy(tradingviewGrants.createdAt);
    expect(await byCreation()).toMatchObject([
      { username: 'Chart_Old', desired: 'revoke', status: 'pending' },
      { username: 'Chart_New', desired: 'grant', status: 'pending' },
    ]);

    await tradingViewOf(t.integrations).reconciler.runOnce();

    expect(await byCreation()).toMatchObject([
      { username: 'Chart_Old', desired: 'revoke', status: 'revoked' },
      { username: 'Chart_New', desired: 'grant', status: 'granted' },
    ]);
    for (const scriptId of scripts) {
      expect(await holders(scriptId)).not.toContain('Chart_Old');
      expect(await holders(scriptId)).toContain('Chart_New');
    }
    expect(await t.deps.database.db.select().from(sandboxTradingviewAccess).where(eq(sandboxTradingviewAccess.username, 'Chart_Old'))).toEqual([]);
    const history = await usernameHistory(t.deps.database.db, userId);
    expect(history).toEqual([
      { username: 'Chart_New', linkedAt: expect.any(Date), replacedAt: null },
      { username: 'Chart_Old', linkedAt: expect.any(Date), replacedAt: history[0]!.linkedAt },
    ]);
    expect(await (await t.request('/api/tradingview/status', { cookie })).json()).toMatchObject({ username: 'Chart_New', status: 'granted' });
  });

  it('keeps the current name when the same one is given again in another case', async () => {
    const { cookie, userId } = await payingMember(t, 'same-again@example.com');
    expect((await activate(t, cookie, 'Same_Name')).status).toBe(200);
    await linkUsername(t.deps.database.db, userId, 'same_name', new Date());
    expect(await usernameHistory(t.deps.database.db, userId)).toEqual([{ username: 'Same_Name', linkedAt: expect.any(Date), replacedAt: null }]);
  });

  it("reports 'none' before a username is given", async () => {
    const { cookie } = await payingMember(t, 'nobody-yet@example.com');
    expect(await (await t.request('/api/tradingview/status', { cookie })).json()).toEqual({
      username: null,
      status: 'none',
      message: GRANT_STATUS_TEXTS.none,
      expiresAt: null,
      ...unlimited,
      scripts: [],
    });
  });

  it('reads as ended for a username whose subscription has run out', async () => {
    const { cookie, userId } = await payingMember(t, 'lapsed@example.com', { expiresAt: new Date('2024-01-01T00:00:00Z') });
    await linkUsername(t.deps.database.db, userId, 'lapsed_trader', new Date());
    expect(await (await t.request('/api/tradingview/status', { cookie })).json()).toEqual({
      username: 'lapsed_trader',
      status: 'revoked',
      message: GRANT_STATUS_TEXTS.revoked,
      expiresAt: null,
      ...unlimited,
      scripts: [],
    });
  });

  it('retries a failed grant at once when the member submits the same username again', async () => {
    const { cookie, userId } = await payingMember(t, 'again@example.com');
    await linkUsername(t.deps.database.db, userId, 'Trader_Again', new Date());
    const later = new Date(Date.now() + 60 * 60_000);
    await t.deps.database.db.insert(tradingviewGrants).values({
      userId,
      username: 'Trader_Again',
      desired: 'grant',
      desiredExpiresAt: FUTURE,
      status: 'failed',
      attempts: 8,
      lastError: 'not_found: POST /pine_perm/add/: 422 User does not exist',
      nextAttemptAt: later,
    });
    expect(await (await t.request('/api/tradingview/status', { cookie })).json()).toMatchObject({ status: 'failed', message: GRANT_STATUS_TEXTS.failedUsername });

    expect((await activate(t, cookie, 'Trader_Again')).status).toBe(200);

    const [grant] = await t.deps.database.db.select().from(tradingviewGrants).where(eq(tradingviewGrants.userId, userId));
    expect(grant!.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now());
    await tradingViewOf(t.integrations).reconciler.runOnce();
    expect(await (await t.request('/api/tradingview/status', { cookie })).json()).toMatchObject({ status: 'granted' });
  });

  it('limits username lookups to 10 a minute per member', async () => {
    const { cookie } = await payingMember(t, 'enumerate@example.com');
    for (let i = 0; i < 10; i += 1) expect((await activate(t, cookie, `guess_${i}`)).status).toBe(200);
    const error = await errorOf(await activate(t, cookie, 'guess_10'));
    expect(error).toMatchObject({ status: 429, code: 'rate_limited' });
    // another member is not affected
    const other = await payingMember(t, 'other@example.com');
    expect((await activate(t, other.cookie, 'bob')).status).toBe(200);
  });
});

describe('TradingView routes on the real client (local TradingView)', () => {
  let t: TestApp;
  let fake: FakeTradingView;
  beforeAll(async () => {
    fake = await startFakeTradingView();
    t = await createTestApp({
      TRADINGVIEW_BASE_URL: fake.baseUrl,
      TRADINGVIEW_SESSION_ID: FAKE_SESSION.sessionId,
      TRADINGVIEW_SESSION_SIGN: FAKE_SESSION.sessionSign,
      TRADINGVIEW_SCRIPT_IDS: 'PUB;one,PUB;two',
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it("stores TradingView's spelling and grants both scripts", async () => {
    const { cookie } = await payingMember(t, 'real@example.com', { planType: 'lifetime', expiresAt: null });
    const response = await activate(t, cookie, 'trader_joe');
    expect(await response.json()).toEqual({ success: true, verifiedUsername: 'Trader_Joe' });
    await tradingViewOf(t.integrations).reconciler.runOnce();
    expect(fake.access.get('PUB;one')?.get('Trader_Joe')).toBeNull();
    expect(fake.access.get('PUB;two')?.get('Trader_Joe')).toBeNull();
  });

  it("answers 404/422 for an unknown name and maps it to the spec's message", async () => {
    const { cookie } = await payingMember(t, 'real-unknown@example.com');
    const error = await errorOf(await activate(t, cookie, 'trader'));
    expect(error).toMatchObject({ status: 422, code: 'tv_username_not_found' });
    expect(activationErrorKind(error)).toBe('not_found');
  });

  it("answers 503 'Unable to verify' when the vendor's TradingView session has expired", async () => {
    const { cookie } = await payingMember(t, 'real-expired@example.com');
    fake.hintAnswer = { status: 403, body: { detail: 'login_required' } };
    try {
      const error = await errorOf(await activate(t, cookie, 'bob'));
      expect(error).toMatchObject({ status: 503, code: 'tv_unverifiable' });
      expect(activationError(error)).toEqual({ title: ACTIVATION_TEXTS.title, description: ACTIVATION_TEXTS.cannot_verify });
    } finally {
      fake.hintAnswer = null;
    }
  });

  it("answers 502 'Unable to verify' when TradingView fails", async () => {
    const { cookie } = await payingMember(t, 'real-down@example.com');
    fake.hintAnswer = { status: 500, body: { detail: 'Internal error' } };
    try {
      const error = await errorOf(await activate(t, cookie, 'bob'));
      expect(error).toMatchObject({ status: 502, code: 'tv_unverifiable' });
      expect(activationErrorKind(error)).toBe('cannot_verify');
    } finally {
      fake.hintAnswer = null;
    }
  });
});
