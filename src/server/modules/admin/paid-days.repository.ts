// The overview's revenue: the paid orders of past days as stored once per day (paid_orders_by_day,
// migration 0064) plus today's as they are. The stored lines are what paidOrdersByDay sums; the
// trigger of migration 0064 forgets the days a write changes.
import { sql } from 'drizzle-orm';
import { dayKey, type PaidDay } from '@shared/admin-reports';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/query';
import { paidOrdersByDay } from './reports.repository';

/** The lock the trigger takes shared while it forgets days; storing them takes it alone. */
const STORE_LOCK = 2026113001;
const DAY_MS = 86_400_000;

type Lines = Omit<PaidDay, 'day'>[];

/**
 * The paid orders of every UTC day from `since` (a UTC midnight) on, per plan and currency: the
 * days before `today` (a UTC midnight) from the stored lines, those missing summed and stored
 * first, today's and any later read from the orders. What paidOrdersByDay(since) says, line for line.
 */
export async function paidDays(db: Db, range: { since: Date; today: Date }): Promise<PaidDay[]> {
  const { since, today } = range;
  const [stored, live] = await Promise.all([storedDays(db, since, today), paidOrdersByDay(db, today)]);
  const missing = pastDays(since, today).filter((day) => !stored.has(day));
  if (missing.length > 0) for (const [day, lines] of await storeDays(db, since, missing)) stored.set(day, lines);
  return [...[...stored].flatMap(([day, lines]) => lines.map((line) => ({ day, ...line }))), ...live];
}

function pastDays(since: Date, today: Date): string[] {
  const days: string[] = [];
  for (let at = since.getTime(); at < today.getTime(); at += DAY_MS) days.push(dayKey(new Date(at)));
  return days;
}

async function storedDays(db: Db, since: Date, today: Date): Promise<Map<string, Lines>> {
  const rows = await queryRows<{ day: string; lines: Lines }>(
    db,
    sql`SELECT day::text, lines FROM paid_orders_by_day WHERE day >= ${dayKey(since)}::date AND day < ${dayKey(today)}::date`,
  );
  return new Map(rows.map((row) => [row.day, row.lines]));
}

/**
 * Sums the `days` (UTC dates, oldest first) and stores them, holding the lock no order write that
 * changes a paid order passes meanwhile: what is stored is what the orders say when this commits.
 * Days before `since` are dropped on the way: no overview reads them again.
 */
async function storeDays(db: Db, since: Date, days: readonly string[]): Promise<Map<string, Lines>> {
  const from = new Date(`${days[0]}T00:00:00Z`);
  const until = new Date(new Date(`${days.at(-1)}T00:00:00Z`).getTime() + DAY_MS);
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${STORE_LOCK})`);
    const summed = await paidOrdersByDay(tx, from, until);
    const byDay = new Map<string, Lines>(days.map((day) => [day, []]));
    for (const { day, ...line } of summed) byDay.get(day)?.push(line);
    const values = [...byDay].map(([day, lines]) => sql`(${day}::date, ${JSON.stringify(lines)}::jsonb)`);
    await tx.execute(sql`DELETE FROM paid_orders_by_day WHERE day < ${dayKey(since)}::date`);
    await tx.execute(sql`INSERT INTO paid_orders_by_day (day, lines) VALUES ${sql.join(values, sql`, `)}
      ON CONFLICT (day) DO UPDATE SET lines = excluded.lines, computed_at = now()`);
    return byDay;
  });
}
