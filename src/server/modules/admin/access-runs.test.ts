// The overview's chart of members with access and its member movement are counted in the
// database (reports.repository's accessRuns, decision 037). They must say what the rules in
// src/shared/admin-reports say of the same access spans: checked on spans that start and end on
// day boundaries, at the chart's first day, at the 30-day mark and at the clock, on refunded,
// comp, lifetime and open rows, on members with overlapping, touching and separate spans, and
// on 150 random members, a third of their instants on those edges.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastDays, periodStart, startOfDay } from '@shared/admin-reports';
import { activeMembersPerDay, memberMovement, type AccessSpan } from '../../test-support/member-count-rules';
import { ADVERTISED_PRICES, type PlanType } from '@shared/plans';
import type { Overview } from '@shared/admin-contract';
import type { Database, Db } from '../../db/client';
import { user, userSubscriptions } from '../../db/schema';
import { createTestDatabase } from '../../test-support/test-database';
import { createReportsService } from './reports.service';

const NOW = new Date('2026-06-15T12:00:00Z');
const DAY = 86_400_000;
const CHART_START = startOfDay(NOW, 89);
const SINCE = periodStart(NOW, 'days30');
const at = (base: Date, days: number) => new Date(base.getTime() + days * DAY);

type Row = { planType: PlanType; provider: string; isActive: boolean; expiresAt: Date | null; createdAt: Date; updatedAt: Date };

/** The row's stretch of access, as the overview defines it (reports.repository). */
function spanOf(userId: string, row: Row): AccessSpan {
  const until = row.isActive
    ? row.planType === 'lifetime'
      ? null
      : row.expiresAt
    : new Date(Math.min((row.expiresAt ?? row.updatedAt).getTime(), row.updatedAt.getTime()));
  return { userId, from: row.createdAt, until };
}

const row = (createdAt: Date, until: Date | null, overrides: Partial<Row> = {}): Row => ({
  planType: 'monthly',
  provider: 'sandbox',
  isActive: true,
  expiresAt: until,
  createdAt,
  updatedAt: createdAt,
  ...overrides,
});

/** Members with the rows each holds: the edges first, then random ones. */
function members(): Row[][] {
  const edges: Row[][] = [
    [row(CHART_START, at(CHART_START, 1))],
    [row(CHART_START, CHART_START)],
    [row(at(CHART_START, -10), at(CHART_START, -0.001))],
    [row(at(CHART_START, -10), at(CHART_START, -1)), row(at(SINCE, 2), at(NOW, 20))],
    [row(SINCE, at(SINCE, 3))],
    [row(at(SINCE, -5), SINCE)],
    [row(at(SINCE, -5), at(SINCE, 0.001))],
    [row(at(SINCE, -1), NOW)],
    [row(at(NOW, -0.2), at(NOW, 0.01))],
    [row(startOfDay(NOW), startOfDay(NOW, -1))],
    [row(at(CHART_START, 40), at(NOW, 300), { planType: 'lifetime' })],
    [row(at(CHART_START, 40), null, { planType: 'lifetime', isActive: false, updatedAt: at(CHART_START, 70) })],
    [row(at(CHART_START, 20), null)],
    [row(at(CHART_START, 50), at(NOW, 60), { isActive: false, updatedAt: at(CHART_START, 55) })],
    [row(at(CHART_START, 50), at(CHART_START, 52), { isActive: false, updatedAt: at(CHART_START, 80) })],
    [row(at(CHART_START, 30), at(NOW, 10), { provider: 'comp' })],
    [row(at(CHART_START, 10), at(CHART_START, 30)), row(at(CHART_START, 20), at(CHART_START, 45))],
    [row(at(CHART_START, 10), at(CHART_START, 30)), row(at(CHART_START, 30), at(CHART_START, 45))],
    [row(at(CHART_START, 10), at(CHART_START, 20)), row(at(CHART_START, 60), at(NOW, 5)), row(at(CHART_START, 12), at(CHART_START, 15))],
    [row(at(CHART_START, 70), at(CHART_START, 60))],
    [row(at(NOW, 3), at(NOW, 30))],
  ];
  // a fixed sequence, so a failure repeats
  let seed = 29;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  // a third of the instants on an edge: a midnight, the chart's first day, the 30-day mark, the clock
  const edge = () => [startOfDay(NOW, Math.floor(random() * 130) - 10), CHART_START, SINCE, NOW][Math.floor(random() * 4)]!;
  const moment = () => (random() < 0.3 ? edge() : at(NOW, -130 + random() * 150));
  const randomRows = Array.from({ length: 150 }, () =>
    Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
      const createdAt = moment();
      const ends = random() < 0.15 ? null : random() < 0.3 ? edge() : at(createdAt, random() < 0.2 ? -random() * 5 : random() * 60);
      const planType: PlanType = random() < 0.1 ? 'lifetime' : 'monthly';
      return row(createdAt, ends, { planType, isActive: random() < 0.7, updatedAt: at(createdAt, random() * 40), provider: random() < 0.1 ? 'comp' : 'sandbox' });
    }),
  );
  return [...edges, ...randomRows];
}

let database: Database;
let overview: Overview;
const spans: AccessSpan[] = [];

async function addMember(db: Db, index: number, rows: Row[]): Promise<void> {
  const [created] = await db
    .insert(user)
    .values({ email: `runs-${index}@example.com`, name: `runs ${index}` })
    .returning({ id: user.id });
  const userId = created!.id;
  for (const subscription of rows) {
    await db.insert(userSubscriptions).values({ userId, status: subscription.isActive ? 'active' : 'canceled', ...subscription });
    spans.push(spanOf(userId, subscription));
  }
}

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  for (const [index, rows] of members().entries()) await addMember(db, index, rows);
  // a row of no member counts nowhere
  await db.insert(userSubscriptions).values({ userId: null, status: 'active', ...row(at(CHART_START, 5), null) });
  overview = await createReportsService({ db, clock: () => NOW, prices: ADVERTISED_PRICES }).overview();
});
afterAll(async () => {
  await database.close();
});

describe("the overview's members counted in the database", () => {
  // the spans the rules were given before: those still open at the chart's first day
  const kept = () => spans.filter((span) => span.until === null || span.until.getTime() >= CHART_START.getTime());

  it('charts the members with access at the end of each day as the rule counts them', () => {
    const days = lastDays(NOW, 90);
    expect(overview.chart.map((point) => ({ day: point.day, members: point.members }))).toEqual(activeMembersPerDay(days, kept()));
  });

  it('counts new and churned members as the rule does', () => {
    const movement = memberMovement(kept(), SINCE, NOW);
    expect({ newMembers: overview.newMembers.count, churned: overview.churnedMembers }).toEqual(movement);
  });

  it('is checked on members who move: some new, some churned, the chart not flat', () => {
    expect(overview.newMembers.count).toBeGreaterThan(5);
    expect(overview.churnedMembers).toBeGreaterThan(5);
    expect(new Set(overview.chart.map((point) => point.members)).size).toBeGreaterThan(10);
  });
});
