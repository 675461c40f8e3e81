// The Retention page's report (decision 057): the grouped counts of the last REPORT_MONTHS_MAX
// months are computed into one snapshot row, and each request builds the months asked for from
// that row with the pure rules of src/shared/retention-report.ts. At 100,000 members the counts
// take seconds; reading the row takes a millisecond. A snapshot older than an hour is still
// answered while a new one is counted beside it, so only the first request of a month (or ever)
// waits for the count.
import { planPeriodInterval, planTypes } from '@shared/plans';
import { addMonths, monthKey, monthsBetween, monthStart, REPORT_MONTHS_MAX, reportRange, retentionReport, SNAPSHOT_VERSION, type RetentionReport, type RetentionReportQuery, type RetentionSnapshot } from '@shared/retention-report';
import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import { serverError } from '../../http/server-errors';
import {
  affiliateRevenue,
  cancellationCounts,
  churnedCounts,
  cohortCounts,
  lifetimeValues,
  mrrPairs,
  orderCounts,
  payingAtStart,
  promotionRevenue,
  readSnapshot,
  saveSnapshot,
  trialOutcomes,
} from './retention-report.repository';

/** How old a snapshot may be before a request has a new one counted. */
export const SNAPSHOT_MAX_AGE_MS = 60 * 60 * 1000;

export function createRetentionReportService(deps: { db: Db; clock: () => Date; logger: Logger }) {
  const { db, clock, logger } = deps;
  // one computation at a time per instance: requests during it wait for its result
  let computing: Promise<RetentionSnapshot> | null = null;

  async function compute(now: Date): Promise<RetentionSnapshot> {
    const current = monthKey(now);
    const firstMonth = addMonths(current, -(REPORT_MONTHS_MAX - 1));
    const since = monthStart(firstMonth);
    const months = monthsBetween(firstMonth, current);
    const planMonths = planTypes().flatMap((plan) => {
      const interval = planPeriodInterval(plan);
      return interval ? [{ plan, months: interval.months }] : [];
    });
    const [cohorts, churned, paying, mrr, cancellations, lifetimeValue, trials, orders, promotions, affiliates] = await Promise.all([
      cohortCounts(db, { since, now, maxAfter: REPORT_MONTHS_MAX - 1 }),
      churnedCounts(db, { since, now }),
      payingAtStart(db, months, now),
      mrrPairs(db, months, now, planMonths),
      cancellationCounts(db, since),
      lifetimeValues(db),
      trialOutcomes(db, since),
      orderCounts(db, since),
      promotionRevenue(db, since),
      affiliateRevenue(db, since),
    ]);
    const snapshot: RetentionSnapshot = { version: SNAPSHOT_VERSION, computedAt: now.toISOString(), firstMonth, ...cohorts, churned, payingAtStart: paying, mrr, cancellations, lifetimeValue, trials, orders, promotions, affiliates };
    await saveSnapshot(db, snapshot);
    return snapshot;
  }

  function recount(now: Date): Promise<RetentionSnapshot> {
    computing ??= compute(now).finally(() => {
      computing = null;
    });
    return computing;
  }

  async function currentSnapshot(now: Date): Promise<RetentionSnapshot> {
    const stored = await readSnapshot(db);
    // one of another month lacks the current one; one of another version is not understood
    if (!stored || stored.version !== SNAPSHOT_VERSION || monthKey(new Date(stored.computedAt)) !== monthKey(now)) return recount(now);
    const age = now.getTime() - new Date(stored.computedAt).getTime();
    // older than an hour (or "from the future": a clock set back): answered, and counted again beside
    if (age < 0 || age >= SNAPSHOT_MAX_AGE_MS) {
      recount(now).catch((error: unknown) => logger.warn({ err: error }, 'retention snapshot not counted; the page shows the previous one'));
    }
    return stored;
  }

  return {
    /** The months asked for (400 for a range that cannot be shown), from the newest snapshot. */
    async report(query: RetentionReportQuery): Promise<RetentionReport> {
      const now = clock();
      const range = reportRange(query, now);
      if ('error' in range) throw serverError('invalidBody', range.error);
      return retentionReport(await currentSnapshot(now), range);
    },
  };
}

export type RetentionReportService = ReturnType<typeof createRetentionReportService>;
