// Support in one action through the whole app on the sandbox provider: free days, a pause of
// collection (access kept or stopped) and its resumption, a transfer of TradingView access and a
// ban, each audited and mirrored to the provider, TradingView and Discord in the same request; and
// the refusals of bad input, which change nothing.
import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { memberDetailSchema } from '@shared/admin-contract';
import { operatorAuditLog, sandboxInvoices, sandboxSubscriptions, tradingviewGrants, tradingviewUsernames, userSubscriptions } from '../../db/schema';
import { buy, DAY_MS, jobsOf, sandboxOf, signUp, userIdOf } from '../../test-support/billing-test-kit';
import { consoleSuite, OPERATOR_EMAIL, type ConsoleSuite } from '../../test-support/admin-test-kit';
import { discordOf, linkSandboxDiscord, sandboxGuild } from '../../test-support/discord-test-kit';
import type { TestApp } from '../../test-support/test-app';
import { userHasPremiumAccess } from '../access/access.repository';
import { SANDBOX_MEMBER_ROLE } from '../discord/sandbox-discord';
import { tradingViewOf } from '../tradingview/tradingview.integration';

let t: TestApp;
let operator: string;
let time: ConsoleSuite['time'];

consoleSuite((suite) => ({ t, operator, time } = suite), { SANDBOX_TRADINGVIEW_MISSING_USERNAMES: 'ghost_trader' });

const db = () => t.deps.database.db;
let counter = 0;

/** A member who bought `planType` in the sandbox, with a TradingView username and Discord linked. */
async function payingMember(planType: 'monthly' | 'lifetime' = 'monthly') {
  counter += 1;
  const email = `support-${counter}-${randomUUID().slice(0, 8)}@example.com`;
  const cookie = await signUp(t, email);
  const userId = await userIdOf(t, cookie);
  const sessionId = await buy(t, email, { planType }, cookie);
  const username = `support_trader_${counter}`;
  const activated = await t.request('/api/tradingview/activate', { cookie, body: { tv_username: username } });
  expect(activated.status, await activated.clone().text()).toBe(200);
  const discord = await linkSandboxDiscord(t, userId, `support_discord_${counter}`, time.clock());
  await passes();
  return { email, cookie, userId, sessionId, username, discordId: discord.id };
}

/** One pass of each reconciler: what "within one pass" means for TradingView and Discord. */
async function passes() {
  await tradingViewOf(t.integrations).reconciler.runOnce();
  await discordOf(t).reconciler.runOnce();
}

const act = (userId: string, action: string, body: unknown = {}) => t.request(`/api/admin/members/${userId}/${action}`, { cookie: operator, body });

async function expectRefused(response: Response, status: number, message: string | RegExp) {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect((JSON.parse(text) as { error: { message: string } }).error.message).toMatch(message);
}

async function rowOf(userId: string) {
  const [row] = await db().select().from(userSubscriptions).where(eq(userSubscriptions.userId, userId)).orderBy(desc(userSubscriptions.createdAt));
  return row!;
}

async function sandboxSubscriptionOf(userId: string) {
  const row = await rowOf(userId);
  const [sub] = await db().select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, row.providerSubscriptionId!));
  return sub!;
}

async function grantOf(userId: string, username: string) {
  const [grant] = await db().select().from(tradingviewGrants).where(and(eq(tradingviewGrants.userId, userId), eq(tradingviewGrants.username, username)));
  return grant;
}

async function discordRoles(discordId: string) {
  return (await sandboxGuild(t).sandbox.guild()).members.find((entry) => entry.id === discordId)?.roles ?? [];
}

async function auditOf(userId: string) {
  return db().select().from(operatorAuditLog).where(eq(operatorAuditLog.targetUserId, userId)).orderBy(desc(operatorAuditLog.createdAt));
}

describe('free days', () => {
  it('moves the paid time and the next charge later at the provider, TradingView expiry with it, audited', async () => {
    const member = await payingMember();
    const before = await rowOf(member.userId);
    const response = await act(member.userId, 'free-days', { days: 7 });
    expect(response.status, await response.clone().text()).toBe(200);
    const until = new Date(before.expiresAt!.getTime() + 7 * DAY_MS);
    expect((await response.json()).message).toBe(`Added 7 free days: access runs until ${until.toISOString().slice(0, 10)} and the next charge is then.`);

    expect(await sandboxSubscriptionOf(member.userId)).toMatchObject({ status: 'trialing', currentPeriodEnd: until, trialEnd: until });
    expect(await rowOf(member.userId)).toMatchObject({ status: 'trialing', isActive: true, expiresAt: until });
    expect((await grantOf(member.userId, member.username))?.desiredExpiresAt).toEqual(until);
    expect((await auditOf(member.userId))[0]).toMatchObject({ operatorEmail: OPERATOR_EMAIL, action: 'add_free_days', details: { days: 7, until: until.toISOString() } });
    const detail = memberDetailSchema.parse(await (await t.request(`/api/admin/members/${member.userId}`, { cookie: operator })).json());
    expect(detail.accessHistory[0]).toMatchObject({ kind: 'renewed', hasAccess: true, expiresAt: until.toISOString() });

    // nothing was charged for them: the sandbox invoices are the purchase's only
    const invoices = await db().select().from(sandboxInvoices).where(eq(sandboxInvoices.subscriptionId, before.providerSubscriptionId!));
    expect(invoices).toHaveLength(1);
  });

  it('refuses 0, 366, a fraction or a word, lifetime, no plan and an unknown member, changing nothing', async () => {
    const member = await payingMember();
    const before = await rowOf(member.userId);
    for (const days of [0, 366, 1.5, 'seven']) await expectRefused(await act(member.userId, 'free-days', { days }), 400, 'Free days are a whole number from 1 to 365.');
    await expectRefused(await act(member.userId, 'free-days', {}), 400, 'Free days are a whole number from 1 to 365.');
    expect(await rowOf(member.userId)).toEqual(before);

    const lifetime = await payingMember('lifetime');
    await expectRefused(await act(lifetime.userId, 'free-days', { days: 7 }), 400, 'Lifetime access never ends: free days do not apply to it.');
    const nobody = await userIdOf(t, await signUp(t, `no-plan-${randomUUID()}@example.com`));
    await expectRefused(await act(nobody, 'free-days', { days: 7 }), 400, 'This member has no renewing subscription to add free days to. Give complimentary access instead.');
    await expectRefused(await act(randomUUID(), 'free-days', { days: 7 }), 404, 'No member with this id.');

    // Stripe takes a trial end at most two years ahead: the operator hears what is left
    const generous = await payingMember();
    expect((await act(generous.userId, 'free-days', { days: 365 })).status).toBe(200);
    const extended = await rowOf(generous.userId);
    const left = Math.floor((time.now().getTime() + 730 * DAY_MS - extended.expiresAt!.getTime()) / DAY_MS);
    await expectRefused(await act(generous.userId, 'free-days', { days: 365 }), 400, `Paid time can run at most two years ahead: this plan can take at most ${left} more free days.`);
    expect(await rowOf(generous.userId)).toEqual(extended);
    expect((await auditOf(member.userId)).filter((line) => line.action === 'add_free_days')).toEqual([]);
  });
});

describe('pausing collection', () => {
  it('keeping access: nothing is charged at the renewal, access continues; resumed it charges again', async () => {
    const member = await payingMember();
    const response = await act(member.userId, 'pause-collection', { access: 'keep' });
    expect(response.status, await response.clone().text()).toBe(200);
    expect((await response.json()).message).toBe('Collection paused: nothing is charged and the member keeps access until you resume it.');
    expect(await rowOf(member.userId)).toMatchObject({ collectionPaused: true, isActive: true });
    expect(await userHasPremiumAccess(db(), member.userId)).toBe(true);
    await expectRefused(await act(member.userId, 'pause-collection', { access: 'stop' }), 400, 'Collection is already paused for this plan: resume it first.');
    expect(await rowOf(member.userId)).toMatchObject({ collectionPaused: true, isActive: true });

    // the period ends while paused: it moves on with no invoice charged, and access with it
    const sub = await sandboxSubscriptionOf(member.userId);
    await sandboxOf(t).sandbox.runClock(new Date(sub.currentPeriodEnd.getTime() + 1000));
    await jobsOf(t).runOnce();
    const renewed = await sandboxSubscriptionOf(member.userId);
    expect(renewed.currentPeriodStart).toEqual(sub.currentPeriodEnd);
    expect(await db().select().from(sandboxInvoices).where(eq(sandboxInvoices.subscriptionId, sub.id))).toHaveLength(1);
    expect(await rowOf(member.userId)).toMatchObject({ isActive: true, expiresAt: renewed.currentPeriodEnd });

    const resumed = await act(member.userId, 'resume-collection');
    expect(resumed.status, await resumed.clone().text()).toBe(200);
    expect(await rowOf(member.userId)).toMatchObject({ collectionPaused: false, isActive: true });
    expect((await sandboxSubscriptionOf(member.userId)).pausedAccess).toBeNull();
    await sandboxOf(t).sandbox.runClock(new Date(renewed.currentPeriodEnd.getTime() + 1000));
    expect((await db().select().from(sandboxInvoices).where(eq(sandboxInvoices.subscriptionId, sub.id))).map((invoice) => invoice.status)).toEqual(['paid', 'paid']);
    await expectRefused(await act(member.userId, 'resume-collection'), 400, 'Collection is not paused for this plan.');
    expect((await auditOf(member.userId)).map((line) => line.action).slice(0, 2)).toEqual(['resume_collection', 'pause_collection']);
  });

  it('stopping access: TradingView and Discord lose it at once and get it back on resume', async () => {
    const member = await payingMember();
    expect(await discordRoles(member.discordId)).toEqual([SANDBOX_MEMBER_ROLE.id]);
    const response = await act(member.userId, 'pause-collection', { access: 'stop' });
    expect(response.status, await response.clone().text()).toBe(200);
    await passes();
    expect(await userHasPremiumAccess(db(), member.userId)).toBe(false);
    expect(await grantOf(member.userId, member.username)).toMatchObject({ desired: 'revoke' });
    expect(await discordRoles(member.discordId)).toEqual([]);

    expect((await act(member.userId, 'resume-collection')).status).toBe(200);
    await passes();
    expect(await userHasPremiumAccess(db(), member.userId)).toBe(true);
    expect(await grantOf(member.userId, member.username)).toMatchObject({ desired: 'grant' });
    expect(await discordRoles(member.discordId)).toEqual([SANDBOX_MEMBER_ROLE.id]);
  });

  it('refuses an access choice other than keep or stop, and lifetime', async () => {
    const member = await payingMember();
    for (const body of [{}, { access: 'maybe' }]) {
      await expectRefused(await act(member.userId, 'pause-collection', body), 400, 'Choose whether the member keeps access while collection is paused: keep or stop.');
    }
    expect(await rowOf(member.userId)).toMatchObject({ collectionPaused: false });
    const lifetime = await payingMember('lifetime');
    await expectRefused(await act(lifetime.userId, 'pause-collection', { access: 'keep' }), 400, 'Lifetime is paid once: there is no collection to pause or resume.');
  });
});

describe('transferring TradingView access', () => {
  it('revokes the old username, grants the new one and keeps the history; a name TradingView does not know is refused', async () => {
    const member = await payingMember();
    await expectRefused(await act(member.userId, 'tradingview-username', { username: 'ghost_trader' }), 422, 'This TradingView username does not exist.');
    expect(await grantOf(member.userId, member.username)).toMatchObject({ desired: 'grant' });

    const response = await act(member.userId, 'tradingview-username', { username: 'moved_trader' });
    expect(response.status, await response.clone().text()).toBe(200);
    expect((await response.json()).message).toBe(`TradingView access moved to moved_trader; ${member.username}'s access is revoked.`);
    await passes();
    expect(await grantOf(member.userId, member.username)).toMatchObject({ desired: 'revoke', status: 'revoked' });
    expect(await grantOf(member.userId, 'moved_trader')).toMatchObject({ desired: 'grant', status: 'granted' });
    const names = await db().select().from(tradingviewUsernames).where(eq(tradingviewUsernames.userId, member.userId));
    expect(names.map((row) => [row.username, row.replacedAt === null])).toEqual(expect.arrayContaining([[member.username, false], ['moved_trader', true]]));
    expect((await auditOf(member.userId))[0]).toMatchObject({ action: 'correct_username', details: { username: 'moved_trader', previous: member.username } });
  });
});

describe('banning a member', () => {
  it('ends access now, cancels the subscription so the renewal neither charges nor brings access back, refunds, refuses checkout', async () => {
    const member = await payingMember();
    const sub = await sandboxSubscriptionOf(member.userId);
    const response = await act(member.userId, 'ban', { refundLastPayment: true, reason: 'shared the login' });
    expect(response.status, await response.clone().text()).toBe(200);
    expect((await response.json()).message).toBe('Banned: access ended now, 1 subscription canceled at the provider, the last payment refunded. The account can no longer buy.');
    await passes();

    expect(await userHasPremiumAccess(db(), member.userId)).toBe(false);
    expect(await rowOf(member.userId)).toMatchObject({ isActive: false, revokedReason: 'banned' });
    expect(await grantOf(member.userId, member.username)).toMatchObject({ desired: 'revoke' });
    expect(await discordRoles(member.discordId)).toEqual([]);
    expect((await sandboxSubscriptionOf(member.userId)).status).toBe('canceled');
    const [invoice] = await db().select().from(sandboxInvoices).where(eq(sandboxInvoices.subscriptionId, sub.id));
    expect(invoice).toMatchObject({ amountRefunded: invoice!.amountDue });

    // the provider's events (cancellation, refund) and the period's end change nothing
    await jobsOf(t).runOnce();
    await sandboxOf(t).sandbox.runClock(new Date(sub.currentPeriodEnd.getTime() + 1000));
    await jobsOf(t).runOnce();
    expect(await db().select().from(sandboxInvoices).where(eq(sandboxInvoices.subscriptionId, sub.id))).toHaveLength(1);
    expect(await userHasPremiumAccess(db(), member.userId)).toBe(false);
    expect(await rowOf(member.userId)).toMatchObject({ isActive: false, revokedReason: 'banned' });

    // checkout refuses the account, and its e-mail when typed without signing in
    const message = 'This account can no longer buy from this shop. If you think this is a mistake, please contact support.';
    const signedIn = await t.request('/api/create-checkout', { cookie: member.cookie, body: { planType: 'yearly', customerEmail: null, fbc: null, fbp: null, userAgent: null, originPage: '/' } });
    await expectRefused(signedIn, 403, message);
    const anonymous = await t.request('/api/create-checkout', { body: { planType: 'monthly', customerEmail: member.email.toUpperCase(), fbc: null, fbp: null, userAgent: null, originPage: '/' } });
    await expectRefused(anonymous, 403, message);

    const detail = memberDetailSchema.parse(await (await t.request(`/api/admin/members/${member.userId}`, { cookie: operator })).json());
    expect(detail.ban).toMatchObject({ bannedBy: OPERATOR_EMAIL, reason: 'shared the login', refundedPaymentId: expect.any(String) });
    expect((await auditOf(member.userId))[0]).toMatchObject({ action: 'ban_member', details: { canceled: [sub.id], reason: 'shared the login' } });
    await expectRefused(await act(member.userId, 'ban', {}), 400, 'This member is already banned.');
  });

  it('refuses a refund when there is no payment, changing nothing; a lifetime buyer is banned like any other', async () => {
    const nobody = await userIdOf(t, await signUp(t, `ban-no-payment-${randomUUID()}@example.com`));
    await expectRefused(await act(nobody, 'ban', { refundLastPayment: true }), 400, 'This member has no paid payment to refund: ban without a refund.');
    expect(memberDetailSchema.parse(await (await t.request(`/api/admin/members/${nobody}`, { cookie: operator })).json()).ban).toBeNull();
    await expectRefused(await act(nobody, 'ban', { refundLastPayment: 'yes' }), 400, 'refundLastPayment is true or false.');

    const lifetime = await payingMember('lifetime');
    const response = await act(lifetime.userId, 'ban', {});
    expect(response.status, await response.clone().text()).toBe(200);
    expect((await response.json()).message).toBe('Banned: access ended now. The account can no longer buy.');
    expect(await userHasPremiumAccess(db(), lifetime.userId)).toBe(false);
    expect(await rowOf(lifetime.userId)).toMatchObject({ isActive: false, status: 'canceled', revokedReason: 'banned' });
  });
});
