// Taking someone's purchase with nothing but its session id, and learning who subscribes to what
// through checkout, tried as an attacker would against the real app: each must now be refused or
// answered alike, while the buyer's own ways to their purchase keep working.
import { and, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { user, verification } from '../db/schema';
import { maskEmail } from '../modules/billing/checkout-proof';
import { billingSuite, buy, buyerBrowser, checkoutBody, checkoutRow, payOnPage, rowsOfSession, rowsOfUser, signUp, userIdOf } from '../test-support/billing-test-kit';
import { cookieFrom, type TestApp } from '../test-support/test-app';

let t: TestApp;
const { email } = billingSuite((app) => (t = app));

const PASSWORD = 'Sup3rSecret!';
let visitors = 0;
/** A client address of its own per visitor, so that no throttle of one test reaches another. */
const visitor = () => `192.0.2.${++visitors}`;

const checkoutPage = (sessionId: string, cookie?: string) => t.request(`/api/sandbox/checkout/${sessionId}`, cookie ? { cookie } : {});
const paymentDetails = (sessionId: string, cookie?: string) => t.request('/api/get-payment-details', { body: { sessionId }, ...(cookie ? { cookie } : {}) });
const activate = (cookie: string, body: Record<string, unknown>) => t.request('/api/activate-existing-subscription', { body, cookie });

async function errorOf(response: Response) {
  const body = (await response.json()) as { error?: { code: string } };
  return { status: response.status, code: body.error?.code };
}

async function hasAccess(cookie: string): Promise<boolean> {
  return ((await (await t.request('/api/access', { cookie })).json()) as { hasAccess: boolean }).hasAccess;
}

async function accountIdOf(address: string): Promise<string> {
  const [row] = await t.deps.database.db.select({ id: user.id }).from(user).where(eq(user.email, address));
  if (!row) throw new Error(`no account for ${address}`);
  return row.id;
}

/** The owner of the mailbox resets the password of the account made with their address, and is signed in. */
async function takeAddressBack(address: string): Promise<string> {
  const requested = await t.request('/api/auth/request-password-reset', { body: { email: address }, headers: { 'x-forwarded-for': visitor() } });
  expect(requested.status).toBe(200);
  // The token the mailed link carries, read where better-auth keeps it rather than from the mail.
  const [row] = await t.deps.database.db
    .select({ identifier: verification.identifier })
    .from(verification)
    .where(and(like(verification.identifier, 'reset-password:%'), eq(verification.value, await accountIdOf(address))));
  if (!row) throw new Error(`no reset token for ${address}`);
  const reset = await t.request('/api/auth/reset-password', { body: { token: row.identifier.slice('reset-password:'.length), newPassword: 'Taken-Back-1' } });
  expect(reset.status).toBe(200);
  return cookieFrom(reset);
}

describe('a purchase taken with its session id', () => {
  it.each([
    ['signs up with the e-mail after reading the checkout page', 'after'],
    ['already has an account with the e-mail', 'before'],
  ] as const)('an attacker who %s cannot activate the purchase; its buyer still can', async (_, when) => {
    const buyerEmail = email('buyer');
    let attacker = when === 'before' ? await signUp(t, buyerEmail, PASSWORD) : '';
    const sessionId = await buy(t, buyerEmail);

    // The provider's page and the payment details show the stranger a masked e-mail only.
    const page = await checkoutPage(sessionId);
    expect(page.status).toBe(200);
    const pageText = await page.text();
    expect(JSON.parse(pageText)).toMatchObject({ id: sessionId, status: 'complete', customerEmail: maskEmail(buyerEmail) });
    expect(pageText).not.toContain(buyerEmail);
    expect(await (await paymentDetails(sessionId)).text()).not.toContain(buyerEmail);

    // Learnt elsewhere, the address makes an account at once (nothing confirms it).
    if (when === 'after') attacker = await signUp(t, buyerEmail, PASSWORD);
    expect(await errorOf(await activate(attacker, { sessionId }))).toEqual({ status: 403, code: 'purchase_unproven' });
    expect(await errorOf(await activate(attacker, { sessionId, tradingviewUsername: 'thief_trader' }))).toEqual({ status: 403, code: 'purchase_unproven' });
    const forged = `${Math.floor(Date.now() / 1000) + 3600}.forgedforgedforgedforgedforgedfo`;
    expect(await errorOf(await activate(attacker, { sessionId, proof: forged }))).toEqual({ status: 403, code: 'purchase_unproven' });
    expect((await checkoutRow(t, sessionId))?.claimedByUserId).toBeNull();
    expect(await rowsOfSession(t, sessionId)).toEqual([expect.objectContaining({ userId: null })]);
    expect(await hasAccess(attacker)).toBe(false);

    // The buyer takes the address back through their mailbox and links the purchase in the browser that paid.
    const buyer = await takeAddressBack(buyerEmail);
    const linked = await activate(buyerBrowser(sessionId, buyer), { sessionId, tradingviewUsername: `rightful_${when}` });
    expect(linked.status, await linked.clone().text()).toBe(200);
    expect((await checkoutRow(t, sessionId))?.claimedByUserId).toBe(await accountIdOf(buyerEmail));
    expect(await hasAccess(buyer)).toBe(true);
  });

  it('the browser that started the checkout sees the whole e-mail it gave; the mailed link proves it anywhere', async () => {
    const buyerEmail = email('fixed');
    const started = await t.request('/api/create-checkout', { body: checkoutBody({ customerEmail: buyerEmail }), headers: { 'x-forwarded-for': visitor() } });
    const { sessionId } = (await started.json()) as { sessionId: string };
    const browser = cookieFrom(started);
    expect((await (await checkoutPage(sessionId, browser)).json()).customerEmail).toBe(buyerEmail);
    expect((await (await checkoutPage(sessionId)).json()).customerEmail).toBe(maskEmail(buyerEmail));
    expect((await payOnPage(t, sessionId, null)).status).toBe(200);

    // A new browser, signed in as the paid e-mail, with the mailed link: the purchase is linked.
    const member = await signUp(t, buyerEmail, PASSWORD);
    expect(await errorOf(await activate(member, { sessionId }))).toEqual({ status: 403, code: 'purchase_unproven' });
    const proof = t.deps.checkoutProofs.mailToken(sessionId, new Date());
    expect((await activate(member, { sessionId, proof })).status).toBe(200);
    expect((await checkoutRow(t, sessionId))?.claimedByUserId).toBe(await userIdOf(t, member));
  });
});

describe('who subscribes to what, asked of an anonymous checkout', () => {
  /** A signed-in buyer of `planType`: the purchase is theirs at once. */
  async function memberOf(planType: 'monthly' | 'lifetime') {
    const address = email(`${planType}-member`);
    const cookie = await signUp(t, address, PASSWORD);
    await buy(t, address, { planType }, cookie);
    expect(await hasAccess(cookie)).toBe(true);
    return { email: address, cookie };
  }

  /** What an anonymous visitor learns from a monthly checkout naming `address`. */
  async function probe(address: string) {
    const response = await t.request('/api/create-checkout', { body: checkoutBody({ planType: 'monthly', customerEmail: address }), headers: { 'x-forwarded-for': visitor() } });
    const body = (await response.json()) as Record<string, unknown>;
    const sessionId = String(body.sessionId);
    const browser = cookieFrom(response);
    const seenThere = (await (await checkoutPage(sessionId, browser)).json()) as Record<string, unknown>;
    const seenElsewhere = (await (await checkoutPage(sessionId)).json()) as Record<string, unknown>;
    return {
      sessionId,
      browser,
      answer: {
        status: response.status,
        fields: Object.keys(body).sort(),
        url: String(body.url).replace(sessionId, ':id'),
        checkoutCookie: browser !== '',
        page: { ...seenThere, id: ':id', customerEmail: seenThere.customerEmail === address },
        pageElsewhere: { ...seenElsewhere, id: ':id', customerEmail: seenElsewhere.customerEmail === maskEmail(address) },
      },
    };
  }

  it("answers a member's e-mail exactly as an unknown one; the member's second plan is refunded after payment", async () => {
    const monthly = await memberOf('monthly');
    const lifetime = await memberOf('lifetime');
    const unknown = await probe(email('nobody'));
    expect(unknown.answer).toMatchObject({ status: 200, checkoutCookie: true, page: { customerEmail: true }, pageElsewhere: { customerEmail: true } });

    const ofMonthly = await probe(monthly.email);
    const ofLifetime = await probe(lifetime.email);
    expect(ofMonthly.answer).toEqual(unknown.answer);
    expect(ofLifetime.answer).toEqual(unknown.answer);

    // Whoever pays the member's e-mail a second plan gets it refunded, and the member keeps one plan.
    expect((await payOnPage(t, ofMonthly.sessionId, null)).status).toBe(200);
    expect(await errorOf(await paymentDetails(ofMonthly.sessionId, ofMonthly.browser))).toEqual({ status: 409, code: 'duplicate_payment' });
    expect(await rowsOfSession(t, ofMonthly.sessionId)).toEqual([expect.objectContaining({ isActive: false, userId: null, revokedReason: 'duplicate' })]);
    const active = (await rowsOfUser(t, await userIdOf(t, monthly.cookie))).filter((row) => row.isActive);
    expect(active.map((row) => row.planType)).toEqual(['monthly']);
  });

  it('still tells a signed-in member what they hold themselves', async () => {
    const monthly = await memberOf('monthly');
    const again = await t.request('/api/create-checkout', { body: checkoutBody({ planType: 'monthly' }), cookie: monthly.cookie });
    expect(await errorOf(again)).toEqual({ status: 409, code: 'subscription_exists' });
    const lifetime = await memberOf('lifetime');
    expect(await errorOf(await t.request('/api/create-checkout', { body: checkoutBody({ planType: 'monthly' }), cookie: lifetime.cookie }))).toEqual({ status: 409, code: 'lifetime_owned' });
  });

  it("sign-up names an existing account only within its rate limit: the 11th attempt from one address answers 429", async () => {
    const taken = email('taken');
    await signUp(t, taken, PASSWORD);
    const address = visitor();
    const attempt = () => t.request('/api/auth/sign-up/email', { body: { email: taken, password: 'Another-Pass-1', name: 'probe' }, headers: { 'x-forwarded-for': address } });

    for (let n = 1; n <= 10; n += 1) {
      const answer = await attempt();
      expect(answer.status).toBe(422);
      expect(((await answer.json()) as { code: string }).code).toMatch(/^USER_ALREADY_EXISTS/);
    }
    const eleventh = await attempt();
    expect(eleventh.status).toBe(429);
    expect((await eleventh.text()).toLowerCase()).not.toContain('exist');
  });
});
