// The buyer's journey after payment through the whole app (the payment-success page's userStatus,
// verify-payment / activate-existing-subscription): paid sessions are made the way
// a buyer makes them, through create-checkout and the sandbox provider's pay call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { PlanType } from '@shared/plans';
import { checkoutSessions, tradingviewGrants, user, userSubscriptions } from '../../db/schema';
import { cookieFrom, createTestApp, type TestApp } from '../../test-support/test-app';
import { usernameHistory } from '../tradingview/tradingview.repository';
import { createPasswordAccount } from '../auth/password-accounts';
import type { PasswordHashing } from '../auth/auth';
import { testPasswordHashing } from '../../test-support/test-password-hashing';

// the test app's scrypt, counted: verify-payment must hash the buyer's password once, not twice
const scrypt = { calls: 0 };
const countedScrypt: PasswordHashing = {
  hash: (password) => {
    scrypt.calls += 1;
    return testPasswordHashing.hash(password);
  },
  verify: (input) => {
    scrypt.calls += 1;
    return testPasswordHashing.verify(input);
  },
};

const PASSWORD = 'buyer-password-1';
let addresses = 0;

/** A client address of its own per auth call, so the suite stays under better-auth's rate limits. */
const freshIp = () => {
  addresses += 1;
  return `198.51.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
};

let emails = 0;
const newEmail = (name: string) => `${name}-${++emails}@example.com`;

async function signUp(t: TestApp, email: string, password = 'Sup3rSecret!'): Promise<string> {
  const response = await t.request('/api/auth/sign-up/email', { body: { email, password, name: 'member' }, headers: { 'x-forwarded-for': freshIp() } });
  if (response.status !== 200) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  return cookieFrom(response);
}

async function signIn(t: TestApp, email: string, password: string) {
  return t.request('/api/auth/sign-in/email', { body: { email, password }, headers: { 'x-forwarded-for': freshIp() } });
}

/** The checkout cookie create-checkout set in the buyer's browser, per session. */
const checkoutCookies = new Map<string, string>();
/** The buyer's own browser: its checkout cookie, plus a member's session cookie when given. */
const buyerBrowser = (sessionId: unknown, cookie?: string) =>
  [typeof sessionId === 'string' ? checkoutCookies.get(sessionId) : undefined, cookie].filter(Boolean).join('; ') || undefined;

/** Starts a checkout as a signed-out visitor; the buyer types the e-mail on the provider's page. */
async function startCheckout(t: TestApp, planType: PlanType = 'monthly', cookie?: string): Promise<string> {
  const response = await t.request('/api/create-checkout', {
    body: { planType, customerEmail: null, fbc: null, fbp: null, userAgent: 'vitest', originPage: '/' },
    // each from an address of its own: the anonymous-checkout limit is not what this suite tests
    headers: { 'x-forwarded-for': freshIp() },
    ...(cookie ? { cookie } : {}),
  });
  if (response.status !== 200) throw new Error(`checkout failed: ${response.status} ${await response.text()}`);
  const { sessionId } = (await response.json()) as { sessionId: string };
  checkoutCookies.set(sessionId, cookieFrom(response));
  return sessionId;
}

/** Pays a checkout on the sandbox's hosted page with Stripe's always-succeeding test card. */
async function pay(t: TestApp, sessionId: string, email: string | null): Promise<void> {
  const response = await t.request(`/api/sandbox/checkout/${sessionId}/pay`, {
    body: { email, cardNumber: '4242 4242 4242 4242', expiry: '12/40', cvc: '123', name: 'Test Buyer' },
  });
  if (response.status !== 200) throw new Error(`payment failed: ${response.status} ${await response.text()}`);
}

async function buy(t: TestApp, email: string, planType: PlanType = 'monthly'): Promise<string> {
  const sessionId = await startCheckout(t, planType);
  await pay(t, sessionId, email);
  return sessionId;
}

async function details(t: TestApp, sessionId: string, cookie?: string) {
  const browser = buyerBrowser(sessionId, cookie);
  const response = await t.request('/api/get-payment-details', { body: { sessionId }, ...(browser ? { cookie: browser } : {}) });
  expect(response.status).toBe(200);
  return (await response.json()) as { email: string; planType: string; amountTotal: number; currency: string; userStatus: string; emailProven: boolean };
}

/** verify-payment from the buyer's own browser (the one that started the checkout). */
const verify = (t: TestApp, body: { sessionId?: unknown } & Record<string, unknown>, headers: Record<string, string> = {}) => {
  const browser = buyerBrowser(body.sessionId);
  return t.request('/api/verify-payment', { body, headers, ...(browser ? { cookie: browser } : {}) });
};

/** activate-existing-subscription from the buyer's own browser, signed in with `cookie` when given. */
const activate = (t: TestApp, cookie: string | undefined, body: { sessionId?: unknown } & Record<string, unknown>) => {
  const browser = buyerBrowser(body.sessionId, cookie);
  return t.request('/api/activate-existing-subscription', { body, ...(browser ? { cookie: browser } : {}) });
};

/** activate-existing-subscription from a browser that did not start the checkout. */
const activateElsewhere = (t: TestApp, cookie: string, body: Record<string, unknown>) => t.request('/api/activate-existing-subscription', { body, cookie });

async function errorOf(response: Response) {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, code: body.error.code, message: body.error.message };
}

async function sessionUser(t: TestApp, cookie: string): Promise<{ email: string } | null> {
  const response = await t.request('/api/auth/get-session', { cookie });
  const body = (await response.json()) as { user: { email: string } } | null;
  return body?.user ?? null;
}

async function hasAccess(t: TestApp, cookie: string): Promise<boolean> {
  const response = await t.request('/api/access', { cookie });
  return ((await response.json()) as { hasAccess: boolean }).hasAccess;
}

async function accountCount(t: TestApp, email: string): Promise<number> {
  return (await t.deps.database.db.select({ id: user.id }).from(user).where(eq(user.email, email))).length;
}

async function claimedBy(t: TestApp, sessionId: string): Promise<string | null> {
  const [row] = await t.deps.database.db.select({ by: checkoutSessions.claimedByUserId }).from(checkoutSessions).where(eq(checkoutSessions.id, sessionId));
  return row?.by ?? null;
}

async function userIdOf(t: TestApp, email: string): Promise<string> {
  const [row] = await t.deps.database.db.select({ id: user.id }).from(user).where(eq(user.email, email));
  if (!row) throw new Error(`no account for ${email}`);
  return row.id;
}

async function tradingViewStatus(t: TestApp, cookie: string) {
  const response = await t.request('/api/tradingview/status', { cookie });
  expect(response.status).toBe(200);
  return (await response.json()) as { username: string | null };
}

async function grantsOf(t: TestApp, userId: string) {
  return t.deps.database.db.select().from(tradingviewGrants).where(eq(tradingviewGrants.userId, userId));
}

describe('whoever holds the session id cannot take the purchase', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const strangerVerify = (sessionId: string, extra: Record<string, unknown> = {}, cookie?: string) =>
    t.request('/api/verify-payment', { body: { sessionId, password: 'stranger-pass-1', ...extra }, ...(cookie ? { cookie } : {}) });
  const strangerDetails = (sessionId: string, extra: Record<string, unknown> = {}, cookie?: string) =>
    t.request('/api/get-payment-details', { body: { sessionId, ...extra }, ...(cookie ? { cookie } : {}) });

  it('another browser sees a masked e-mail and no user id, and cannot create the account', async () => {
    const email = newEmail('victim');
    const sessionId = await buy(t, email);

    const seen = await strangerDetails(sessionId);
    expect(seen.status).toBe(200);
    const body = (await seen.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ email: `v***@example.com`, userStatus: 'new', emailProven: false });
    expect(body).not.toHaveProperty('existingUserId');
    expect(JSON.stringify(body)).not.toContain(email);

    expect(await errorOf(await strangerVerify(sessionId))).toMatchObject({ status: 403, code: 'purchase_unproven' });
    // another checkout's cookie, a forged token and an expired genuine one prove nothing either
    const otherSession = await startCheckout(t);
    expect((await strangerVerify(sessionId, {}, checkoutCookies.get(otherSession))).status).toBe(403);
    expect((await strangerVerify(sessionId, { proof: '9999999999.forgedforgedforgedforgedforgedforg' })).status).toBe(403);
    const expired = t.deps.checkoutProofs.mailToken(sessionId, new Date(Date.now() - 8 * 24 * 60 * 60 * 1000));
    expect((await strangerVerify(sessionId, { proof: expired })).status).toBe(403);
    expect((await strangerVerify(sessionId, { proof: t.deps.checkoutProofs.mailToken(otherSession, new Date()) })).status).toBe(403);

    expect(await accountCount(t, email)).toBe(0);
    expect(await claimedBy(t, sessionId)).toBeNull();

    // the buyer's own browser still sees everything and creates the account
    expect(await details(t, sessionId)).toMatchObject({ email, emailProven: true });
    expect((await verify(t, { sessionId, password: PASSWORD })).status).toBe(200);
  });

  it("an existing member's details show a masked e-mail and no user id to a stranger", async () => {
    const email = newEmail('member-victim');
    await signUp(t, email);
    const sessionId = await buy(t, email);
    const body = (await (await strangerDetails(sessionId)).json()) as Record<string, unknown>;
    expect(body).toMatchObject({ userStatus: 'existing_needs_login', emailProven: false, email: 'm***@example.com' });
    expect(body).not.toHaveProperty('existingUserId');
  });

  it('the mailed link proves the e-mail in a new browser: details, then the account, once', async () => {
    const email = newEmail('mailed');
    const sessionId = await buy(t, email);
    const proof = t.deps.checkoutProofs.mailToken(sessionId, new Date());

    const opened = await strangerDetails(sessionId, { proof });
    expect(await opened.clone().json()).toMatchObject({ email, emailProven: true, userStatus: 'new' });
    // the link also marks that browser, so the rest of the flow needs no token
    const browser = cookieFrom(opened);
    const created = await strangerVerify(sessionId, {}, browser);
    expect(created.status).toBe(200);
    expect(await accountCount(t, email)).toBe(1);
    // single use for account creation: the same link with another password makes no second account
    expect(await errorOf(await strangerVerify(sessionId, { proof, password: 'another-pass-1' }))).toMatchObject({ status: 409, code: 'session_claimed' });
    expect(await accountCount(t, email)).toBe(1);

    // the page's next call, the username, needs no token there: the link marked the browser
    const signedIn = [browser, cookieFrom(created)].join('; ');
    expect((await activateElsewhere(t, signedIn, { sessionId, tradingviewUsername: 'mailed_trader' })).status).toBe(200);
    expect(await tradingViewStatus(t, signedIn)).toMatchObject({ username: 'mailed_trader' });
  });

  it('a member who paid signed out links the purchase in another browser with the mailed link, not without it', async () => {
    const email = newEmail('member-elsewhere');
    await signUp(t, email, 'Member1234!');
    const sessionId = await buy(t, email);
    const elsewhere = cookieFrom(await signIn(t, email, 'Member1234!'));

    expect(await errorOf(await activateElsewhere(t, elsewhere, { sessionId }))).toMatchObject({ status: 403, code: 'purchase_unproven' });
    expect(await claimedBy(t, sessionId)).toBeNull();

    const proof = t.deps.checkoutProofs.mailToken(sessionId, new Date());
    const linked = await activateElsewhere(t, elsewhere, { sessionId, proof, tradingviewUsername: 'member_elsewhere' });
    expect(linked.status).toBe(200);
    expect(await claimedBy(t, sessionId)).toBe(await userIdOf(t, email));
    expect(await hasAccess(t, elsewhere)).toBe(true);
  });

  it('a purchase already linked to the account gets its username in any of its browsers', async () => {
    const email = newEmail('linked');
    const sessionId = await buy(t, email);
    expect((await verify(t, { sessionId, password: PASSWORD })).status).toBe(200);

    // another device, after signing in there (no checkout cookie, no mailed link)
    const device = cookieFrom(await signIn(t, email, PASSWORD));
    expect((await activateElsewhere(t, device, { sessionId, tradingviewUsername: 'second_device' })).status).toBe(200);
    expect(await tradingViewStatus(t, device)).toMatchObject({ username: 'second_device' });
  });
});

describe('after payment', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SANDBOX_TRADINGVIEW_MISSING_USERNAMES: 'ghost_trader' }, { passwordHashing: countedScrypt });
  });
  afterAll(async () => {
    await t.close();
  });

  describe('a buyer without an account (userStatus new)', () => {
    it('gets an account for the paid e-mail, is signed in, owns the purchase and is asked for a username next', async () => {
      const email = newEmail('new-buyer');
      const sessionId = await buy(t, email);
      expect(await details(t, sessionId)).toMatchObject({ email, planType: 'monthly', userStatus: 'new', amountTotal: 3600, currency: 'usd' });

      scrypt.calls = 0;
      const response = await verify(t, { sessionId, password: PASSWORD });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ email, signedIn: true });
      // the account's hash is made once; the sign-in that follows does not hash the password again
      expect(scrypt.calls).toBe(1);
      const cookie = cookieFrom(response);
      expect(cookie).not.toBe('');

      expect(await sessionUser(t, cookie)).toMatchObject({ email });
      expect(await hasAccess(t, cookie)).toBe(true);
      expect(await claimedBy(t, sessionId)).toBe(await userIdOf(t, email));
      expect((await details(t, sessionId, cookie)).userStatus).toBe('new_needs_tv');

      // The chosen password works for later sign-ins (checked with scrypt), and no other does.
      scrypt.calls = 0;
      expect((await signIn(t, email, PASSWORD)).status).toBe(200);
      expect(scrypt.calls).toBe(1);
      expect((await signIn(t, email, 'not-the-password')).status).toBe(401);
    });

    it('then activates TradingView with a username: stored on the subscription and the grant scheduled', async () => {
      const email = newEmail('new-tv');
      const sessionId = await buy(t, email);
      const cookie = cookieFrom(await verify(t, { sessionId, password: PASSWORD }));

      const response = await activate(t, cookie, { sessionId, tradingviewUsername: ' Chart_Wizard ' });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ success: true, signedIn: true });

      expect((await tradingViewStatus(t, cookie)).username).toBe('Chart_Wizard');
      const userId = await userIdOf(t, email);
      expect(await grantsOf(t, userId)).toEqual([expect.objectContaining({ username: 'Chart_Wizard', desired: 'grant' })]);
      expect((await details(t, sessionId, cookie)).userStatus).toBe('existing_complete');
    });

    it('creates the account for the e-mail that paid, never for one named in the request', async () => {
      const paid = newEmail('payer');
      const other = newEmail('someone-else');
      const sessionId = await buy(t, paid);

      const response = await verify(t, { sessionId, password: PASSWORD, email: other });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ email: paid, signedIn: true });
      expect(await accountCount(t, paid)).toBe(1);
      expect(await accountCount(t, other)).toBe(0);
    });

    it('refuses a second account creation with the same session', async () => {
      const email = newEmail('twice');
      const sessionId = await buy(t, email);
      expect((await verify(t, { sessionId, password: PASSWORD })).status).toBe(200);

      const again = await verify(t, { sessionId, password: 'another-password' });
      expect(await errorOf(again)).toMatchObject({ status: 409, code: 'session_claimed' });
      expect(again.headers.getSetCookie()).toEqual([]);
      // The first password still stands.
      expect((await signIn(t, email, 'another-password')).status).toBe(401);
      expect((await signIn(t, email, PASSWORD)).status).toBe(200);
    });

    it('creates one account when two tabs submit at the same moment', async () => {
      const email = newEmail('two-tabs');
      const sessionId = await buy(t, email);
      const responses = await Promise.all([verify(t, { sessionId, password: PASSWORD }), verify(t, { sessionId, password: 'other-password' })]);
      expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
      expect(await accountCount(t, email)).toBe(1);
      expect(await claimedBy(t, sessionId)).toBe(await userIdOf(t, email));
    });

    it("finishes on the buyer's retry when the first try made the account and died before the claim", async () => {
      const email = newEmail('died-before-claim');
      const sessionId = await buy(t, email);
      // what the first try left behind: the account with the buyer's password, the purchase unclaimed
      const userId = await createPasswordAccount(t.deps.auth, t.deps.logger, { email, password: PASSWORD, emailVerified: false });
      expect((await details(t, sessionId)).userStatus).toBe('existing_needs_login');

      expect(await errorOf(await verify(t, { sessionId, password: 'not-the-password' }))).toMatchObject({ status: 409, code: 'user_exists' });
      expect(await claimedBy(t, sessionId)).toBeNull();

      const retried = await verify(t, { sessionId, password: PASSWORD });
      expect(retried.status).toBe(200);
      expect(await retried.json()).toEqual({ email, signedIn: true });
      expect(await claimedBy(t, sessionId)).toBe(userId);
      expect(await accountCount(t, email)).toBe(1);
      expect(await hasAccess(t, cookieFrom(retried))).toBe(true);
    });

    it('signs the buyer in again on a retry with the same password when the answer to the claim was lost', async () => {
      const email = newEmail('answer-lost');
      const sessionId = await buy(t, email);
      expect((await verify(t, { sessionId, password: PASSWORD })).status).toBe(200);

      const retried = await verify(t, { sessionId, password: PASSWORD });
      expect(retried.status).toBe(200);
      expect(await retried.json()).toEqual({ email, signedIn: true });
      expect(await sessionUser(t, cookieFrom(retried))).toMatchObject({ email });
      expect(await accountCount(t, email)).toBe(1);
      expect(await claimedBy(t, sessionId)).toBe(await userIdOf(t, email));
    });

    it('two tabs submitting the same password at the same moment both end signed in to one account', async () => {
      const email = newEmail('two-tabs-same');
      const sessionId = await buy(t, email);
      const responses = await Promise.all([verify(t, { sessionId, password: PASSWORD }), verify(t, { sessionId, password: PASSWORD })]);
      expect(responses.map((response) => response.status)).toEqual([200, 200]);
      expect(await accountCount(t, email)).toBe(1);
      expect(await claimedBy(t, sessionId)).toBe(await userIdOf(t, email));
    });

    it('never takes an account that proved its address by its password alone: its owner signs in', async () => {
      const email = newEmail('proven-owner');
      await signUp(t, email, 'Own3rSecret!');
      await t.deps.database.db.update(user).set({ emailVerified: true }).where(eq(user.email, email));
      const sessionId = await buy(t, email);

      const response = await verify(t, { sessionId, password: 'Own3rSecret!' });
      expect(await errorOf(response)).toMatchObject({ status: 409, code: 'user_exists' });
      expect(response.headers.getSetCookie()).toEqual([]);
      expect(await claimedBy(t, sessionId)).toBeNull();
    });

    it('refuses when the paid e-mail already has an account, leaving the purchase for its owner', async () => {
      const email = newEmail('has-account');
      await signUp(t, email);
      const sessionId = await buy(t, email);
      expect((await details(t, sessionId)).userStatus).toBe('existing_needs_login');

      const response = await verify(t, { sessionId, password: PASSWORD });
      expect(await errorOf(response)).toMatchObject({ status: 409, code: 'user_exists' });
      expect(response.headers.getSetCookie()).toEqual([]);
      expect(await claimedBy(t, sessionId)).toBeNull();
      expect((await signIn(t, email, PASSWORD)).status).toBe(401);
    });

    it('refuses a password shorter than 8 characters and creates nothing', async () => {
      const email = newEmail('short');
      const sessionId = await buy(t, email);
      const response = await verify(t, { sessionId, password: 'short7!' });
      expect(await errorOf(response)).toEqual({ status: 400, code: 'weak_password', message: 'Password must be at least 8 characters long.' });
      expect(await accountCount(t, email)).toBe(0);
      expect(await claimedBy(t, sessionId)).toBeNull();
    });

    it('refuses an unpaid session', async () => {
      const sessionId = await startCheckout(t);
      expect(await errorOf(await verify(t, { sessionId, password: PASSWORD }))).toMatchObject({ status: 409, code: 'session_not_paid' });
    });

    it('refuses an unknown session, without telling a stranger whether it exists', async () => {
      expect(await errorOf(await verify(t, { sessionId: 'cs_sbx_doesnotexist', password: PASSWORD }))).toMatchObject({ status: 403, code: 'purchase_unproven' });
      const proof = t.deps.checkoutProofs.mailToken('cs_sbx_doesnotexist', new Date());
      expect(await errorOf(await verify(t, { sessionId: 'cs_sbx_doesnotexist', password: PASSWORD, proof }))).toMatchObject({ status: 404, code: 'session_not_found' });
    });

    it('answers 400 without a session id or with a malformed body', async () => {
      expect(await errorOf(await verify(t, { password: PASSWORD }))).toMatchObject({ status: 400, code: 'validation_failed', message: 'Missing payment session information.' });
      expect(await errorOf(await t.request('/api/verify-payment', { body: '{not json' }))).toMatchObject({ status: 400, code: 'invalid_json' });
    });

    it("refuses another site's form post", async () => {
      const email = newEmail('csrf');
      const sessionId = await buy(t, email);
      const response = await t.request('/api/verify-payment', {
        body: JSON.stringify({ sessionId, password: PASSWORD }),
        headers: { origin: 'https://evil.example', 'content-type': 'text/plain' },
      });
      expect(response.status).toBe(403);
      expect(await accountCount(t, email)).toBe(0);
    });
  });

  describe('a buyer with an account', () => {
    it('signed out: existing_needs_login, then after signing in existing_needs_tv, then activation with a username', async () => {
      const email = newEmail('returning');
      await signUp(t, email, 'Returning1!');
      const sessionId = await buy(t, email);
      expect((await details(t, sessionId)).userStatus).toBe('existing_needs_login');

      const login = await signIn(t, email, 'Returning1!');
      expect(login.status).toBe(200);
      const cookie = cookieFrom(login);
      expect((await details(t, sessionId, cookie)).userStatus).toBe('existing_needs_tv');
      expect(await hasAccess(t, cookie)).toBe(false);

      const response = await activate(t, cookie, { sessionId, tradingviewUsername: 'returning_trader' });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ success: true, signedIn: true });
      expect(await hasAccess(t, cookie)).toBe(true);
      expect(await claimedBy(t, sessionId)).toBe(await userIdOf(t, email));
      expect((await tradingViewStatus(t, cookie)).username).toBe('returning_trader');
      expect(await grantsOf(t, await userIdOf(t, email))).toEqual([expect.objectContaining({ username: 'returning_trader', desired: 'grant' })]);
    });

    it('with a username on file (existing_complete): activation without a username links the purchase and keeps the username', async () => {
      const email = newEmail('complete');
      const first = await buy(t, email);
      const cookie = cookieFrom(await verify(t, { sessionId: first, password: PASSWORD }));
      expect((await activate(t, cookie, { sessionId: first, tradingviewUsername: 'loyal_trader' })).status).toBe(200);

      // A second purchase (e.g. lifetime) while signed in with the same e-mail.
      const second = await startCheckout(t, 'lifetime', cookie);
      await pay(t, second, email);
      expect((await details(t, second, cookie)).userStatus).toBe('existing_complete');

      const response = await activate(t, cookie, { sessionId: second });
      expect(response.status).toBe(200);
      const userId = await userIdOf(t, email);
      expect(await claimedBy(t, second)).toBe(userId);
      const rows = await t.deps.database.db.select().from(userSubscriptions).where(eq(userSubscriptions.userId, userId));
      expect(rows.map((row) => row.planType).sort()).toEqual(['lifetime', 'monthly']);
      // the username is the member's (not a row's), kept for both purchases
      expect(await usernameHistory(t.deps.database.db, userId)).toEqual([{ username: 'loyal_trader', linkedAt: expect.any(Date), replacedAt: null }]);
      expect((await tradingViewStatus(t, cookie)).username).toBe('loyal_trader');
      expect(await grantsOf(t, userId)).toEqual([expect.objectContaining({ username: 'loyal_trader', desired: 'grant' })]);
    });

    it('is idempotent for the owner: activating the same session again succeeds and changes nothing', async () => {
      const email = newEmail('again');
      await signUp(t, email, 'Again1234!');
      const sessionId = await buy(t, email);
      const cookie = cookieFrom(await signIn(t, email, 'Again1234!'));
      expect((await activate(t, cookie, { sessionId, tradingviewUsername: 'steady_hand' })).status).toBe(200);
      expect((await activate(t, cookie, { sessionId, tradingviewUsername: 'steady_hand' })).status).toBe(200);
      expect((await activate(t, cookie, { sessionId })).status).toBe(200);
      const userId = await userIdOf(t, email);
      expect(await claimedBy(t, sessionId)).toBe(userId);
      expect(await grantsOf(t, userId)).toHaveLength(1);
    });

    it("refuses another account's purchase (another e-mail), and the owner can still claim it", async () => {
      const owner = newEmail('owner');
      const intruder = newEmail('intruder');
      await signUp(t, owner, 'Owner1234!');
      const intruderCookie = await signUp(t, intruder);
      const sessionId = await buy(t, owner);

      expect(await errorOf(await activateElsewhere(t, intruderCookie, { sessionId, tradingviewUsername: 'thief' }))).toMatchObject({ status: 403, code: 'purchase_unproven' });
      // even from the browser that paid (a shared computer), the purchase goes only to its e-mail's account
      const response = await activate(t, intruderCookie, { sessionId, tradingviewUsername: 'thief' });
      expect(await errorOf(response)).toMatchObject({ status: 403, code: 'email_mismatch' });
      expect(await claimedBy(t, sessionId)).toBeNull();
      expect(await hasAccess(t, intruderCookie)).toBe(false);

      const ownerCookie = cookieFrom(await signIn(t, owner, 'Owner1234!'));
      expect((await activate(t, ownerCookie, { sessionId })).status).toBe(200);
      expect(await claimedBy(t, sessionId)).toBe(await userIdOf(t, owner));
    });

    it('refuses a session already claimed by another account', async () => {
      const email = newEmail('claimed');
      const sessionId = await buy(t, email);
      expect((await verify(t, { sessionId, password: PASSWORD })).status).toBe(200);
      const other = await signUp(t, newEmail('latecomer'));
      expect(await errorOf(await activate(t, other, { sessionId }))).toMatchObject({ status: 409, code: 'session_claimed' });
    });

    it('needs a signed-in user', async () => {
      const sessionId = await buy(t, newEmail('anonymous'));
      expect(await errorOf(await activate(t, undefined, { sessionId }))).toMatchObject({ status: 401, code: 'unauthorized' });
      expect(await claimedBy(t, sessionId)).toBeNull();
    });

    it('refuses unpaid and unknown sessions', async () => {
      const email = newEmail('unpaid');
      const cookie = await signUp(t, email);
      const unpaid = await startCheckout(t, 'monthly', cookie);
      expect(await errorOf(await activate(t, cookie, { sessionId: unpaid }))).toMatchObject({ status: 409, code: 'session_not_paid' });
      expect(await errorOf(await activate(t, cookie, { sessionId: 'cs_sbx_unknown' }))).toMatchObject({ status: 404, code: 'session_not_found' });
      expect(await hasAccess(t, cookie)).toBe(false);
    });

    it('answers tv_username_not_found for a username TradingView does not know, and stores nothing', async () => {
      const email = newEmail('ghost');
      const sessionId = await buy(t, email);
      const cookie = cookieFrom(await verify(t, { sessionId, password: PASSWORD }));
      const response = await activate(t, cookie, { sessionId, tradingviewUsername: 'ghost_trader' });
      expect(await errorOf(response)).toMatchObject({ status: 422, code: 'tv_username_not_found' });
      expect((await tradingViewStatus(t, cookie)).username).toBeNull();
      expect(await grantsOf(t, await userIdOf(t, email))).toEqual([]);
    });

    it('refuses a username TradingView could never have, with the validation message', async () => {
      const email = newEmail('badname');
      const sessionId = await buy(t, email);
      const cookie = cookieFrom(await verify(t, { sessionId, password: PASSWORD }));
      expect(await errorOf(await activate(t, cookie, { sessionId, tradingviewUsername: 'has spaces!' }))).toMatchObject({
        status: 400,
        code: 'validation_failed',
        message: 'TradingView usernames contain only letters, numbers, underscores (_) and hyphens (-).',
      });
      expect(await errorOf(await activate(t, cookie, { sessionId, tradingviewUsername: '   ' }))).toMatchObject({
        status: 400,
        message: 'Please enter your TradingView username.',
      });
    });
  });
});

describe('account creation after payment while public registration is disabled', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_REGISTRATION_DISABLED: 'true' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('still creates the paying buyer’s account and signs them in', async () => {
    const refused = await t.request('/api/auth/sign-up/email', { body: { email: 'walk-in@example.com', password: 'Sup3rSecret!', name: 'x' } });
    expect(refused.status).toBe(403);

    const email = 'paid-while-closed@example.com';
    const sessionId = await buy(t, email);
    const response = await verify(t, { sessionId, password: PASSWORD });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ email, signedIn: true });
    expect(await sessionUser(t, cookieFrom(response))).toMatchObject({ email });
  });
});

describe('account creation after payment while e-mail confirmation is required', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_REQUIRE_EMAIL_VERIFICATION: 'true' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates the account and links the purchase but does not sign in (the buyer logs in manually)', async () => {
    const email = 'confirm-first@example.com';
    const sessionId = await buy(t, email);
    const response = await verify(t, { sessionId, password: PASSWORD });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ email, signedIn: false });
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(await accountCount(t, email)).toBe(1);
    expect(await claimedBy(t, sessionId)).toBe(await userIdOf(t, email));
  });
});
