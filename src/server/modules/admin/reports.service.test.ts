// The overview's numbers on a seeded shop, at a fixed instant: paid, refunded, duplicate,
// disputed, past-due, churned, lifetime and comp members, each counted where it belongs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Overview } from '@shared/admin-contract';
import { ADVERTISED_PRICES, type PlanType } from '@shared/plans';
import type { Db } from '../../db/client';
import { checkoutSessions, orders, user, userSubscriptions } from '../../db/schema';
import { createTestDatabase } from '../../test-support/test-database';
import type { Database } from '../../db/client';
import { createReportsService } from './reports.service';

const NOW = new Date('2026-06-15T12:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000);
const inDays = (days: number) => daysAgo(-days);

let database: Database;
let overview: Overview;

async function member(db: Db, email: string, joined: Date): Promise<string> {
  const [row] = await db.insert(user).values({ email, name: email, createdAt: joined, updatedAt: joined }).returning({ id: user.id });
  return row!.id;
}

type Purchase = {
  userId: string | null;
  plan: PlanType;
  amount: number;
  paidAt: Date;
  orderStatus?: string;
  duplicateStatus?: 'refunded' | 'refund_pending';
  /** The subscription row it made; none for an order alone. */
  row?: { status: string; isActive: boolean; expiresAt: Date | null; updatedAt?: Date; revokedReason?: 'refunded' | 'duplicate' };
};

let sessions = 0;
async function purchase(db: Db, p: Purchase): Promise<void> {
  const sessionId = `cs_seed_${++sessions}`;
  await db.insert(checkoutSessions).values({
    id: sessionId,
    provider: 'sandbox',
    planType: p.plan,
    status: 'complete',
    paymentStatus: 'paid',
    amountTotal: p.amount,
    currency: 'usd',
    duplicateStatus: p.duplicateStatus ?? null,
    createdAt: p.paidAt,
    updatedAt: p.paidAt,
  });
  const [order] = await db
    .insert(orders)
    .values({ userId: p.userId, checkoutSessionId: sessionId, planType: p.plan, amount: p.amount, currency: 'usd', status: p.orderStatus ?? 'paid', createdAt: p.paidAt })
    .returning({ id: orders.id });
  if (!p.row) return;
  await db.insert(userSubscriptions).values({
    userId: p.userId,
    planType: p.plan,
    status: p.row.status,
    isActive: p.row.isActive,
    expiresAt: p.row.expiresAt,
    provider: 'sandbox',
    orderId: order!.id,
    checkoutSessionId: sessionId,
    providerSubscriptionId: p.plan === 'lifetime' ? null : `sub_${sessionId}`,
    revokedReason: p.row.revokedReason ?? null,
    createdAt: p.paidAt,
    updatedAt: p.row.updatedAt ?? p.paidAt,
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  const a = await member(db, 'a-monthly@example.com', daysAgo(0.5));
  const b = await member(db, 'b-yearly@example.com', daysAgo(10));
  const c = await member(db, 'c-lifetime@example.com', daysAgo(40));
  const d = await member(db, 'd-refunded@example.com', daysAgo(5));
  const f = await member(db, 'f-comp@example.com', daysAgo(60));
  const g = await member(db, 'g-past-due@example.com', daysAgo(35));
  const h = await member(db, 'h-churned@example.com', daysAgo(50));
  const i = await member(db, 'i-disputed@example.com', daysAgo(3));

  await purchase(db, { userId: a, plan: 'monthly', amount: 3600, paidAt: daysAgo(0.25), row: { status: 'active', isActive: true, expiresAt: inDays(30) } });
  // a's second monthly payment: a duplicate, refunded in full
  await purchase(db, {
    userId: a,
    plan: 'monthly',
    amount: 3600,
    paidAt: daysAgo(0.2),
    orderStatus: 'refunded',
    duplicateStatus: 'refunded',
    row: { status: 'canceled', isActive: false, expiresAt: inDays(30), revokedReason: 'duplicate' },
  });
  await purchase(db, { userId: b, plan: 'yearly', amount: 20400, paidAt: daysAgo(10), row: { status: 'active', isActive: true, expiresAt: inDays(355) } });
  await purchase(db, { userId: c, plan: 'lifetime', amount: 54999, paidAt: daysAgo(40), row: { status: 'active', isActive: true, expiresAt: null } });
  await purchase(db, {
    userId: d,
    plan: 'quarterly',
    amount: 7200,
    paidAt: daysAgo(5),
    orderStatus: 'refunded',
    row: { status: 'active', isActive: false, expiresAt: inDays(85), updatedAt: daysAgo(1), revokedReason: 'refunded' },
  });
  await db.insert(userSubscriptions).values({
    userId: f,
    planType: 'monthly',
    provider: 'comp',
    status: 'canceled',
    cancelAtPeriodEnd: true,
    isActive: true,
    expiresAt: inDays(10),
    createdAt: daysAgo(1),
    updatedAt: daysAgo(1),
  });
  await purchase(db, { userId: g, plan: 'monthly', amount: 3600, paidAt: daysAgo(35), row: { status: 'past_due', isActive: true, expiresAt: inDays(2) } });
  await purchase(db, { userId: h, plan: 'monthly', amount: 3600, paidAt: daysAgo(50), row: { status: 'canceled', isActive: false, expiresAt: daysAgo(10), updatedAt: daysAgo(10) } });
  await purchase(db, { userId: i, plan: 'yearly', amount: 20400, paidAt: daysAgo(3), orderStatus: 'disputed' });

  overview = await createReportsService({ db, clock: () => NOW, prices: ADVERTISED_PRICES }).overview();
});
afterAll(async () => {
  await database.close();
});

describe('overview', () => {
  it('counts revenue of paid orders only, by plan and currency, in each period', () => {
    expect(overview.revenue.today).toEqual([{ plan: 'monthly', currency: 'usd', amount: 3600, orders: 1 }]);
    expect(overview.revenue.days7).toEqual([{ plan: 'monthly', currency: 'usd', amount: 3600, orders: 1 }]);
    expect(overview.revenue.days30).toEqual([
      { plan: 'monthly', currency: 'usd', amount: 3600, orders: 1 },
      { plan: 'yearly', currency: 'usd', amount: 20400, orders: 1 },
    ]);
  });

  it('counts members with access by plan, comp apart, the refunded and churned ones not at all', () => {
    expect(overview.activeMembers).toEqual([
      { plan: 'comp', members: 1 },
      { plan: 'lifetime', members: 1 },
      { plan: 'monthly', members: 2 },
      { plan: 'yearly', members: 1 },
    ]);
  });

  it('normalises renewing plans to a month; lifetime, comp and a failing renewal bring no MRR', () => {
    // monthly 3600 + yearly 20400 / 12
    expect(overview.mrr).toEqual([{ currency: 'usd', amount: 3600 + 1700 }]);
  });

  it('counts new members (first access in 30 days) and churned ones (access then, none now)', () => {
    expect(overview.newMembers).toEqual({ count: 4, since: '2026-05-17' });
    expect(overview.churnedMembers).toBe(1);
  });

  it('counts refunds (duplicates included) and disputes with their amounts', () => {
    expect(overview.refunds).toEqual({ count: 2, amounts: [{ currency: 'usd', amount: 3600 + 7200 }] });
    expect(overview.disputes).toEqual({ count: 1, amounts: [{ currency: 'usd', amount: 20400 }] });
  });

  it('lists the payments that need attention', () => {
    expect(overview.attention).toEqual({ duplicatesRefunded: 1, duplicatesPending: 0, failedRenewals: 1 });
  });

  it('charts 90 days of revenue and members with access', () => {
    expect(overview.chart).toHaveLength(90);
    expect(overview.chart.at(-1)).toEqual({ day: '2026-06-15', revenue: { usd: 3600 }, members: 5 });
    expect(overview.chart.find((point) => point.day === '2026-06-05')?.revenue).toEqual({ usd: 20400 });
    // 20 days ago: c (lifetime), g (past due, paid 35 days ago), h (until 10 days ago); f's comp starts later
    expect(overview.chart.find((point) => point.day === '2026-05-26')).toEqual({ day: '2026-05-26', revenue: {}, members: 3 });
  });
});
