// The overview's chart of members with access and its member movement, from the counts stored
// per day (member_counts_by_day, member_movement_by_day: migration 0025) plus today's changes,
// which only the few members whose access began or ended today can make. The stored counts are
// what accessRuns says; the trigger of migration 0025 forgets those a write changes.
import { sql } from 'drizzle-orm';
import { dayKey, membersPerDayOfRuns } from '@shared/admin-reports';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/query';
import { accessRuns } from './reports.repository';
import { accessSpans } from '../entitlements/entitlement-reads';

/** The lock the trigger takes shared while it forgets counts; filling them takes it alone. */
const FILL_LOCK = 2026112737;
const DAY_MS = 86_400_000;

export type MemberCounts = { members: number[]; newMembers: number; churned: number };

type Range = { chartStart: Date; days: number; since: Date; now: Date };

/**
 * The members with access on each of the chart's `days` days from `chartStart` (the last is today),
 * and the movement since `since`: what accessRuns counts for `now`, byte for byte.
 */
export async function memberCounts(db: Db, range: Range): Promise<MemberCounts> {
  const stored = await readCounts(db, range);
  if (stored) return stored;
  await fillCounts(db, range);
  // a write between the fill and this read can forget a count again: then count as before
  const filled = await readCounts(db, range);
  if (filled) return filled;
  const runs = await accessRuns(db, range);
  return countsOfRuns(range.days, runs);
}

function countsOfRuns(days: number, runs: Awaited<ReturnType<typeof accessRuns>>): MemberCounts {
  return {
    members: membersPerDayOfRuns(days, runs),
    newMembers: runs.reduce((sum, group) => sum + group.newMembers, 0),
    churned: runs.reduce((sum, group) => sum + group.churned, 0),
  };
}

const todayStart = (range: Range) => new Date(range.chartStart.getTime() + (range.days - 1) * DAY_MS);

const kept = (chartStart: Date, alias: string) => sql`(${sql.raw(alias)}."until" IS NULL OR ${sql.raw(alias)}."until" >= ${chartStart}::timestamptz)`;
const covers = (alias: string, at: Date) =>
  sql`(${sql.raw(alias)}."from" <= ${at}::timestamptz AND (${sql.raw(alias)}."until" IS NULL OR ${sql.raw(alias)}."until" > ${at}::timestamptz))`;
/** Access through the whole UTC day ending at `dayEnd`, as the chart counts a day. */
const coversDay = (dayEnd: Date) => sql`("from" < ${dayEnd}::timestamptz AND ("until" IS NULL OR "until" >= ${dayEnd}::timestamptz))`;

/** Members whose first access still open at the chart's first day began at `from` or later. */
const membersFirstFrom = (chartStart: Date, from: Date) =>
  sql`(SELECT count(DISTINCT s.user_id) FROM ${accessSpans} s WHERE s."from" >= ${from}::timestamptz AND ${kept(chartStart, 's')}
        AND NOT EXISTS (SELECT 1 FROM ${accessSpans} o WHERE o.user_id = s.user_id AND o."from" < ${from}::timestamptz AND ${kept(chartStart, 'o')}))`;

/**
 * The stored counts with today's changes, in one statement (one snapshot); null when some are not
 * stored. Today's changes come from the members with a stretch beginning or ending today, each
 * member's stretches read once by index (a lateral join): asked as `user_id IN (…)`, the planner
 * expected a few hundred such members, hashed them and scanned every subscription (a renewal day
 * at 100,000 members has 3,000: 363 ms of a 497 ms read). The chart's today and the churn since
 * today's start are counted in the same pass: a member whose stretches neither begin nor end
 * between today's start and now has the same access at both, and adds nothing to the churn.
 */
async function readCounts(db: Db, range: Range): Promise<MemberCounts | null> {
  const { chartStart, days, since, now } = range;
  const today = todayStart(range);
  const tomorrow = new Date(today.getTime() + DAY_MS);
  const [row] = await queryRows<{
    stored: number[];
    newBefore: number | null;
    churnedAtStart: number | null;
    todayChange: string | number;
    newToday: string | number;
    churnChange: string | number;
  }>(
    db,
    sql`SELECT
          array(SELECT members FROM member_counts_by_day WHERE day >= ${dayKey(chartStart)}::date AND day < ${dayKey(today)}::date ORDER BY day) AS stored,
          (SELECT new_members FROM member_movement_by_day WHERE day = ${dayKey(today)}::date) AS "newBefore",
          (SELECT churned FROM member_movement_by_day WHERE day = ${dayKey(today)}::date) AS "churnedAtStart",
          changes."todayChange", changes."churnChange",
          ${membersFirstFrom(chartStart, today)} AS "newToday"
        FROM (
          SELECT count(*) FILTER (WHERE today AND NOT yesterday) - count(*) FILTER (WHERE yesterday AND NOT today) AS "todayChange",
                 count(*) FILTER (WHERE was AND NOT has) - count(*) FILTER (WHERE was AND NOT had) AS "churnChange"
          FROM (SELECT DISTINCT user_id FROM ${accessSpans} changed
                WHERE ("from" >= ${today}::timestamptz AND "from" < ${tomorrow}::timestamptz) OR ("until" >= ${today}::timestamptz AND "until" < ${tomorrow}::timestamptz)) members
          CROSS JOIN LATERAL (
            SELECT bool_or(${coversDay(today)}) AS yesterday, bool_or(${coversDay(tomorrow)}) AS today,
                   bool_or(${covers('spans', since)}) AS was, bool_or(${covers('spans', today)}) AS had, bool_or(${covers('spans', now)}) AS has
            FROM ${accessSpans} spans WHERE spans.user_id = members.user_id) access
        ) changes`,
  );
  if (!row || row.stored.length !== days - 1 || row.newBefore === null || row.churnedAtStart === null) return null;
  const yesterday = row.stored[days - 2] ?? 0;
  return {
    members: [...row.stored, yesterday + Number(row.todayChange)],
    // counts arrive as bigint strings from pg
    newMembers: row.newBefore + Number(row.newToday),
    churned: row.churnedAtStart + Number(row.churnChange),
  };
}

/**
 * Counts the chart's past days and the movement at today's start once (accessRuns as of today's
 * midnight) and stores them, holding the lock no write that changes access passes meanwhile: what
 * is stored is what the subscriptions say when the fill commits.
 */
async function fillCounts(db: Db, range: Range): Promise<void> {
  const { chartStart, days, since } = range;
  const today = todayStart(range);
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${FILL_LOCK})`);
    const counts = countsOfRuns(days, await accessRuns(tx, { chartStart, days, since, now: today }));
    const [first] = await queryRows<{ count: string | number }>(tx, sql`SELECT ${membersFirstFrom(chartStart, today)} AS count`);
    const pastDays = counts.members.slice(0, days - 1).map((members, index) => sql`(${dayKey(new Date(chartStart.getTime() + index * DAY_MS))}::date, ${members})`);
    await tx.execute(sql`DELETE FROM member_counts_by_day WHERE day < ${dayKey(chartStart)}::date`);
    await tx.execute(sql`DELETE FROM member_movement_by_day WHERE day < ${dayKey(today)}::date`);
    await tx.execute(sql`INSERT INTO member_counts_by_day (day, members) VALUES ${sql.join(pastDays, sql`, `)}
      ON CONFLICT (day) DO UPDATE SET members = excluded.members, computed_at = now()`);
    await tx.execute(sql`INSERT INTO member_movement_by_day (day, new_members, churned)
      VALUES (${dayKey(today)}::date, ${counts.newMembers - Number(first?.count ?? 0)}, ${counts.churned})
      ON CONFLICT (day) DO UPDATE SET new_members = excluded.new_members, churned = excluded.churned, computed_at = now()`);
  });
}
