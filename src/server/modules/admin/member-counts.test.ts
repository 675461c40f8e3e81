// The overview's members come from counts stored per day (migration 0025) plus today's changes.
// Whatever is written afterwards (history written in the past, as an import or an operator
// does, rows switched off, moved to another member, deleted, the clock crossing midnight), the
// overview must say what counting every subscription afresh says (accessRuns, itself checked
// against the rules in access-runs.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { dayKey, lastDays, membersPerDayOfRuns, periodStart, startOfDay } from '@shared/admin-reports';
import { ADVERTISED_PRICES, type PlanType } from '@shared/plans';
import type { Database, Db } from '../../db/client';
import { user, userSubscriptions } from '../../db/schema';
import { queryRows } from '../../db/query';
import { createTestDatabase } from '../../test-support/test-database';
import { accessRuns } from './reports.repository';
import { createReportsService } from './reports.service';

const START = new Date('2026-06-15T12:00:00Z');
const DAY = 86_400_000;
const at = (base: Date, days: number) => new Date(base.getTime() + days * DAY);

let database: Database;
let db: Db;
let clock = START;
const members: string[] = [];

// a fixed sequence, so a failure repeats
let seed = 37;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
/** An instant around the clock, a third of them on a midnight. */
const moment = () => (random() < 0.3 ? startOfDay(clock, Math.floor(random() * 120) - 10) : at(clock, -110 + random() * 130));

function randomRow(userId: string | null) {
  const createdAt = moment();
  const isActive = random() < 0.6;
  const expiresAt = random() < 0.15 ? null : at(createdAt, random() < 0.2 ? -random() * 3 : random() * 60);
  const planType: PlanType = random() < 0.1 ? 'lifetime' : 'monthly';
  return {
    userId,
    status: isActive ? 'active' : 'canceled',
    planType,
    provider: 'sandbox',
    isActive,
    expiresAt,
    createdAt,
    updatedAt: at(createdAt, random() * 40),
  };
}

/** The chart and movement counted afresh from every subscription, as before migration 0025. */
async function counted(): Promise<{ members: number[]; newMembers: number; churned: number }> {
  const runs = await accessRuns(db, { chartStart: startOfDay(clock, 89), days: 90, since: periodStart(clock, 'days30'), now: clock });
  return { members: membersPerDayOfRuns(90, runs), newMembers: runs.reduce((sum, g) => sum + g.newMembers, 0), churned: runs.reduce((sum, g) => sum + g.churned, 0) };
}

async function shown(): Promise<{ members: number[]; newMembers: number; churned: number }> {
  const overview = await createReportsService({ db, clock: () => clock, prices: ADVERTISED_PRICES }).overview();
  expect(overview.chart.map((point) => point.day)).toEqual(lastDays(clock, 90));
  return { members: overview.chart.map((point) => point.members), newMembers: overview.newMembers.count, churned: overview.churnedMembers };
}

const storedDays = async () => (await queryRows<{ days: string | number }>(db, sql`SELECT count(*) AS days FROM member_counts_by_day`))[0]!.days;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  for (let index = 0; index < 60; index++) {
    const [created] = await db
      .insert(user)
      .values({ email: `counts-${index}@example.com`, name: `counts ${index}` })
      .returning({ id: user.id });
    members.push(created!.id);
    for (let row = 0; row < 1 + Math.floor(random() * 2); row++) await db.insert(userSubscriptions).values(randomRow(created!.id));
  }
});
afterAll(async () => {
  await database.close();
});

describe("the overview's stored member counts", () => {
  it('store the past days once and give what counting afresh gives', async () => {
    expect(await shown()).toEqual(await counted());
    expect(Number(await storedDays())).toBe(89);
    // the second overview reads the stored days
    expect(await shown()).toEqual(await counted());
  });

  it('follow history written in the past, as an import writes it', async () => {
    const before = await shown();
    const [imported] = await db.insert(user).values({ email: 'imported@example.com', name: 'imported' }).returning({ id: user.id });
    members.push(imported!.id);
    await db
      .insert(userSubscriptions)
      .values({ ...randomRow(imported!.id), isActive: false, status: 'canceled', createdAt: at(clock, -60), expiresAt: at(clock, -20), updatedAt: clock });
    const after = await shown();
    expect(after).toEqual(await counted());
    expect(after.members).not.toEqual(before.members);
  });

  it('follow every kind of write to the rows, the clock moving across midnights and within a day', async () => {
    const steps = [0.1, 0.3, 0.7, 1, 0.05, 2.5, 0.4, 30, 0.6];
    for (let round = 0; round < 60; round++) {
      const rows = await db.select({ id: userSubscriptions.id }).from(userSubscriptions);
      const { id } = pick(rows);
      const where = sql`id = ${id}`;
      const write = pick([
        () => db.insert(userSubscriptions).values(randomRow(pick(members))),
        () => db.insert(userSubscriptions).values(randomRow(null)),
        () => db.execute(sql`UPDATE user_subscriptions SET is_active = false, status = 'canceled', updated_at = ${moment()} WHERE ${where}`),
        () => db.execute(sql`UPDATE user_subscriptions SET is_active = true, status = 'active' WHERE ${where}`),
        () => db.execute(sql`UPDATE user_subscriptions SET expires_at = ${moment()} WHERE ${where}`),
        () => db.execute(sql`UPDATE user_subscriptions SET created_at = ${moment()} WHERE ${where}`),
        () => db.execute(sql`UPDATE user_subscriptions SET updated_at = ${moment()} WHERE ${where}`),
        () => db.execute(sql`UPDATE user_subscriptions SET plan_type = CASE WHEN plan_type = 'lifetime' THEN 'monthly' ELSE 'lifetime' END WHERE ${where}`),
        () => db.execute(sql`UPDATE user_subscriptions SET user_id = ${random() < 0.2 ? null : pick(members)} WHERE ${where}`),
        () => db.execute(sql`DELETE FROM user_subscriptions WHERE ${where}`),
      ]);
      await write();
      if (round % 4 === 3) clock = at(clock, pick(steps));
      expect({ round, day: dayKey(clock), ...(await shown()) }).toEqual({ round, day: dayKey(clock), ...(await counted()) });
    }
  });

  it('start again when the subscriptions are emptied', async () => {
    await shown();
    await db.execute(sql`TRUNCATE user_subscriptions CASCADE`);
    expect(Number(await storedDays())).toBe(0);
    expect(await shown()).toEqual(await counted());
  });
});
