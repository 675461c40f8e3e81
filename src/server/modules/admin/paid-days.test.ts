// The overview's revenue comes from paid orders stored per past day (migration 0064) plus today's.
// Whatever is written afterwards (orders paid, refunded, disputed, moved to another day, repriced,
// deleted, history imported in the past, the clock crossing midnight), the overview must say what
// summing every order afresh says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { dailyTotals, dayKey, lastDays, revenueByPeriod, startOfDay } from '@shared/admin-reports';
import { ADVERTISED_PRICES } from '@shared/plans';
import type { Database, Db } from '../../db/client';
import { orders } from '../../db/schema';
import { queryRows } from '../../db/query';
import { createTestDatabase } from '../../test-support/test-database';
import { paidOrdersByDay } from './reports.repository';
import { createReportsService } from './reports.service';

const START = new Date('2026-06-15T12:00:00Z');
const DAY = 86_400_000;
const at = (base: Date, days: number) => new Date(base.getTime() + days * DAY);

let database: Database;
let db: Db;
let clock = START;

// a fixed sequence, so a failure repeats
let seed = 41;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
/** An instant around the clock, a third of them on a midnight, a few ahead of it. */
const moment = () => (random() < 0.3 ? startOfDay(clock, Math.floor(random() * 100) - 3) : at(clock, -95 + random() * 97));
const STATUSES = ['paid', 'paid', 'paid', 'refunded', 'disputed', 'pending'];

const randomOrder = () => ({
  planType: pick(['monthly', 'yearly', 'lifetime'] as const),
  amount: 100 + Math.floor(random() * 9_000),
  currency: pick(['usd', 'eur']),
  status: pick(STATUSES),
  createdAt: moment(),
});

/** The revenue lines and the chart's revenue summed afresh from every order, as before migration 0064. */
async function summed() {
  const days = await paidOrdersByDay(db, startOfDay(clock, 89));
  return { revenue: revenueByPeriod(days, clock), chart: dailyTotals(lastDays(clock, 90), days).map((point) => point.totals) };
}

async function shown() {
  const overview = await createReportsService({ db, clock: () => clock, prices: ADVERTISED_PRICES }).overview();
  return { revenue: overview.revenue, chart: overview.chart.map((point) => point.revenue) };
}

const storedDays = async () => Number((await queryRows<{ days: string | number }>(db, sql`SELECT count(*) AS days FROM paid_orders_by_day`))[0]!.days);

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await db.insert(orders).values(Array.from({ length: 150 }, randomOrder));
});
afterAll(async () => {
  await database.close();
});

describe("the overview's stored paid days", () => {
  it('store the past days once and give what summing afresh gives', async () => {
    const first = await shown();
    expect(first).toEqual(await summed());
    expect(first.chart.some((totals) => Object.keys(totals).length > 0)).toBe(true);
    expect(await storedDays()).toBe(89);
    // the second overview reads the stored days, and stores nothing again
    const computed = await queryRows<{ at: string }>(db, sql`SELECT max(computed_at)::text AS at FROM paid_orders_by_day`);
    expect(await shown()).toEqual(first);
    expect(await queryRows<{ at: string }>(db, sql`SELECT max(computed_at)::text AS at FROM paid_orders_by_day`)).toEqual(computed);
  });

  it('follow an order refunded on a past day and history imported in the past', async () => {
    const before = await shown();
    const [old] = await queryRows<{ id: string }>(db, sql`SELECT id FROM orders WHERE status = 'paid' AND created_at < ${startOfDay(clock, 1)} AND created_at >= ${startOfDay(clock, 29)} LIMIT 1`);
    await db.execute(sql`UPDATE orders SET status = 'refunded' WHERE id = ${old!.id}`);
    await db.insert(orders).values({ planType: 'yearly', amount: 12_345, currency: 'usd', status: 'paid', createdAt: at(clock, -40) });
    const after = await shown();
    expect(after).toEqual(await summed());
    expect(after.revenue.days30).not.toEqual(before.revenue.days30);
  });

  it('follow every kind of write to the orders, the clock moving across midnights and within a day', async () => {
    const steps = [0.1, 0.3, 0.7, 1, 0.05, 2.5, 0.4, 30, 0.6];
    for (let round = 0; round < 60; round++) {
      const rows = await db.select({ id: orders.id }).from(orders);
      const { id } = pick(rows);
      const where = sql`id = ${id}`;
      const write = pick([
        () => db.insert(orders).values(randomOrder()),
        () => db.execute(sql`UPDATE orders SET status = ${pick(STATUSES)} WHERE ${where}`),
        () => db.execute(sql`UPDATE orders SET created_at = ${moment()} WHERE ${where}`),
        () => db.execute(sql`UPDATE orders SET amount = amount + 1 WHERE ${where}`),
        () => db.execute(sql`UPDATE orders SET plan_type = ${pick(['monthly', 'yearly', 'lifetime'])} WHERE ${where}`),
        () => db.execute(sql`UPDATE orders SET currency = ${pick(['usd', 'eur'])} WHERE ${where}`),
        () => db.execute(sql`UPDATE orders SET amount_tax = 7 WHERE ${where}`),
        () => db.execute(sql`DELETE FROM orders WHERE ${where}`),
      ]);
      await write();
      if (round % 4 === 3) clock = at(clock, pick(steps));
      expect({ round, day: dayKey(clock), ...(await shown()) }).toEqual({ round, day: dayKey(clock), ...(await summed()) });
    }
  });

  it('start again when the orders are emptied', async () => {
    await shown();
    expect(await storedDays()).toBeGreaterThan(0);
    await db.execute(sql`TRUNCATE orders CASCADE`);
    expect(await storedDays()).toBe(0);
    await db.insert(orders).values({ planType: 'monthly', amount: 2_900, currency: 'usd', status: 'paid', createdAt: at(clock, -2) });
    const after = await shown();
    expect(after).toEqual(await summed());
    expect(after.revenue.days7).toEqual([{ plan: 'monthly', currency: 'usd', amount: 2_900, orders: 1 }]);
  });
});
