// Becoming an operator without proof, tried as an attacker would against the real app in
// production mode: signing up with the operator's address, or buying with it and letting the
// payment page make the account. Naming an address (ADMIN_EMAILS) must open nothing until its
// owner proves it; where two-factor is required, every sign-in that opens the console passes it.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_SESSION_HOURS } from '@shared/operator-standing';
import { runAdminCommand } from '../admin-cli/admin-command';
import { operatorAuditLog, twoFactor, user } from '../db/schema';
import { buy, buyerBrowser, movableClock, signUp } from '../test-support/billing-test-kit';
import { cookieFrom, createTestApp, operatorSession, type TestApp } from '../test-support/test-app';
import { totpCode } from '../test-support/totp';

const OPERATOR = 'ops@example.com';
const PASSWORD = 'Sup3rSecret!';
const time = movableClock();
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ NODE_ENV: 'production', ADMIN_EMAILS: OPERATOR }, { clock: time.clock });
});
afterAll(async () => {
  await t.close();
});

const standing = async (cookie: string) => ((await (await t.request('/api/operator', { cookie })).json()) as { standing: string }).standing;

/** What an operator's session opens: the console's API and the outbox of every reset link. */
async function reach(cookie: string) {
  return {
    console: (await t.request('/api/admin/overview', { cookie })).status,
    mailbox: (await t.request('/api/sandbox/mailbox', { cookie })).status,
    standing: await standing(cookie),
  };
}

/** The one-time link `npm run admin -- add` prints: proof of control of the server. */
async function invitationToken(email: string): Promise<string> {
  const { output } = await runAdminCommand({ db: t.deps.database.db, config: t.deps.config, clock: t.deps.clock }, ['add', email]);
  return new URL(/https?:\/\/\S+/.exec(output)![0]).searchParams.get('token')!;
}

async function signInWithPassword(email: string, password: string) {
  return t.request('/api/auth/sign-in/email', { body: { email, password }, headers: { 'x-forwarded-for': '198.18.0.9' } });
}

describe('a stranger with the operator address', () => {
  it('signs up with it and is not an operator: no console, no outbox', async () => {
    const squatter = await signUp(t, OPERATOR, PASSWORD);
    expect(await reach(squatter)).toEqual({ console: 403, mailbox: 403, standing: 'confirm_email' });
  });

  it('buys with it and lets the payment page make the account: signed in, still not an operator', async () => {
    const address = 'second-ops@example.com';
    await runAdminCommand({ db: t.deps.database.db, config: t.deps.config, clock: t.deps.clock }, ['add', address]);
    const sessionId = await buy(t, address);
    const made = await t.request('/api/verify-payment', { body: { sessionId, password: PASSWORD }, cookie: buyerBrowser(sessionId) });
    expect(made.status, await made.clone().text()).toBe(200);
    expect(await made.json()).toMatchObject({ signedIn: true });
    expect(await reach(cookieFrom(made))).toEqual({ console: 403, mailbox: 403, standing: 'confirm_email' });
  });

  it('loses the squatted account, its sessions and its authenticator when the owner accepts an invitation', async () => {
    const address = 'third-ops@example.com';
    const squatter = await signUp(t, address, PASSWORD);
    // the stranger even sets up two-factor, hoping to lock the owner out
    const enabled = await t.request('/api/auth/two-factor/enable', { cookie: squatter, body: { password: PASSWORD } });
    expect(enabled.status).toBe(200);
    const token = await invitationToken(address);

    const accepted = await t.request('/api/operator-invitations/accept', { body: { token, password: 'Owner-Pass-1' } });
    expect(await accepted.clone().json()).toEqual({ email: address, signedIn: true });
    expect((await t.request('/api/auth/get-session', { cookie: squatter }).then((response) => response.json())) as unknown).toBeNull();
    expect(await signInWithPassword(address, PASSWORD).then((response) => response.status)).toBe(401);
    const [account] = await t.deps.database.db.select({ id: user.id, emailVerified: user.emailVerified, twoFactorEnabled: user.twoFactorEnabled }).from(user).where(eq(user.email, address));
    expect(account).toMatchObject({ emailVerified: true, twoFactorEnabled: false });
    expect(await t.deps.database.db.select().from(twoFactor).where(eq(twoFactor.userId, account!.id))).toEqual([]);
    // proven now, and production requires two-factor before the console opens
    expect(await reach(cookieFrom(accepted))).toEqual({ console: 403, mailbox: 403, standing: 'enrol_two_factor' });
  });

  it('cannot use an invitation twice, or one past its 24 hours', async () => {
    const token = await invitationToken('fourth-ops@example.com');
    expect((await t.request('/api/operator-invitations/accept', { body: { token, password: 'Owner-Pass-1' } })).status).toBe(200);
    expect((await t.request('/api/operator-invitations/accept', { body: { token, password: 'Thief-Pass-1' } })).status).toBe(404);

    const late = await invitationToken('fifth-ops@example.com');
    time.advance(24 * 3_600_000 + 1000);
    try {
      expect((await t.request(`/api/operator-invitations/${late}`)).status).toBe(404);
      expect((await t.request('/api/operator-invitations/accept', { body: { token: late, password: 'Owner-Pass-1' } })).status).toBe(404);
    } finally {
      time.set(new Date());
    }
  });
});

describe('the operator, proven and with two-factor', () => {
  let totpSecret: string;
  let cookie: string;
  beforeAll(async () => {
    ({ cookie, totpSecret } = (await operatorSession(t, OPERATOR, { password: PASSWORD, twoFactor: true })) as { cookie: string; totpSecret: string });
  });

  it('reaches the console and the outbox', async () => {
    expect(await reach(cookie)).toEqual({ console: 200, mailbox: 200, standing: 'operator' });
  });

  it('signs in with the password and then the code; the password alone opens nothing', async () => {
    const first = await signInWithPassword(OPERATOR, PASSWORD);
    expect(await first.clone().json()).toMatchObject({ twoFactorRedirect: true });
    const halfway = cookieFrom(first);
    expect(await t.request('/api/auth/get-session', { cookie: halfway }).then((response) => response.json())).toBeNull();
    const wrong = await t.request('/api/auth/two-factor/verify-totp', { cookie: halfway, body: { code: totpCode(totpSecret, new Date(Date.now() - 10 * 60_000)) } });
    expect(wrong.status).toBe(401);
    const verified = await t.request('/api/auth/two-factor/verify-totp', { cookie: halfway, body: { code: totpCode(totpSecret) } });
    expect(verified.status).toBe(200);
    expect(await reach(cookieFrom(verified))).toEqual({ console: 200, mailbox: 200, standing: 'operator' });
  });

  it('a session made by a password reset (a mailed link, no second factor) does not open the console', async () => {
    const requested = await t.request('/api/auth/request-password-reset', { body: { email: OPERATOR, redirectTo: '/reset-password' }, headers: { 'x-forwarded-for': '198.18.0.10' } });
    expect(requested.status).toBe(200);
    // the reset mail is queued in the background, so that the answer takes as long with or without an account
    const resetMail = () => t.mails.findLast((mail) => mail.to === OPERATOR && mail.text.includes('reset-password?token='));
    await expect.poll(async () => (await t.deps.mailer.runOnce(), resetMail()), { timeout: 45_000 }).toBeDefined();
    const link = resetMail()!.text;
    const token = /reset-password\?token=([\w-]+)/.exec(link)![1]!;
    const reset = await t.request('/api/auth/reset-password', { body: { token, newPassword: PASSWORD } });
    expect(reset.status).toBe(200);
    expect(await reach(cookieFrom(reset))).toEqual({ console: 403, mailbox: 403, standing: 'sign_in_again' });
  });

  it(`holds the console for ${OPERATOR_SESSION_HOURS} hours from a sign-in, then asks for a new one`, async () => {
    const first = await signInWithPassword(OPERATOR, PASSWORD);
    const fresh = cookieFrom(await t.request('/api/auth/two-factor/verify-totp', { cookie: cookieFrom(first), body: { code: totpCode(totpSecret) } }));
    time.advance(OPERATOR_SESSION_HOURS * 3_600_000 + 60_000);
    try {
      expect(await reach(fresh)).toEqual({ console: 403, mailbox: 403, standing: 'sign_in_again' });
    } finally {
      time.set(new Date());
    }
  });

  it('every sign-in of a named address is a line in the audit log, the squatters’ included', async () => {
    const lines = await t.deps.database.db
      .select({ details: operatorAuditLog.details })
      .from(operatorAuditLog)
      .where(and(eq(operatorAuditLog.action, 'operator_sign_in'), eq(operatorAuditLog.operatorEmail, OPERATOR)));
    const seen = lines.map((line) => [line.details.via, line.details.twoFactor, line.details.emailVerified]);
    expect(seen).toEqual(
      expect.arrayContaining([
        ['/sign-up/email', false, false],
        ['/two-factor/verify-totp', true, true],
        ['/reset-password', false, true],
      ]),
    );
    // one password sign-in: the invitation's, before two-factor was set up; the passwords that only
    // led to a code challenge made no session worth a line
    expect(seen.filter(([via]) => via === '/sign-in/email')).toEqual([['/sign-in/email', false, true]]);
  });
});
