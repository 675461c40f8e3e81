// Each lifecycle mail from the event that triggers it, through the real app on the sandbox
// provider: exactly one mail in the outbox with the right recipient, subject and link, also when
// the provider's events arrive twice or out of order.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { dayKey } from '@shared/admin-reports';
import { tradingviewGrants } from '../../db/schema';
import { TEST_ORIGIN, type TestApp } from '../../test-support/test-app';
import { billingSuite, buy, buyerBrowser, CARDS, DAY_MS, jobsOf, rowsOfSession, signUp, startCheckout, userIdOf } from '../../test-support/billing-test-kit';
import type { SessionUser } from '../../http/session-user';
import { mailKeys } from '@shared/mail-intents';
import { composeEntitlements } from '../../composition';
import { changesOfMember } from '../entitlements/access-changes.repository';
import { claimCheckoutSession, createPaymentEventHandler } from '../fulfilment/fulfilment';
import { accessMails } from './access-mails';
import { runMailSchedule } from './mail-schedule';
import { enqueueMail, listOutboxMails } from './outbox.repository';
import { tradingViewOf } from '../tradingview/tradingview.integration';

let t: TestApp;
const { time, email } = billingSuite((app) => (t = app));

/** The mails written for `to`, sent by the worker (so rendered), oldest first. */
async function mailsTo(to: string) {
  await t.deps.mailer.runOnce();
  return (await listOutboxMails(t.deps.database.db, { to })).reverse();
}
const templates = async (to: string) => (await mailsTo(to)).map((mail) => mail.template);
const one = async (to: string, template: string) => {
  const matching = (await mailsTo(to)).filter((mail) => mail.template === template);
  expect(matching).toHaveLength(1);
  return matching[0]!;
};
const linkIn = (text: string | null, path: string) => (text ?? '').match(new RegExp(`${TEST_ORIGIN.replace(/[/.]/g, '\\$&')}${path}\\S*`))?.[0];

/** The provider tells about a checkout again, under a new event id (a duplicate or a late copy). */
async function redeliverCheckout(sessionId: string, type = 'checkout.session.completed') {
  const handler = createPaymentEventHandler({ db: t.deps.database.db, payments: t.deps.payments, logger: t.deps.logger, clock: time.clock, entitlements: t.services.entitlements });
  await handler.handle({ id: `evt_again_${crypto.randomUUID()}`, type, checkoutSessionId: sessionId, created: time.now() });
}

describe('after a paid checkout that no account holds yet', () => {
  it('writes "Finish setting up your access" and the receipt, once each, whatever the provider repeats', async () => {
    const buyer = email('fresh');
    const sessionId = await buy(t, buyer, { planType: 'monthly' });
    await redeliverCheckout(sessionId);
    await redeliverCheckout(sessionId, 'checkout.session.async_payment_succeeded');
    await t.request('/api/get-payment-details', { body: { sessionId }, cookie: buyerBrowser(sessionId) });

    expect((await templates(buyer)).sort()).toEqual(['finish_setup', 'receipt']);
    const finish = await one(buyer, 'finish_setup');
    expect(finish).toMatchObject({ to: buyer, status: 'sent', subject: 'Finish setting up your Candlewise access' });
    expect(linkIn(finish.text, '/payment-success')).toMatch(new RegExp(`^${TEST_ORIGIN}/payment-success\\?session_id=${sessionId}&proof=\\d+\\.[\\w-]+$`));
    expect(finish.html).toContain('Finish setting up');
    expect(finish.html).toContain('name="viewport"');

    const receipt = await one(buyer, 'receipt');
    expect(receipt.subject).toBe('Your Candlewise receipt — Monthly');
    expect(receipt.text).toContain('Plan: Monthly');
    expect(receipt.text).toContain('Amount: $36.00 (USD)');
    expect(receipt.text).toMatch(/Renews on: \w+ \d{1,2}, \d{4}/);
    expect(linkIn(receipt.text, '/dashboard')).toBe(`${TEST_ORIGIN}/dashboard`);
    expect(t.mails.filter((mail) => mail.to === buyer)).toHaveLength(2);
  });

  it('the mailed link continues /payment-success in another browser and creates the account once', async () => {
    const buyer = email('elsewhere');
    const sessionId = await buy(t, buyer, { planType: 'quarterly' });
    const link = new URL(linkIn((await one(buyer, 'finish_setup')).text, '/payment-success')!);
    const proof = link.searchParams.get('proof');

    const details = await t.request('/api/get-payment-details', { body: { sessionId: link.searchParams.get('session_id'), proof } });
    expect(await details.json()).toMatchObject({ email: buyer, userStatus: 'new', emailProven: true });
    const created = await t.request('/api/verify-payment', { body: { sessionId, password: 'from-the-mail-1', proof } });
    expect(created.status).toBe(200);
    const again = await t.request('/api/verify-payment', { body: { sessionId, password: 'from-the-mail-2', proof } });
    expect(again.status).toBe(409);
  });

  it('a lifetime receipt says lifetime instead of a renewal date', async () => {
    const buyer = email('forever');
    await buy(t, buyer, { planType: 'lifetime' });
    const receipt = await one(buyer, 'receipt');
    expect(receipt.text).toContain('Access: lifetime');
    expect(receipt.text).not.toContain('Renews on');
  });
});

describe('after a purchase by a signed-in member', () => {
  it('writes the receipt and no "Finish setting up" (the account already holds it)', async () => {
    const member = email('member');
    const cookie = await signUp(t, member);
    await buy(t, member, { planType: 'monthly' }, cookie);
    expect(await templates(member)).toEqual(['receipt']);
  });

  it('activation adds "Your TradingView access is active" once the grant is read back, once, and not again when a renewal extends it', async () => {
    const member = email('trader');
    const cookie = await signUp(t, member);
    const sessionId = await buy(t, member, { planType: 'monthly' }, cookie);
    expect((await t.request('/api/tradingview/activate', { body: { tv_username: 'chart_wizard' }, cookie })).status).toBe(200);
    expect(await templates(member)).toEqual(['receipt']);

    await tradingViewOf(t.integrations).reconciler.runOnce();
    await tradingViewOf(t.integrations).reconciler.syncUser(await userIdOf(t, cookie));
    await tradingViewOf(t.integrations).reconciler.runOnce();
    const active = await one(member, 'tradingview_active');
    expect(active.subject).toBe('Your TradingView access is active');
    expect(active.text).toContain('TradingView username: chart_wizard');
    for (const step of ['Open a chart', 'Indicators', 'Invite-only scripts', 'Select the indicators']) expect(active.text).toContain(step);
    // the scripts by their names (the sandbox's catalogue is named on the first start), never their PUB; ids
    for (const { name } of t.deps.config.integrations.tradingview.sandboxScripts) expect(active.text).toContain(name);
    expect(active.text).not.toContain('PUB;');
    // the communities the sandbox offers, each as its integration words its step (#44)
    expect(active.text).toContain(`Your plan includes the VIP Discord: connect your Discord account at ${t.deps.config.publicUrl}/dashboard/discord`);
    expect(active.text).toContain(`Your plan includes the members’ Telegram chats: connect your Telegram account at ${t.deps.config.publicUrl}/dashboard/discord`);

    const [row] = await rowsOfSession(t, sessionId);
    time.set(new Date(row!.expiresAt!.getTime() + 60_000));
    await jobsOf(t).runOnce();
    await jobsOf(t).runOnce();
    await tradingViewOf(t.integrations).reconciler.runOnce();
    const [renewed] = await rowsOfSession(t, sessionId);
    expect(renewed!.expiresAt!.getTime()).toBeGreaterThan(row!.expiresAt!.getTime());
    const [grant] = await t.deps.database.db.select().from(tradingviewGrants).where(eq(tradingviewGrants.username, 'chart_wizard'));
    expect(grant).toMatchObject({ status: 'granted', grantedExpiresAt: renewed!.expiresAt });
    await one(member, 'tradingview_active');
    time.set(new Date());
  });

  it('a failed renewal writes "Payment failed — update your card" once, with the subscription settings link', async () => {
    const member = email('declined');
    const cookie = await signUp(t, member);
    const sessionId = await buy(t, member, { planType: 'monthly' }, cookie, CARDS.failsLater);
    const [row] = await rowsOfSession(t, sessionId);
    time.set(new Date(row!.expiresAt!.getTime() + 60_000));
    await jobsOf(t).runOnce();
    await jobsOf(t).runOnce();
    const failed = await one(member, 'payment_failed');
    expect(failed.subject).toBe('Payment failed — update your card');
    expect(linkIn(failed.text, '/dashboard/settings')).toBe(`${TEST_ORIGIN}/dashboard/settings?section=subscription`);
    time.set(new Date());
  });

  it('a plan change writes "Plan changed"', async () => {
    const member = email('upgrader');
    const cookie = await signUp(t, member);
    const sessionId = await buy(t, member, { planType: 'monthly' }, cookie);
    await claimCheckoutSession(t.services.entitlements, sessionId, await userIdOf(t, cookie));
    expect((await t.request('/api/update-subscription', { body: { planType: 'quarterly' }, cookie })).status).toBe(200);
    const changed = await one(member, 'plan_changed');
    expect(changed.subject).toBe('Your Candlewise plan changed to Quarterly');
    expect(changed.text).toContain('from Monthly to Quarterly');
  });
});

describe('the timed mails (scheduler with an injected clock)', () => {
  const db = () => t.deps.database.db;
  /** A pass of the access-changes loop at `at`: its expiry watch records "ending soon" and "ended", which the mail subscriber hears. */
  const passAt = async (at: Date) => {
    time.set(at);
    await t.jobs.accessChanges.runOnce();
  };

  it('reminds an unclaimed buyer once after 24 hours, and never a buyer who finished', async () => {
    const buyer = email('forgetful');
    const sessionId = await buy(t, buyer, { planType: 'monthly' });
    const done = email('finished');
    const finished = await buy(t, done, { planType: 'monthly' });
    expect((await t.request('/api/verify-payment', { body: { sessionId: finished, password: 'finished-pass-1' }, cookie: buyerBrowser(finished) })).status).toBe(200);

    const start = Date.now();
    await runMailSchedule(db(), new Date(start + 23 * 60 * 60 * 1000));
    expect(await templates(buyer)).not.toContain('finish_setup_reminder');
    await runMailSchedule(db(), new Date(start + 25 * 60 * 60 * 1000));
    await runMailSchedule(db(), new Date(start + 26 * 60 * 60 * 1000));
    const reminder = await one(buyer, 'finish_setup_reminder');
    expect(reminder.subject).toBe('Reminder: finish setting up your Candlewise access');
    expect(linkIn(reminder.text, '/payment-success')).toContain(`session_id=${sessionId}&proof=`);
    expect(await templates(done)).not.toContain('finish_setup_reminder');
  });

  it('"access ends on {date}" three days before a canceled plan ends, then "access ended" with Reactivate, once each', async () => {
    const member = email('leaving');
    const cookie = await signUp(t, member);
    const sessionId = await buy(t, member, { planType: 'quarterly' }, cookie);
    const [row] = await rowsOfSession(t, sessionId);
    const endsAt = row!.expiresAt!;
    expect((await t.request(`/api/sandbox/portal/${row!.providerCustomerId}/subscriptions/${row!.providerSubscriptionId}/cancel`, { body: {} })).status).toBe(200);

    await passAt(new Date(endsAt.getTime() - 4 * DAY_MS));
    expect(await templates(member)).toEqual(['receipt']);
    await passAt(new Date(endsAt.getTime() - 2 * DAY_MS));
    await passAt(new Date(endsAt.getTime() - DAY_MS));
    const ending = await one(member, 'access_ending');
    const date = endsAt.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
    expect(ending.subject).toBe(`Your Candlewise access ends on ${date}`);

    time.set(new Date(endsAt.getTime() + 60_000));
    await jobsOf(t).runOnce();
    await passAt(time.now());
    await passAt(new Date(time.now().getTime() + 60_000));
    const ended = await one(member, 'access_ended');
    expect(ended.subject).toBe('Your Candlewise access has ended');
    expect(ended.text).toContain('Reactivate Quarterly');
    time.set(new Date());
  });

  it('complimentary access from the console: "your complimentary access ends", then "has ended", never a canceled Monthly plan', async () => {
    const member = email('comped');
    const cookie = await signUp(t, member);
    const operator = { id: crypto.randomUUID(), email: 'operator@example.com', name: 'operator', createdAt: new Date() } as SessionUser;
    const lastDay = new Date(time.now().getTime() + 10 * DAY_MS);
    await t.services.members.grantComp(operator, await userIdOf(t, cookie), dayKey(lastDay));
    const endsAt = new Date(`${dayKey(lastDay)}T00:00:00.000Z`).getTime() + DAY_MS;
    const date = lastDay.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

    await passAt(new Date(endsAt - 2 * DAY_MS));
    await passAt(new Date(endsAt - DAY_MS));
    const ending = await one(member, 'comp_ending');
    expect(ending.subject).toBe(`Your complimentary Candlewise access ends on ${date}`);
    expect(ending.text).toContain(`lasts until the end of ${date} (UTC)`);

    await passAt(new Date(endsAt + 60_000));
    await passAt(new Date(endsAt + DAY_MS));
    const ended = await one(member, 'comp_ended');
    expect(ended.subject).toBe('Your complimentary Candlewise access has ended');
    expect(linkIn(ended.text, '/')).toBe(`${TEST_ORIGIN}/#pricing`);

    expect(await templates(member)).toEqual(['comp_ending', 'comp_ended']);
    for (const mail of [ending, ended]) expect(`${mail.subject}\n${mail.text}`).not.toMatch(/monthly|cancel|renew|resume|reactivate/i);
  });

  it('does not tell a member whose plan ended "access ended" while another plan still gives access', async () => {
    const member = email('switcher');
    const cookie = await signUp(t, member);
    const first = await buy(t, member, { planType: 'monthly' }, cookie);
    const [row] = await rowsOfSession(t, first);
    await t.request(`/api/sandbox/portal/${row!.providerCustomerId}/subscriptions/${row!.providerSubscriptionId}/cancel`, { body: {} });
    const lifetime = await startCheckout(t, { planType: 'lifetime' }, cookie);
    await t.request(`/api/sandbox/checkout/${lifetime.sessionId}/pay`, { body: { email: member, cardNumber: CARDS.ok, expiry: '12 / 39', cvc: '123', name: 'S' } });
    await passAt(time.now());
    time.set(new Date(row!.expiresAt!.getTime() + 60_000));
    await jobsOf(t).runOnce();
    expect((await rowsOfSession(t, first))[0]).toMatchObject({ status: 'canceled', isActive: false });
    await passAt(time.now());
    expect(await templates(member)).toContain('receipt');
    expect(await templates(member)).not.toContain('access_ended');
    time.set(new Date());
  });

  it('a renewing plan whose renewal comes late is not told "access ended": the end is recorded for the integrations, mail leaves a renewing row alone', async () => {
    const member = email('late-renewal');
    const cookie = await signUp(t, member);
    const sessionId = await buy(t, member, { planType: 'monthly' }, cookie);
    const [row] = await rowsOfSession(t, sessionId);
    await passAt(time.now());
    // the period is over and the provider's renewal has not come yet
    await passAt(new Date(row!.expiresAt!.getTime() + 60_000));
    const [ended] = await changesOfMember(db(), await userIdOf(t, cookie), 1);
    expect(ended).toMatchObject({ kind: 'ended', rowId: row!.id, canceled: false });
    // it comes: the member has access again, and was never told it ended
    await jobsOf(t).runOnce();
    expect((await rowsOfSession(t, sessionId))[0]!.expiresAt!.getTime()).toBeGreaterThan(row!.expiresAt!.getTime());
    await passAt(new Date(time.now().getTime() + 60_000));
    expect(await templates(member)).not.toContain('access_ended');
    time.set(new Date());
  });

  it('after a stop, the first pass sends the "ends on" and "ended" mails missed meanwhile, once each; an end older than three days is history', async () => {
    // a paid plan canceled at its period end, and two members with complimentary access
    const paid = email('gap-paid');
    const paidCookie = await signUp(t, paid);
    const [row] = await rowsOfSession(t, await buy(t, paid, { planType: 'monthly' }, paidCookie));
    expect((await t.request(`/api/sandbox/portal/${row!.providerCustomerId}/subscriptions/${row!.providerSubscriptionId}/cancel`, { body: {} })).status).toBe(200);
    const restartAt = new Date(row!.expiresAt!.getTime() + DAY_MS);
    const compMember = async (name: string, until: Date) => {
      const address = email(name);
      const userId = await userIdOf(t, await signUp(t, address));
      await t.services.entitlements.write((writer) => writer.giveComp(userId, until));
      return { address, userId };
    };
    const endingSoon = await compMember('gap-ending', new Date(restartAt.getTime() + 2 * DAY_MS));
    const longEnded = await compMember('gap-long-ended', new Date(restartAt.getTime() - 5 * DAY_MS));

    // the last pass before the stop: none of these is due yet
    await passAt(new Date(restartAt.getTime() - 10 * DAY_MS));
    for (const address of [endingSoon.address, longEnded.address]) expect(await templates(address)).toEqual([]);

    // ten days later another instance starts (the watch's position is in the database) and passes twice
    time.set(restartAt);
    const restarted = composeEntitlements({ db: db(), clock: time.clock, logger: t.deps.logger, subscribers: [accessMails({ db: db(), mailer: t.deps.mailer })] });
    await restarted.accessChanges.runOnce();
    time.advance(60_000);
    await restarted.accessChanges.runOnce();

    expect(await templates(paid)).toEqual(['receipt', 'access_ended']);
    expect(await templates(endingSoon.address)).toEqual(['comp_ending']);
    // ended five days before the restart: the integrations hear of it, the member gets no mail
    expect(await templates(longEnded.address)).toEqual([]);
    expect((await changesOfMember(db(), longEnded.userId, 1))[0]).toMatchObject({ kind: 'ended', complimentary: true });
    time.set(new Date());
  });

  it('a notice an earlier version\'s schedule already wrote is not written again: the dedupe key is still per row and period end', async () => {
    const member = email('upgraded');
    const cookie = await signUp(t, member);
    const [row] = await rowsOfSession(t, await buy(t, member, { planType: 'monthly' }, cookie));
    expect((await t.request(`/api/sandbox/portal/${row!.providerCustomerId}/subscriptions/${row!.providerSubscriptionId}/cancel`, { body: {} })).status).toBe(200);
    const endsAt = row!.expiresAt!;
    await enqueueMail(db(), { template: 'access_ending', to: member, data: { planType: 'monthly', endsAt: endsAt.toISOString() }, dedupeKey: mailKeys.accessEnding(row!.id, endsAt) });

    await passAt(new Date(endsAt.getTime() - 2 * DAY_MS));
    expect((await changesOfMember(db(), await userIdOf(t, cookie), 1))[0]).toMatchObject({ kind: 'ending_soon', rowId: row!.id });
    expect(await templates(member)).toEqual(['receipt', 'access_ending']);
    time.set(new Date());
  });
});
