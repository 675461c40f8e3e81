// The schedule every community integration's reconciler shares. Each pass resyncs every linked
// member at most once per sweep interval (a backstop for a missed access change), audits the
// community at most once per audit interval, then works through up to a batch of due rows; a full
// batch means more wait, so the next pass runs at once.
import type { Logger } from '../logger';
import { createBackgroundLoop, type BackgroundLoop } from './background-loop';

export type ReconcilerRunSummary = { processed: number; succeeded: number; failed: number };

/** What a community's reconciler does, step by step; the loop decides when. */
export type CommunityReconcilerSteps<Row> = {
  linkedMembers: () => Promise<string[]>;
  /** Recomputes what one member's accounts should hold from their access now. */
  syncUser: (userId: string) => Promise<void>;
  /** Reads the whole community and repairs drift both ways. */
  audit: () => Promise<unknown>;
  /** Leases the next row whose community state is due (null when none is). */
  claimNextDue: () => Promise<Row | null>;
  /** Brings the community in line with one leased row; true when it did. */
  processRow: (row: Row) => Promise<boolean>;
};

export type CommunityReconcilerSchedule = {
  /** Names the loop in the logs: "<name> reconciler pass failed", "<name> audit failed; …". */
  name: string;
  logger: Logger;
  clock: () => Date;
  auditIntervalMs: number;
  intervalMs?: number;
  batchSize?: number;
  sweepIntervalMs?: number;
};

export type CommunityReconcilerLoop = BackgroundLoop & { runOnce: () => Promise<ReconcilerRunSummary> };

export function communityReconcilerLoop<Row>(steps: CommunityReconcilerSteps<Row>, schedule: CommunityReconcilerSchedule): CommunityReconcilerLoop {
  const { name, logger, clock, auditIntervalMs } = schedule;
  const batchSize = schedule.batchSize ?? 25;
  const sweepIntervalMs = schedule.sweepIntervalMs ?? 15 * 60_000;
  let lastSweepAt: number | null = null;
  let lastAuditAt: number | null = null;

  async function runOnce(): Promise<ReconcilerRunSummary> {
    const summary: ReconcilerRunSummary = { processed: 0, succeeded: 0, failed: 0 };
    const now = clock().getTime();
    if (lastSweepAt === null || now - lastSweepAt >= sweepIntervalMs) {
      lastSweepAt = now;
      for (const userId of await steps.linkedMembers()) await steps.syncUser(userId);
    }
    if (lastAuditAt === null || now - lastAuditAt >= auditIntervalMs) {
      lastAuditAt = now;
      // the community may be down for a while: the due rows are still worked through
      await steps.audit().catch((error: unknown) => logger.warn({ err: error instanceof Error ? error.message : String(error) }, `${name} audit failed; next interval tries again`));
    }
    while (summary.processed < batchSize) {
      const row = await steps.claimNextDue();
      if (!row) break;
      summary.processed += 1;
      if (await steps.processRow(row)) summary.succeeded += 1;
      else summary.failed += 1;
    }
    return summary;
  }

  const loop = createBackgroundLoop({ pass: async () => (await runOnce()).processed >= batchSize, intervalMs: schedule.intervalMs ?? 30_000, logger, label: `${name} reconciler` });
  return { ...loop, runOnce };
}
