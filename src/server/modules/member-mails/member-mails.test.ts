// Keeping members through the whole app on the sandbox provider (decision 056): churned-only
// promotion codes (refused to a buyer who never had access or still has it, hidden from the
// payment page), the console's mail switches with their clear 400s, the win-back mail once per
// churn with its unsubscribe link, the set-up reminders at growing intervals, and the switch of
// the checkout recovery mail.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { mailPreferencesSchema, mailSettingsSchema } from '@shared/member-mails-contract';
import type { PromotionItem } from '@shared/promotions-contract';
import { discordMembers, mailSettings, memberMailOptouts, operatorAuditLog, outbox, sandboxPromotionCodes, telegramMembers, userSubscriptions } from '../../db/schema';
import { consoleSuite, seedMember, type ConsoleSuite } from '../../test-support/admin-test-kit';
import { checkoutBody, DAY_MS, ordersOfSession, payOnPage, signUp, startCheckout, userIdOf } from '../../test-support/billing-test-kit';
import { listOutboxMails } from '../mail/outbox.repository';
import { linkUsername } from '../tradingview/tradingview.repository';
import { MEMBER_MAIL_ADMIN_ROUTES } from './member-mails.routes';

let suite: ConsoleSuite;
consoleSuite((value) => (suite = value));
const db = () => suite.t.deps.database.db;
const HOUR_MS = 60 * 60 * 1000;

const errorOf = async (response: Response) => [response.status, ((await response.json()) as { error: { message: string } }).error.message];

async function createCode(body: Record<string, unknown>): Promise<PromotionItem> {
  const response = await suite.t.request('/api/admin/promotion-codes', { body, cookie: suite.operator });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as PromotionItem;
}

/** A signed-in member whose only plan ended `endedAgoMs` ago (null: a member who never had one, 'active': one with access). */
async function signedInMember(state: { endedAgoMs: number } | 'never' | 'active') {
  const email = `winback-${randomUUID().slice(0, 8)}@example.com`;
  const cookie = await signUp(suite.t, email);
  const userId = await userIdOf(suite.t, cookie);
  if (state !== 'never') {
    const ended = state !== 'active';
    await db()
      .insert(userSubscriptions)
      .values({ userId, planType: 'monthly', provider: 'sandbox', status: ended ? 'canceled' : 'active', isActive: !ended, cancelAtPeriodEnd: ended, expiresAt: new Date(suite.time.now().getTime() + (ended ? -state.endedAgoMs : 30 * DAY_MS)) });
  }
  return { email, cookie, userId };
}

const putSettings = (body: unknown, cookie = suite.operator) => suite.t.request('/api/admin/mail-settings', { method: 'PUT', body, cookie });
const settings = async () => mailSettingsSchema.parse(await (await suite.t.request('/api/admin/mail-settings', { cookie: suite.operator })).json());
const mailsTo = async (email: string) => {
  await suite.t.deps.mailer.runOnce();
  return listOutboxMails(db(), { to: email });
};

describe('churned-only (win-back) promotion codes', () => {
  it('are created as such, and mirrored at the sandbox provider under a name no buyer can type', async () => {
    const code = await createCode({ code: 'BACK20', percentOff: 20, churnedOnly: true });
    expect(code).toMatchObject({ code: 'BACK20', churnedOnly: true, firstTimeOnly: false, provider: { state: 'mirrored' } });
    const [mirrored] = await db().select().from(sandboxPromotionCodes).where(eq(sandboxPromotionCodes.id, code.provider.promotionCodeId!));
    expect(mirrored!.code).toMatch(/^BACK20-[0-9A-F]{12}$/);
    const { sessionId } = await startCheckout(suite.t);
    expect(await errorOf(await suite.t.request(`/api/sandbox/checkout/${sessionId}/promotion-code`, { body: { code: 'BACK20' } }))).toEqual([400, 'The code BACK20 is not valid.']);
  });

  it('refuses first-time and churned-only together, with a clear 400', async () => {
    const response = await suite.t.request('/api/admin/promotion-codes', { body: { code: 'BOTH', percentOff: 10, firstTimeOnly: true, churnedOnly: true }, cookie: suite.operator });
    expect(await errorOf(response)).toEqual([400, 'A code is for first-time buyers or for members whose access ended, not both.']);
  });

  it('checkout refuses it to an anonymous buyer, a member who never had access and one who still has it; a churned member pays with it', async () => {
    // lifetime: a member with a monthly plan may still buy it, so the code is what refuses
    const body = checkoutBody({ planType: 'lifetime', promotionCode: 'back20' });
    const refused = 'The code BACK20 is for returning members only: it works once your access has ended.';
    expect(await errorOf(await suite.t.request('/api/create-checkout', { body: { ...body, customerEmail: 'someone@example.com' } }))).toEqual([400, 'The code BACK20 is for returning members only: sign in first, then choose your plan.']);
    for (const state of ['never', 'active'] as const) {
      const { cookie } = await signedInMember(state);
      expect(await errorOf(await suite.t.request('/api/create-checkout', { body, cookie })), state).toEqual([400, refused]);
    }
    const churned = await signedInMember({ endedAgoMs: 5 * DAY_MS });
    const { sessionId } = await startCheckout(suite.t, { promotionCode: 'back20' }, churned.cookie);
    const page = await suite.t.request(`/api/sandbox/checkout/${sessionId}`);
    // the provider's page names its hidden copy, as Stripe's would; our order names our code
    expect(await page.json()).toMatchObject({ amount: 3600, discount: { code: expect.stringMatching(/^BACK20-/), amount: 720 } });
    expect((await payOnPage(suite.t, sessionId, churned.email)).status).toBe(200);
    const [order] = await ordersOfSession(suite.t, sessionId);
    expect([order!.amount, order!.promotionCode]).toEqual([2880, 'BACK20']);
  });
});

describe('the console mail switches', () => {
  it('start with recovery and reminders on, win-back off, and list the churned-only codes', async () => {
    expect(await settings()).toMatchObject({
      switches: { checkout_recovery: true, winback: false, setup_tradingview: true, setup_discord: true, setup_telegram: true },
      winbackDays: 14,
      winbackCode: null,
      winbackCodes: ['BACK20'],
    });
  });

  it('answers bad input with a clear 400 and saves nothing of it', async () => {
    await createCode({ code: 'PLAIN10', percentOff: 10 });
    const cases: [unknown, string][] = [
      [{ switches: { newsletter: true } }, 'Unknown mail type: newsletter.'],
      [{ winbackDays: 0 }, 'Days after access ends must be a whole number from 1 to 365.'],
      [{ winbackDays: 2.5 }, 'Days after access ends must be a whole number from 1 to 365.'],
      [{ switches: { winback: true } }, 'Choose the win-back promotion code before turning the win-back mail on.'],
      [{ switches: { checkout_recovery: false }, winbackCode: 'PLAIN10' }, 'The code PLAIN10 is not an active code for returning members only: create one with "Returning members only" first.'],
      [{ switches: { winback: 'yes' } }, 'switches.winback: A mail switch is true or false.'],
    ];
    for (const [body, message] of cases) expect(await errorOf(await putSettings(body)), JSON.stringify(body)).toEqual([400, message]);
    expect(await db().select().from(mailSettings)).toEqual([]);
    expect((await settings()).switches.checkout_recovery).toBe(true);
  });

  it('is for operators only (403 for members, 401 for visitors)', async () => {
    for (const route of MEMBER_MAIL_ADMIN_ROUTES) {
      const body = route.method === 'PUT' ? { switches: { checkout_recovery: false } } : undefined;
      expect((await suite.t.request(`/api/admin${route.path}`, { method: route.method, body, cookie: suite.member })).status).toBe(403);
      expect((await suite.t.request(`/api/admin${route.path}`, { method: route.method, body })).status).toBe(401);
    }
  });

  it('saves the switches, days and code (any case), audited', async () => {
    const response = await putSettings({ switches: { winback: true }, winbackDays: 3, winbackCode: 'back20' });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(mailSettingsSchema.parse(await response.json())).toMatchObject({ switches: { winback: true, checkout_recovery: true }, winbackDays: 3, winbackCode: 'BACK20' });
    const audit = await db().select().from(operatorAuditLog).where(eq(operatorAuditLog.action, 'set_mail_settings'));
    expect(audit.map((entry) => entry.details.winbackCode)).toEqual(['BACK20']);
  });
});

describe('the win-back mail (after the switches are set: 3 days, BACK20)', () => {
  it('reaches a churned member once, 3 days after the access ended, with the code and an unsubscribe link', async () => {
    const churned = await signedInMember({ endedAgoMs: 2 * DAY_MS });
    const now = () => suite.time.now();
    await suite.t.services.memberMails.runOnce(now());
    expect(await mailsTo(churned.email)).toEqual([]);
    const later = new Date(now().getTime() + 1 * DAY_MS + HOUR_MS);
    await suite.t.services.memberMails.runOnce(later);
    await suite.t.services.memberMails.runOnce(new Date(later.getTime() + HOUR_MS));
    const mails = await mailsTo(churned.email);
    expect(mails.map((mail) => [mail.template, mail.status])).toEqual([['winback', 'sent']]);
    expect(mails[0]!.subject).toBe('Come back to Candlewise: 20% off on the first payment');
    expect(mails[0]!.text).toContain('/?code=BACK20');
    const token = /\/mail\/unsubscribe\/([^\s)\]]+)/.exec(mails[0]!.text ?? '')?.[1];
    expect(token).toBeDefined();
    // the page asks; only its button unsubscribes
    expect((await suite.t.request(`/mail/unsubscribe/${token}`)).status).toBe(200);
    expect(mailPreferencesSchema.parse(await (await suite.t.request('/api/mail-preferences', { cookie: churned.cookie })).json()).mails.find((mail) => mail.kind === 'winback')?.on).toBe(true);
    expect((await suite.t.request(`/mail/unsubscribe/${token}`, { method: 'POST' })).status).toBe(200);
    expect(mailPreferencesSchema.parse(await (await suite.t.request('/api/mail-preferences', { cookie: churned.cookie })).json()).mails.find((mail) => mail.kind === 'winback')?.on).toBe(false);
    expect((await suite.t.request(`/mail/unsubscribe/${token!.slice(0, -2)}xx`, { method: 'POST' })).status).toBe(404);
  });

  it('carries the one-click unsubscribe headers (RFC 8058), whose POST unsubscribes without the page', async () => {
    const churned = await signedInMember({ endedAgoMs: 3 * DAY_MS + HOUR_MS });
    await suite.t.services.memberMails.runOnce(suite.time.now());
    const [row] = await db().select().from(outbox).where(eq(outbox.to, churned.email));
    const { headers } = await suite.t.deps.mailer.render(row!);
    expect(headers).toEqual({ 'List-Unsubscribe': expect.stringMatching(/^<https?:\/\/[^/]+\/mail\/unsubscribe\/[^>]+>$/), 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
    const url = new URL(headers!['List-Unsubscribe']!.slice(1, -1));
    // what a mail client's unsubscribe button sends
    const response = await suite.t.request(url.pathname, { method: 'POST', body: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(response.status).toBe(200);
    expect(mailPreferencesSchema.parse(await (await suite.t.request('/api/mail-preferences', { cookie: churned.cookie })).json()).mails.find((mail) => mail.kind === 'winback')?.on).toBe(false);
  });

  it('never reaches a member who has access again, or who turned these mails off', async () => {
    const back = await signedInMember({ endedAgoMs: 3 * DAY_MS + HOUR_MS });
    await db().insert(userSubscriptions).values({ userId: back.userId, planType: 'yearly', provider: 'sandbox', status: 'active', isActive: true, expiresAt: new Date(suite.time.now().getTime() + 300 * DAY_MS) });
    const quiet = await signedInMember({ endedAgoMs: 3 * DAY_MS + HOUR_MS });
    const off = await suite.t.request('/api/mail-preferences', { method: 'PUT', body: { kind: 'winback', on: false }, cookie: quiet.cookie });
    expect(off.status).toBe(200);
    const due = await signedInMember({ endedAgoMs: 3 * DAY_MS + HOUR_MS });
    await suite.t.services.memberMails.runOnce(suite.time.now());
    expect(await mailsTo(back.email)).toEqual([]);
    expect(await mailsTo(quiet.email)).toEqual([]);
    expect((await mailsTo(due.email)).map((mail) => mail.template)).toEqual(['winback']);
  });

  it('a member preference of an unknown kind is a clear 400', async () => {
    const response = await suite.t.request('/api/mail-preferences', { method: 'PUT', body: { kind: 'newsletter', on: false }, cookie: suite.member });
    expect(await errorOf(response)).toEqual([400, 'Unknown mail type: newsletter.']);
  });
});

describe('set-up reminders', () => {
  it('remind at 3 h, 24 h, 48 h and 7 days of what is missing, once each, and stop once it is done', async () => {
    const member = await seedMember(db(), { username: null });
    const [row] = await db().select().from(userSubscriptions).where(eq(userSubscriptions.userId, member.userId));
    const start = row!.createdAt.getTime();
    const at = (ms: number) => suite.t.services.memberMails.runOnce(new Date(start + ms));
    const reminders = async () => (await mailsTo(member.email)).map((mail) => [mail.template, mail.subject]);
    await at(2 * HOUR_MS);
    expect(await reminders()).toEqual([]);
    await at(3 * HOUR_MS + 1);
    await at(4 * HOUR_MS);
    const first = await reminders();
    expect(first.map(([, subject]) => subject).sort()).toEqual(['Add your TradingView username to get the indicators', 'Join the members on Discord', 'Join the members on Telegram']);
    // the member links Discord and turns the Telegram reminder off: the next step reminds of TradingView only
    await db().insert(discordMembers).values({ userId: member.userId, discordUserId: `d-${member.userId}`, username: 'trader' });
    await db().insert(memberMailOptouts).values({ userId: member.userId, kind: 'setup_telegram' });
    // the outbox lists newest first, mails of one pass in no set order: the new ones are those not seen before
    const seen = new Set((await mailsTo(member.email)).map((mail) => mail.id));
    await at(24 * HOUR_MS + 1);
    const added = (await mailsTo(member.email)).filter((mail) => !seen.has(mail.id));
    expect(added.map((mail) => mail.subject)).toEqual(['Add your TradingView username to get the indicators']);
    await linkUsername(db(), member.userId, `tv_${member.userId.slice(0, 8)}`, new Date(start + 25 * HOUR_MS));
    await at(48 * HOUR_MS + 1);
    await at(7 * DAY_MS + 1);
    expect(await reminders()).toHaveLength(4);
    // the cadence's last reminder says so
    const other = await seedMember(db(), { username: null });
    const [otherRow] = await db().select().from(userSubscriptions).where(eq(userSubscriptions.userId, other.userId));
    await suite.t.services.memberMails.runOnce(new Date(otherRow!.createdAt.getTime() + 7 * DAY_MS + 1));
    const lastOnes = (await mailsTo(other.email)).filter((mail) => mail.subject === 'Add your TradingView username to get the indicators');
    expect(lastOnes.map((mail) => mail.text?.includes('This is the last reminder we send about it.'))).toEqual([true]);
  });

  it('stop reminding of Telegram once the member linked it, as Telegram answers', async () => {
    const member = await seedMember(db(), { username: null });
    const [row] = await db().select().from(userSubscriptions).where(eq(userSubscriptions.userId, member.userId));
    const start = row!.createdAt.getTime();
    await suite.t.services.memberMails.runOnce(new Date(start + 3 * HOUR_MS + 1));
    const seen = new Set((await mailsTo(member.email)).map((mail) => mail.id));
    expect(seen.size).toBe(3);
    await db().insert(telegramMembers).values({ userId: member.userId, telegramUserId: `t-${member.userId}`, username: 'trader_tg' });
    await suite.t.services.memberMails.runOnce(new Date(start + 24 * HOUR_MS + 1));
    const added = (await mailsTo(member.email)).filter((mail) => !seen.has(mail.id));
    expect(added.map((mail) => mail.subject).sort()).toEqual(['Add your TradingView username to get the indicators', 'Join the members on Discord']);
  });

  it('start a new series for a member who leaves and comes back', async () => {
    const member = await seedMember(db(), { username: null });
    const [row] = await db().select().from(userSubscriptions).where(eq(userSubscriptions.userId, member.userId));
    const start = row!.createdAt.getTime();
    const tradingviewReminders = async () => (await mailsTo(member.email)).filter((mail) => mail.subject === 'Add your TradingView username to get the indicators').map((mail) => mail.text?.includes('This is the last reminder we send about it.')).sort();
    await suite.t.services.memberMails.runOnce(new Date(start + 3 * HOUR_MS + 1));
    expect(await tradingviewReminders()).toEqual([false]);
    // the plan ends after 30 days; the member buys again 60 days after the first purchase
    await db().update(userSubscriptions).set({ status: 'canceled', isActive: false, cancelAtPeriodEnd: true, expiresAt: new Date(start + 30 * DAY_MS) }).where(eq(userSubscriptions.id, row!.id));
    const back = new Date(start + 60 * DAY_MS);
    await db().insert(userSubscriptions).values({ userId: member.userId, planType: 'monthly', provider: 'sandbox', status: 'active', isActive: true, createdAt: back, expiresAt: new Date(back.getTime() + 30 * DAY_MS) });
    await suite.t.services.memberMails.runOnce(new Date(back.getTime() + 3 * HOUR_MS + 1));
    await suite.t.services.memberMails.runOnce(new Date(back.getTime() + 4 * HOUR_MS));
    expect(await tradingviewReminders()).toEqual([false, false]);
    await suite.t.services.memberMails.runOnce(new Date(back.getTime() + 7 * DAY_MS + 1));
    expect(await tradingviewReminders()).toEqual([false, false, true]);
  });

  it('are not sent when the operator switched them off', async () => {
    expect((await putSettings({ switches: { setup_tradingview: false, setup_discord: false, setup_telegram: false } })).status).toBe(200);
    const member = await seedMember(db(), { username: null });
    const [row] = await db().select().from(userSubscriptions).where(eq(userSubscriptions.userId, member.userId));
    await suite.t.services.memberMails.runOnce(new Date(row!.createdAt.getTime() + 3 * HOUR_MS + 1));
    expect(await mailsTo(member.email)).toEqual([]);
    expect(mailPreferencesSchema.parse(await (await suite.t.request('/api/mail-preferences', { cookie: suite.member })).json()).mails.map((mail) => mail.kind)).toEqual(['winback']);
  });
});

describe('the checkout recovery switch', () => {
  it('off: an abandoned checkout gets no recovery mail', async () => {
    expect((await putSettings({ switches: { checkout_recovery: false } })).status).toBe(200);
    const email = `abandoned-${randomUUID().slice(0, 8)}@example.com`;
    const { sessionId } = await startCheckout(suite.t, { customerEmail: email });
    expect(await suite.t.services.checkoutRecovery.offer(sessionId)).toBe(false);
    expect((await putSettings({ switches: { checkout_recovery: true } })).status).toBe(200);
    expect(await suite.t.services.checkoutRecovery.offer(sessionId)).toBe(true);
  });
});
