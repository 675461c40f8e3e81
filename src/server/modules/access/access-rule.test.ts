// The access rule has two forms, the SQL functions (subscription_grants_access and
// user_has_premium_access on top of it) and src/shared/access.ts; one table of rows goes through
// both, so neither can drift from the other without this failing.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessUntil, grantsAccess, hasPremiumAccess, lastsBeyond } from '@shared/access';
import { COMP_PROVIDER } from '@shared/admin-reports';
import type { PlanType } from '@shared/plans';
import type { Database } from '../../db/client';
import { queryRows } from '../../db/query';
import { user, userSubscriptions } from '../../db/schema';
import { createTestDatabase } from '../../test-support/test-database';
import { grantsAccessAt } from '../entitlements/entitlement-reads';
import { userHasPremiumAccess } from './access.repository';

const DAY = 86_400_000;
// A clock far from today: the row-level function must answer for the instant it is given.
const MOVED_CLOCK = new Date('2031-03-15T12:00:00.000Z');

type Row = {
  planType: PlanType;
  status: string;
  provider?: string;
  isActive: boolean;
  /** Milliseconds from the instant asked about to the expiry; null for no expiry. */
  expiresIn: number | null;
};

type Case = Row & { case: string; expected: boolean };

const CASES: Case[] = [
  { case: 'active monthly, expiry ahead', planType: 'monthly', status: 'active', isActive: true, expiresIn: DAY, expected: true },
  { case: 'active monthly, no expiry', planType: 'monthly', status: 'active', isActive: true, expiresIn: null, expected: true },
  { case: 'active monthly, expired', planType: 'monthly', status: 'active', isActive: true, expiresIn: -DAY, expected: false },
  { case: 'active monthly, expiring at the instant', planType: 'monthly', status: 'active', isActive: true, expiresIn: 0, expected: false },
  { case: 'active monthly, expiring a millisecond later', planType: 'monthly', status: 'active', isActive: true, expiresIn: 1, expected: true },
  { case: 'inactive monthly, expiry ahead', planType: 'monthly', status: 'active', isActive: false, expiresIn: DAY, expected: false },
  { case: 'inactive monthly, no expiry', planType: 'monthly', status: 'active', isActive: false, expiresIn: null, expected: false },
  { case: 'active lifetime, no expiry', planType: 'lifetime', status: 'active', isActive: true, expiresIn: null, expected: true },
  { case: 'active lifetime, a past expiry', planType: 'lifetime', status: 'active', isActive: true, expiresIn: -DAY, expected: true },
  { case: 'inactive lifetime', planType: 'lifetime', status: 'canceled', isActive: false, expiresIn: null, expected: false },
  { case: 'canceled yearly before expiry', planType: 'yearly', status: 'canceled', isActive: true, expiresIn: 30 * DAY, expected: true },
  { case: 'canceled quarterly after expiry', planType: 'quarterly', status: 'canceled', isActive: true, expiresIn: -DAY, expected: false },
  { case: 'canceled and switched off before expiry', planType: 'monthly', status: 'canceled', isActive: false, expiresIn: DAY, expected: false },
  { case: 'past_due in its grace period', planType: 'monthly', status: 'past_due', isActive: true, expiresIn: 3 * DAY, expected: true },
  { case: 'past_due after its grace period', planType: 'monthly', status: 'past_due', isActive: true, expiresIn: -DAY, expected: false },
  { case: 'past_due switched off', planType: 'monthly', status: 'past_due', isActive: false, expiresIn: DAY, expected: false },
  { case: 'trialing, expiry ahead', planType: 'monthly', status: 'trialing', isActive: true, expiresIn: 7 * DAY, expected: true },
  { case: 'trialing, no expiry', planType: 'yearly', status: 'trialing', isActive: true, expiresIn: null, expected: true },
  { case: 'incomplete, never switched on', planType: 'monthly', status: 'incomplete', isActive: false, expiresIn: DAY, expected: false },
  { case: 'unpaid but still flagged active', planType: 'monthly', status: 'unpaid', isActive: true, expiresIn: DAY, expected: true },
  { case: 'comp access before its end', planType: 'monthly', status: 'canceled', provider: COMP_PROVIDER, isActive: true, expiresIn: 10 * DAY, expected: true },
  { case: 'comp access after its end', planType: 'monthly', status: 'canceled', provider: COMP_PROVIDER, isActive: true, expiresIn: -DAY, expected: false },
  { case: 'comp access revoked', planType: 'monthly', status: 'canceled', provider: COMP_PROVIDER, isActive: false, expiresIn: 10 * DAY, expected: false },
  { case: 'EU monthly, expiry ahead', planType: 'euMonthly', status: 'active', isActive: true, expiresIn: DAY, expected: true },
  { case: 'EU quarterly, expired', planType: 'euQuarterly', status: 'active', isActive: true, expiresIn: -DAY, expected: false },
];

/** Several rows of one member: access when any of them grants it. */
const MEMBER_CASES: { case: string; rows: Row[]; expected: boolean }[] = [
  { case: 'no subscription at all', rows: [], expected: false },
  {
    case: 'an expired monthly beside an active lifetime',
    rows: [
      { planType: 'monthly', status: 'canceled', isActive: true, expiresIn: -DAY },
      { planType: 'lifetime', status: 'active', isActive: true, expiresIn: null },
    ],
    expected: true,
  },
  {
    case: 'a switched-off yearly beside an expired comp',
    rows: [
      { planType: 'yearly', status: 'canceled', isActive: false, expiresIn: DAY },
      { planType: 'monthly', status: 'canceled', provider: COMP_PROVIDER, isActive: true, expiresIn: -DAY },
    ],
    expected: false,
  },
];

const expiresAt = (row: Row, at: Date) => (row.expiresIn === null ? null : new Date(at.getTime() + row.expiresIn));

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

async function insertRows(userId: string | null, rows: Row[], at: Date): Promise<string[]> {
  const ids: string[] = [];
  for (const row of rows) {
    const [inserted] = await database.db
      .insert(userSubscriptions)
      .values({ userId, planType: row.planType, status: row.status, provider: row.provider ?? 'sandbox', isActive: row.isActive, expiresAt: expiresAt(row, at) })
      .returning({ id: userSubscriptions.id });
    ids.push(inserted!.id);
  }
  return ids;
}

async function newMember(): Promise<string> {
  const [member] = await database.db
    .insert(user)
    .values({ name: 'Member', email: `${crypto.randomUUID()}@example.com` })
    .returning({ id: user.id });
  return member!.id;
}

describe('one row at a moved clock: subscription_grants_access and grantsAccess', () => {
  it.each(CASES)('$case → $expected', async (row) => {
    const [id] = await insertRows(null, [row], MOVED_CLOCK);
    const [sqlAnswer] = await queryRows<{ access: boolean }>(
      database.db,
      sql`SELECT ${grantsAccessAt('s', MOVED_CLOCK)} AS access FROM user_subscriptions s WHERE s.id = ${id}::uuid`,
    );
    expect(sqlAnswer?.access).toBe(row.expected);
    expect(grantsAccess({ ...row, expiresAt: expiresAt(row, MOVED_CLOCK) }, MOVED_CLOCK)).toBe(row.expected);
  });
});

describe('one access_until per row: subscription_access_until and accessUntil (decision 059)', () => {
  it.each(CASES)('$case: grants access exactly while access_until lies ahead', async (row) => {
    const [id] = await insertRows(null, [row], MOVED_CLOCK);
    const [answer] = await queryRows<{ until: string | Date | null; access: boolean }>(
      database.db,
      sql`SELECT subscription_access_until(s.is_active, s.plan_type, s.expires_at, s.updated_at) AS until, ${grantsAccessAt('s', MOVED_CLOCK)} AS access
          FROM user_subscriptions s WHERE s.id = ${id}::uuid`,
    );
    const until = answer!.until === null ? null : new Date(answer!.until);
    if (row.isActive) {
      expect(until?.getTime() ?? null).toBe(accessUntil({ ...row, expiresAt: expiresAt(row, MOVED_CLOCK) })?.getTime() ?? null);
      expect(lastsBeyond(until, MOVED_CLOCK)).toBe(row.expected);
    } else {
      // switched off: its access ended when it was (updated_at, now), whatever the expiry
      expect(until).not.toBeNull();
      expect(until!.getTime()).toBeLessThanOrEqual(Date.now());
    }
    expect(answer!.access).toBe(row.expected);
  });
});

describe('a member today: user_has_premium_access and hasPremiumAccess', () => {
  // The SQL side reads now() at its own moment, so an expiry exactly at the instant would race.
  const today = [
    ...CASES.filter((row) => Math.abs(row.expiresIn ?? DAY) >= DAY).map((row) => ({ case: row.case, rows: [row], expected: row.expected })),
    ...MEMBER_CASES,
  ];

  it.each(today)('$case → $expected', async ({ rows, expected }) => {
    const userId = await newMember();
    const now = new Date();
    await insertRows(userId, rows, now);
    expect(await userHasPremiumAccess(database.db, userId)).toBe(expected);
    expect(hasPremiumAccess(rows.map((row) => ({ ...row, expiresAt: expiresAt(row, now) })), now)).toBe(expected);
  });

  it('leaves out rows that belong to someone else', async () => {
    const owner = await newMember();
    const other = await newMember();
    await insertRows(owner, [{ planType: 'lifetime', status: 'active', isActive: true, expiresIn: null }], new Date());
    expect(await userHasPremiumAccess(database.db, other)).toBe(false);
  });
});

describe('the rules inline into the query that asks them (migration 0061, decision 066)', () => {
  // Regression: from migration 0040 to 0061 each rule read one_time_plans in its own body, which
  // Postgres never inlines; every row a report or a standing filter read ran the function's own
  // executor (the console's overview went from 108 to 938 ms p95 at 100,000 members).
  const planOf = async (query: ReturnType<typeof sql>) =>
    (await queryRows<{ 'QUERY PLAN': string }>(database.db, sql`EXPLAIN (VERBOSE, COSTS OFF) ${query}`)).map((row) => row['QUERY PLAN']).join('\n');

  it('asks the plan catalogue only for a row whose expiry does not decide', async () => {
    const grants = await planOf(sql`SELECT count(*) FROM user_subscriptions s WHERE ${grantsAccessAt('s', MOVED_CLOCK)}`);
    expect(grants).not.toMatch(/subscription_grants_access|subscription_access_until/);
    expect(grants).toMatch(/expires_at IS NULL\) OR \(s\.expires_at > .*one_time_plan\(s\.plan_type\)/);
    const until = await planOf(sql`SELECT subscription_access_until(s.is_active, s.plan_type, s.expires_at, s.updated_at) FROM user_subscriptions s`);
    expect(until).not.toMatch(/subscription_access_until/);
  });
});
