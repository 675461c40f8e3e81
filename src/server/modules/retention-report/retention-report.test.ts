// The Retention page's numbers through the whole app: three members of one cohort (one stays, one
// cancels through the cancellation flow, one's payment fails) give the cohort table, churn by kind,
// MRR movement, LTV, refund rate, revenue per code and affiliate; the snapshot is read for an hour,
// then counted again; bad ranges are refused with a clear 400.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { addMonths, monthKey, monthStart, retentionReportSchema } from '@shared/retention-report';
import { affiliateAttributions, affiliates, cancellations, orders, trials, user, userSubscriptions } from '../../db/schema';
import { consoleSuite, type ConsoleSuite } from '../../test-support/admin-test-kit';
import { DAY_MS } from '../../test-support/billing-test-kit';
import type { TestApp } from '../../test-support/test-app';

let t: TestApp;
let operator: string;
let member: string;
let time: ConsoleSuite['time'];
consoleSuite((suite) => ({ t, operator, member, time } = suite));

const db = () => t.deps.database.db;
const MONTH_MS = 31 * DAY_MS;

type Seed = { firstPaidAt: Date; until: Date; status?: string; cancelAtPeriodEnd?: boolean; orderStatus?: string; promotionCode?: string };

/** A member with a first order, a monthly subscription row from then until `until`, as billing writes them. */
async function seed({ firstPaidAt, until, status = 'active', cancelAtPeriodEnd = false, orderStatus = 'paid', promotionCode }: Seed) {
  const userId = randomUUID();
  const email = `cohort-${userId.slice(0, 8)}@example.com`;
  const subscriptionId = `sub_${userId.slice(0, 12)}`;
  await db().insert(user).values({ id: userId, name: 'cohort', email, createdAt: firstPaidAt });
  const [order] = await db()
    .insert(orders)
    .values({ userId, planType: 'monthly', amount: promotionCode ? 2800 : 2900, amountDiscount: promotionCode ? 100 : 0, promotionCode: promotionCode ?? null, currency: 'usd', status: orderStatus, providerSubscriptionId: subscriptionId, createdAt: firstPaidAt })
    .returning({ id: orders.id });
  await db().insert(userSubscriptions).values({ userId, planType: 'monthly', status, cancelAtPeriodEnd, expiresAt: until, orderId: order!.id, provider: 'sandbox', providerSubscriptionId: subscriptionId, createdAt: firstPaidAt });
  return { userId, email, subscriptionId };
}

async function report(query = '') {
  const response = await t.request(`/api/admin/retention/report${query}`, { cookie: operator });
  expect(response.status, await response.clone().text()).toBe(200);
  return retentionReportSchema.parse(await response.json());
}

describe('the retention report', () => {
  it('refuses a range it cannot show with a clear 400, and members with 403', async () => {
    const current = monthKey(time.now());
    const cases: [string, string][] = [
      ['?from=2026-13', 'A month is written YYYY-MM, e.g. 2026-03.'],
      ['?to=march', 'A month is written YYYY-MM, e.g. 2026-03.'],
      [`?to=${addMonths(current, 1)}`, `The range cannot end after the current month (${current}).`],
      [`?from=${current}&to=${addMonths(current, -1)}`, `The range starts (${current}) after it ends (${addMonths(current, -1)}).`],
      [`?from=${addMonths(current, -24)}`, `The range reaches back at most 24 months: start at ${addMonths(current, -23)} or later.`],
    ];
    for (const [query, message] of cases) {
      const response = await t.request(`/api/admin/retention/report${query}`, { cookie: operator });
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message, query).toBe(message);
    }
    expect((await t.request('/api/admin/retention/report?days=5', { cookie: operator })).status).toBe(400);
    expect((await t.request('/api/admin/retention/report', { cookie: member })).status).toBe(403);
  });

  it('counts a cohort, churn by kind and reason, MRR movement, LTV, refunds, trials, codes and affiliates; the snapshot lasts an hour', async () => {
    // the snapshot's hour below must not cross a month's end, where a new month is counted at once
    const twoHoursOn = new Date(time.now().getTime() + 2 * 60 * 60 * 1000);
    if (monthKey(twoHoursOn) !== monthKey(time.now())) time.set(new Date(monthStart(monthKey(twoHoursOn)).getTime() + 60 * 60 * 1000));
    const cohort = addMonths(monthKey(time.now()), -3);
    const start = monthStart(cohort);
    const next = addMonths(cohort, 1);
    // stays: paid with a code, renewed a month later, access beyond now
    const stays = await seed({ firstPaidAt: new Date(start.getTime() + 2 * DAY_MS), until: new Date(time.now().getTime() + 20 * DAY_MS), promotionCode: 'SPRING' });
    await db().insert(orders).values({ userId: stays.userId, planType: 'monthly', amount: 2900, currency: 'usd', status: 'paid', providerSubscriptionId: stays.subscriptionId, createdAt: new Date(start.getTime() + 2 * DAY_MS + MONTH_MS) });
    // cancels at period end through the flow: access ends 40 days after the cohort's first day
    const cancels = await seed({ firstPaidAt: new Date(start.getTime() + 3 * DAY_MS), until: new Date(start.getTime() + 40 * DAY_MS), status: 'canceled', cancelAtPeriodEnd: true });
    await db().insert(cancellations).values({ userId: cancels.userId, provider: 'sandbox', providerSubscriptionId: cancels.subscriptionId, planType: 'monthly', reason: 'not_trading', outcome: 'declined', state: 'done', createdAt: new Date(start.getTime() + 20 * DAY_MS) });
    // payment failed: Stripe canceled it after its retries, 20 days in; the order was refunded
    await seed({ firstPaidAt: new Date(start.getTime() + 5 * DAY_MS), until: new Date(start.getTime() + 20 * DAY_MS), status: 'canceled', orderStatus: 'refunded' });
    // the stayer came through an affiliate
    const affiliateUser = randomUUID();
    await db().insert(user).values({ id: affiliateUser, name: 'affiliate', email: `aff-${affiliateUser.slice(0, 8)}@example.com` });
    const [affiliate] = await db().insert(affiliates).values({ userId: affiliateUser, email: `aff-${affiliateUser.slice(0, 8)}@example.com`, code: 'ALICE', joinedBy: 'test' }).returning({ id: affiliates.id });
    await db().insert(affiliateAttributions).values({ email: stays.email, affiliateId: affiliate!.id, source: 'link' });
    // a trial that converted in the cohort's next month
    const trialAt = new Date(monthStart(next).getTime() + DAY_MS);
    await db().insert(trials).values({ provider: 'sandbox', providerSubscriptionId: `sub_trial_${randomUUID().slice(0, 8)}`, email: 'trial@example.com', emailIdentity: 'trial@example.com', planType: 'monthly', amount: 2900, currency: 'usd', days: 7, startedAt: new Date(trialAt.getTime() - 7 * DAY_MS), endsAt: trialAt, outcome: 'converted', outcomeAt: trialAt });

    const numbers = await report(`?from=${cohort}`);
    expect(numbers.from).toBe(cohort);
    const row = numbers.cohorts.find((entry) => entry.cohort === cohort)!;
    expect(row.members).toBe(3);
    expect(row.after.slice(0, 2)).toEqual([
      { after: 1, eligible: 3, retained: 2, share: 66.7 },
      { after: 2, eligible: 3, retained: 1, share: 33.3 },
    ]);

    const churnOf = (month: string) => numbers.churn.find((entry) => entry.month === month)!;
    expect(churnOf(cohort)).toMatchObject({ payingAtStart: 0, involuntary: 1, voluntary: 0, rate: null });
    expect(churnOf(next)).toMatchObject({ payingAtStart: 2, voluntary: 1, involuntary: 0, rate: 50 });
    expect(numbers.reasons.find((entry) => entry.reason === 'not_trading')).toEqual({ reason: 'not_trading', total: 1, declined: 1, discount: 0, pause: 0 });

    const mrrOf = (month: string) => numbers.mrr.find((entry) => entry.month === month && entry.currency === 'usd')!;
    expect(mrrOf(cohort)).toMatchObject({ start: 0, new: 5800, churn: 0, end: 5800 });
    expect(mrrOf(next)).toMatchObject({ start: 5800, churn: -2900, end: 2900 });

    expect(numbers.lifetimeValue).toEqual([{ plan: 'monthly', currency: 'usd', members: 3, revenue: 2800 + 2900 + 2900, perMember: 2867 }]);
    expect(numbers.reversals.find((entry) => entry.month === cohort)).toMatchObject({ orders: 3, refunded: 1, refundRate: 33.3, disputed: 0 });
    expect(numbers.trials.find((entry) => entry.month === next)).toEqual({ month: next, converted: 1, canceled: 0, rate: 100 });
    expect(numbers.promotions).toEqual([{ code: 'SPRING', currency: 'usd', orders: 1, revenue: 2800, discount: 100 }]);
    expect(numbers.affiliates).toEqual([{ code: 'ALICE', currency: 'usd', orders: 2, revenue: 5700 }]);

    // a member who joins now is in the next snapshot, not in this hour's
    await seed({ firstPaidAt: new Date(start.getTime() + 6 * DAY_MS), until: new Date(time.now().getTime() + DAY_MS) });
    const members = async () => (await report(`?from=${cohort}`)).cohorts.find((entry) => entry.cohort === cohort)!.members;
    expect(await members()).toBe(3);
    // an hour on, the old snapshot is still answered while the new one is counted beside it
    time.advance(61 * 60 * 1000);
    expect(await members()).toBe(3);
    await expect.poll(members).toBe(4);
    expect(new Date((await report()).computedAt).getTime()).toBe(time.now().getTime());

    // a snapshot stored by an older version of its shape is counted again, not misread
    await db().execute(sql`UPDATE retention_report_snapshots SET snapshot = jsonb_set(snapshot, '{version}', '0')`);
    time.advance(60_000);
    expect(new Date((await report()).computedAt).getTime()).toBe(time.now().getTime());
  });

  it("counts a row from a month's first instant in that month, and not in the month it ends on the first instant of", async () => {
    const month = addMonths(monthKey(time.now()), -10);
    const next = addMonths(month, 1);
    await seed({ firstPaidAt: monthStart(month), until: monthStart(next), status: 'canceled', cancelAtPeriodEnd: true });
    time.advance(61 * 60 * 1000);
    const payingAt = async (of: string) => (await report(`?from=${month}&to=${next}`)).churn.find((entry) => entry.month === of)!.payingAtStart;
    await expect.poll(() => payingAt(month)).toBe(1);
    const numbers = await report(`?from=${month}&to=${next}`);
    expect(await payingAt(next)).toBe(0);
    expect(numbers.cohorts).toEqual([{ cohort: month, members: 1, after: expect.arrayContaining([{ after: 1, eligible: 1, retained: 0, share: 0 }]) }]);
    expect(numbers.mrr.find((entry) => entry.month === month && entry.currency === 'usd')).toMatchObject({ start: 2900, churn: -2900, end: 0 });
    expect(numbers.churn.find((entry) => entry.month === next)).toMatchObject({ voluntary: 1 });
  });
});
