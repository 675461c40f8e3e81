// The cancellation flow through the whole app on the sandbox provider: a member gives a reason and
// pauses (access to the period's end, nothing charged for the months chosen, a notice before it
// resumes, charged again after), another declines and ends at the period's end, a third takes the
// retention discount once; the console sets the offers and lists the reasons and pauses; bad input
// (a 10,000-character note, an offer taken twice, a pause of lifetime) is refused and changes nothing.
import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { cancellationOptionsSchema, cancellationsReportSchema, retentionOffersSchema } from '@shared/retention-contract';
import { cancellations, outbox, sandboxInvoices, sandboxSubscriptions, userSubscriptions } from '../../db/schema';
import { consoleSuite, type ConsoleSuite } from '../../test-support/admin-test-kit';
import { buy, DAY_MS, jobsOf, sandboxOf, signUp, userIdOf } from '../../test-support/billing-test-kit';
import type { TestApp } from '../../test-support/test-app';
import { runMailSchedule } from '../mail/mail-schedule';

let t: TestApp;
let operator: string;
let time: ConsoleSuite['time'];
consoleSuite((suite) => ({ t, operator, time } = suite));

const db = () => t.deps.database.db;

async function member(planType: 'monthly' | 'lifetime' = 'monthly') {
  const email = `retention-${randomUUID().slice(0, 8)}@example.com`;
  const cookie = await signUp(t, email);
  const userId = await userIdOf(t, cookie);
  await buy(t, email, { planType }, cookie);
  await jobsOf(t).runOnce();
  const [row] = await db().select().from(userSubscriptions).where(eq(userSubscriptions.userId, userId));
  return { email, cookie, userId, subscriptionId: row!.providerSubscriptionId };
}

const choose = (cookie: string, body: unknown) => t.request('/api/cancellation', { cookie, body });
const rowOf = async (userId: string) => (await db().select().from(userSubscriptions).where(eq(userSubscriptions.userId, userId)))[0]!;
const sandboxSub = async (id: string) => (await db().select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, id)))[0]!;
const recordsOf = (userId: string) => db().select().from(cancellations).where(eq(cancellations.userId, userId));

async function report(query = '') {
  const response = await t.request(`/api/admin/cancellations${query}`, { cookie: operator });
  expect(response.status).toBe(200);
  return cancellationsReportSchema.parse(await response.json());
}

describe('the cancellation flow', () => {
  it('offers each reason its offer: a pause for "Not trading now", half off for "Too expensive", none for the rest', async () => {
    const { cookie } = await member();
    const response = await t.request('/api/cancellation', { cookie });
    expect(response.status).toBe(200);
    const options = cancellationOptionsSchema.parse(await response.json());
    expect(options.blocked).toBeNull();
    expect(options.subscription?.planType).toBe('monthly');
    expect(options.offers).toEqual({ too_expensive: { kind: 'discount', percentOff: 50, periods: 2 }, not_trading: { kind: 'pause', months: 3 }, missing_features: null, technical_problems: null, switching: null, other: null });
  });

  it('a member who is not trading pauses for 2 months: access to the period end, nothing charged, a notice, then charged again', async () => {
    const { cookie, userId, subscriptionId, email } = await member();
    const before = await rowOf(userId);
    const periodEnd = before.expiresAt!;
    const answer = await choose(cookie, { reason: 'not_trading', choice: 'pause', pauseMonths: 2 });
    expect(answer.status, await answer.clone().text()).toBe(200);
    expect((await answer.json()).outcome).toBe('pause');

    const sub = await sandboxSub(subscriptionId!);
    expect(sub.pausedAccess).toBe('stop');
    expect(sub.pauseAccessUntil?.toISOString()).toBe(periodEnd.toISOString());
    expect(sub.metadata).toMatchObject({ cancellation_reason: 'not_trading', retention_outcome: 'pause' });
    const row = await rowOf(userId);
    expect(row).toMatchObject({ isActive: true, collectionPaused: true, cancelAtPeriodEnd: false });
    expect(row.expiresAt?.toISOString()).toBe(periodEnd.toISOString());

    // taken twice: refused, nothing applied again
    const again = await choose(cookie, { reason: 'not_trading', choice: 'pause', pauseMonths: 2 });
    expect(again.status).toBe(409);
    expect((await again.json()).error.message).toMatch(/already paused/);
    expect(await recordsOf(userId)).toHaveLength(1);

    // the console sees the reason and the pause
    const seen = await report(`?userId=${userId}`);
    expect(seen.entries).toEqual([expect.objectContaining({ email, reason: 'not_trading', outcome: 'pause', pauseMonths: 2 })]);
    expect(seen.byReason.find((line) => line.reason === 'not_trading')).toMatchObject({ pause: 1, declined: 0 });

    // the period ends: the renewal is voided and access stops
    time.set(new Date(periodEnd.getTime() + 60_000));
    await jobsOf(t).runOnce();
    expect((await rowOf(userId)).isActive).toBe(false);
    const invoicesAfterFirst = await db().select().from(sandboxInvoices).where(eq(sandboxInvoices.subscriptionId, subscriptionId!));
    expect(invoicesAfterFirst).toHaveLength(1);
    // (the operator's session is a month old by now: the service answers what the page would)
    expect((await t.services.retention.report({ days: 90, userId })).pausedNow).toBe(1);

    // three days before it resumes: one notice, however many passes
    const resumesAt = (await sandboxSub(subscriptionId!)).pauseResumesAt!;
    time.set(new Date(resumesAt.getTime() - 2 * DAY_MS));
    await jobsOf(t).runOnce();
    await runMailSchedule(db(), time.now());
    await runMailSchedule(db(), time.now());
    const notices = await db().select().from(outbox).where(and(eq(outbox.to, email), eq(outbox.template, 'pause_resuming')));
    expect(notices).toHaveLength(1);
    expect((await rowOf(userId)).isActive).toBe(false);

    // it resumes: charged again, access back
    time.set(new Date(resumesAt.getTime() + 60_000));
    await jobsOf(t).runOnce();
    await jobsOf(t).runOnce();
    const invoices = await db().select().from(sandboxInvoices).where(eq(sandboxInvoices.subscriptionId, subscriptionId!)).orderBy(asc(sandboxInvoices.createdAt));
    expect(invoices.filter((invoice) => invoice.status === 'paid')).toHaveLength(2);
    expect(await rowOf(userId)).toMatchObject({ isActive: true, collectionPaused: false });
    time.set(new Date());
  });

  it('a member who declines is canceled at the period end, with the reason mirrored as cancellation details', async () => {
    const { cookie, userId, subscriptionId } = await member();
    const answer = await choose(cookie, { reason: 'switching', text: '  Found a cheaper tool.  ', choice: 'declined' });
    expect(answer.status, await answer.clone().text()).toBe(200);
    const sub = await sandboxSub(subscriptionId!);
    expect(sub.cancelAtPeriodEnd).toBe(true);
    expect(sub.cancellationDetails).toEqual({ feedback: 'switched_service', comment: 'Found a cheaper tool.' });
    expect(await rowOf(userId)).toMatchObject({ isActive: true, cancelAtPeriodEnd: true });
    const [record] = await recordsOf(userId);
    expect(record).toMatchObject({ reason: 'switching', reasonText: 'Found a cheaper tool.', outcome: 'declined', state: 'done' });
    // a second time: already canceled
    const again = await choose(cookie, { reason: 'switching', choice: 'declined' });
    expect(again.status).toBe(409);
    expect((await again.json()).error.message).toMatch(/already canceled/);
  });

  it('the retention discount is taken once per member: its renewals are half off, a second one is refused', async () => {
    const { cookie, userId, subscriptionId } = await member();
    const answer = await choose(cookie, { reason: 'too_expensive', choice: 'discount' });
    expect(answer.status, await answer.clone().text()).toBe(200);
    const sub = await sandboxSub(subscriptionId!);
    expect(sub.promotionCodeId).toBe('promo_sbx_retention_50pct_2m');
    await sandboxOf(t).sandbox.advanceToPeriodEnd(sub.customerId, sub.id);
    const [renewal] = await db().select().from(sandboxInvoices).where(and(eq(sandboxInvoices.subscriptionId, sub.id), eq(sandboxInvoices.billingReason, 'subscription_cycle')));
    expect(renewal?.amountDue).toBe(Math.round(sub.unitAmount / 2));

    const options = cancellationOptionsSchema.parse(await (await t.request('/api/cancellation', { cookie })).json());
    expect(options.offers.too_expensive).toBeNull();
    const again = await choose(cookie, { reason: 'too_expensive', choice: 'discount' });
    expect(again.status).toBe(409);
    expect((await again.json()).error.message).toMatch(/already used/);
    expect(await recordsOf(userId)).toHaveLength(1);
  });

  it('refuses a note of 10,000 characters, an unknown reason, an offer of another reason and a pause of lifetime, keeping nothing', async () => {
    const { cookie, userId, subscriptionId } = await member();
    const long = await choose(cookie, { reason: 'other', text: 'x'.repeat(10_000), choice: 'declined' });
    expect(long.status).toBe(400);
    expect((await long.json()).error.message).toMatch(/500 characters/);
    expect((await choose(cookie, { reason: 'bored', choice: 'declined' })).status).toBe(400);
    const wrongOffer = await choose(cookie, { reason: 'missing_features', choice: 'pause', pauseMonths: 1 });
    expect(wrongOffer.status).toBe(409);
    const tooLong = await choose(cookie, { reason: 'not_trading', choice: 'pause', pauseMonths: 3 + 1 });
    expect(tooLong.status).toBe(400);
    expect(await recordsOf(userId)).toHaveLength(0);
    expect((await sandboxSub(subscriptionId!)).pausedAccess).toBeNull();

    const lifetime = await member('lifetime');
    const options = cancellationOptionsSchema.parse(await (await t.request('/api/cancellation', { cookie: lifetime.cookie })).json());
    expect(options.blocked).toMatch(/Lifetime/);
    const pause = await choose(lifetime.cookie, { reason: 'not_trading', choice: 'pause', pauseMonths: 1 });
    expect(pause.status).toBe(409);
    expect((await pause.json()).error.message).toMatch(/Lifetime is paid once/);
    expect(await recordsOf(lifetime.userId)).toHaveLength(0);
  });

  it('operators set the offers per reason; members and bad offers are refused', async () => {
    const offers = { too_expensive: { kind: 'discount', percentOff: 30, periods: 3 }, not_trading: { kind: 'pause', months: 2 }, missing_features: null, technical_problems: { kind: 'pause', months: 1 }, switching: null, other: null };
    const set = await t.request('/api/admin/retention/offers', { cookie: operator, method: 'PUT', body: offers });
    expect(set.status, await set.clone().text()).toBe(200);
    expect(retentionOffersSchema.parse(await set.json())).toEqual(offers);
    const bad = await t.request('/api/admin/retention/offers', { cookie: operator, method: 'PUT', body: { ...offers, not_trading: { kind: 'pause', months: 6 } } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toMatch(/at most 3 months/);
    const { cookie } = await member();
    expect((await t.request('/api/admin/retention/offers', { cookie, method: 'PUT', body: offers })).status).toBe(403);
    expect((await t.request('/api/admin/retention/offers', { cookie: operator })).status).toBe(200);
    const restored = { ...offers, too_expensive: { kind: 'discount', percentOff: 50, periods: 2 }, not_trading: { kind: 'pause', months: 3 }, technical_problems: null };
    expect((await t.request('/api/admin/retention/offers', { cookie: operator, method: 'PUT', body: restored })).status).toBe(200);
  });
});
