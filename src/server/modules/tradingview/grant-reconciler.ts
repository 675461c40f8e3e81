import {
  currentTradingViewUsername,
  desiredGrant,
  effectiveTarget,
  formatGrantError,
  planGrantChanges,
  retryDelayMs,
  targetOf,
} from '@shared/tradingview-grants';
import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import {
  claimNextDue,
  createGrant,
  finishClaim,
  grantsForUser,
  lockUser,
  otherTargetsForUsername,
  setGrantTarget,
  settledGrants,
  subscriptionAccessRows,
  usersToSweep,
  usersWithPassedExpiry,
  type GrantRow,
} from './tradingview.repository';
import { toTradingViewError, type TradingViewPort } from './tradingview.port';

export type RunSummary = { processed: number; succeeded: number; failed: number; resynced: number };

export type GrantReconciler = {
  /** Recomputes what TradingView should hold for a member from their subscriptions (billing calls it after each event). */
  syncUser: (userId: string) => Promise<void>;
  /** One pass: resyncs expired and (periodically) all members, then works through due rows. */
  runOnce: () => Promise<RunSummary>;
  /**
   * Compares TradingView's own lists with the rows marked done and requeues what differs
   * (access removed by hand, a revoke undone); it never removes anyone on its own.
   */
  audit: () => Promise<{ requeued: number }>;
  start: () => void;
  stop: () => Promise<void>;
  /** Asks a started loop for a pass now, so a new grant does not wait for the next interval. */
  kick: () => void;
};

export type GrantReconcilerOptions = {
  db: Db;
  port: TradingViewPort;
  /** The indicators sold together: every grant and revoke covers all of them. */
  scriptIds: readonly string[];
  logger: Logger;
  clock: () => Date;
  intervalMs: number;
  /** How long a claimed row stays off limits to other reconcilers (longer than one row's calls). */
  leaseMs?: number;
  /** Rows per pass; a full pass schedules the next one at once. */
  batchSize?: number;
  /** How often every member is resynced, as a backstop for a missed syncUser call. */
  sweepIntervalMs?: number;
  /** How often the loop audits TradingView's lists (each costs a page per ~30 users per script). */
  auditIntervalMs?: number;
};

export const DEFAULT_LEASE_MS = 5 * 60_000;

export function createGrantReconciler(options: GrantReconcilerOptions): GrantReconciler {
  const { db, port, scriptIds, logger, clock } = options;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const batchSize = options.batchSize ?? 25;
  const sweepIntervalMs = options.sweepIntervalMs ?? 15 * 60_000;
  const auditIntervalMs = options.auditIntervalMs ?? 60 * 60_000;
  let lastSweepAt: number | null = null;
  let lastAuditAt: number | null = null;

  async function syncUser(userId: string): Promise<void> {
    const changed = await db.transaction(async (tx) => {
      if (!(await lockUser(tx, userId))) return false;
      const now = clock();
      const subscriptions = await subscriptionAccessRows(tx, userId);
      const username = currentTradingViewUsername(subscriptions);
      const target = desiredGrant(subscriptions, now);
      const changes = planGrantChanges(await grantsForUser(tx, userId), username, target);
      for (const change of changes) {
        if (change.kind === 'create') await createGrant(tx, userId, change.username, change.target, now);
        else await setGrantTarget(tx, change.id, change.target, now);
      }
      if (changes.length) logger.info({ userId, changes: changes.map((c) => ({ username: c.username, ...c.target })) }, 'tradingview grants updated');
      return changes.length > 0;
    });
    if (changed) kick();
  }

  async function processRow(row: GrantRow): Promise<boolean> {
    const others = await otherTargetsForUsername(db, row.username, row.id);
    const target = effectiveTarget(targetOf(row), others.map(targetOf));
    try {
      for (const scriptId of scriptIds) {
        if (target.desired === 'grant') await port.grant(scriptId, row.username, target.expiresAt);
        else await port.revoke(scriptId, row.username);
      }
    } catch (error) {
      // Never revoke because of a TradingView error: the row keeps its target and is retried.
      const failure = toTradingViewError(error);
      const log = failure.kind === 'session_expired' ? logger.error.bind(logger) : logger.warn.bind(logger);
      log(
        { grantId: row.id, userId: row.userId, username: row.username, desired: target.desired, kind: failure.kind, attempts: row.attempts + 1, err: failure.message },
        failure.kind === 'session_expired'
          ? 'TradingView session cookie expired: set new TRADINGVIEW_SESSION_ID and TRADINGVIEW_SESSION_SIGN'
          : 'tradingview grant attempt failed; will retry',
      );
      await finishClaim(
        db,
        row,
        { ok: false, lastError: formatGrantError(failure.kind, failure.message), retryAt: (attempts) => new Date(clock().getTime() + retryDelayMs(attempts)) },
        clock(),
      );
      return false;
    }
    const recorded = await finishClaim(db, row, { ok: true, applied: target }, clock());
    logger.info(
      { grantId: row.id, userId: row.userId, username: row.username, desired: target.desired, expiresAt: target.desired === 'grant' ? target.expiresAt : undefined, recorded },
      target.desired === 'grant' ? 'tradingview access granted' : 'tradingview access revoked',
    );
    return true;
  }

  async function runOnce(): Promise<RunSummary> {
    const summary: RunSummary = { processed: 0, succeeded: 0, failed: 0, resynced: 0 };
    const now = clock();
    const sweep = lastSweepAt === null || now.getTime() - lastSweepAt >= sweepIntervalMs;
    const users = sweep ? await usersToSweep(db) : await usersWithPassedExpiry(db, now);
    if (sweep) lastSweepAt = now.getTime();
    for (const userId of users) {
      await syncUser(userId);
      summary.resynced += 1;
    }
    while (summary.processed < batchSize) {
      const row = await claimNextDue(db, clock(), leaseMs);
      if (!row) break;
      summary.processed += 1;
      if (await processRow(row)) summary.succeeded += 1;
      else summary.failed += 1;
    }
    return summary;
  }

  async function audit(): Promise<{ requeued: number }> {
    const listed = new Map<string, Set<string>>();
    // A failed listing ends the audit with no change: an error is never a reason to act.
    for (const scriptId of scriptIds) listed.set(scriptId, new Set((await port.listUsers(scriptId)).map((u) => u.username.toLowerCase())));
    const holds = (username: string) => scriptIds.map((scriptId) => listed.get(scriptId)?.has(username.toLowerCase()) === true);
    const rows = await settledGrants(db);
    const wanted = new Set(rows.filter((row) => row.desired === 'grant').map((row) => row.username.toLowerCase()));
    const now = clock();
    let requeued = 0;
    for (const row of rows) {
      const present = holds(row.username);
      const drifted =
        row.desired === 'grant'
          ? // an expired grant is left to the expiry resync, which revokes it
            (row.desiredExpiresAt === null || row.desiredExpiresAt > now) && present.includes(false)
          : present.includes(true) && !wanted.has(row.username.toLowerCase());
      if (!drifted) continue;
      await setGrantTarget(db, row.id, targetOf(row), now);
      requeued += 1;
      logger.warn({ grantId: row.id, userId: row.userId, username: row.username, desired: row.desired }, 'tradingview access differs from our records; requeued');
    }
    return { requeued };
  }

  // ---------------------------------------------------------------- the loop

  let started = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let inFlight: Promise<void> | null = null;
  let kicked = false;

  function schedule(delayMs: number) {
    if (!started) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(tick, delayMs);
    timer.unref?.();
  }

  function tick() {
    timer = null;
    if (!started || inFlight) return;
    kicked = false;
    inFlight = pass()
      .then(
        (more) => more,
        (error: unknown) => {
          logger.error({ err: error }, 'tradingview reconciler pass failed');
          return false;
        },
      )
      .then((more) => {
        inFlight = null;
        schedule(more || kicked ? 0 : options.intervalMs);
      });
  }

  async function pass(): Promise<boolean> {
    const summary = await runOnce();
    const now = clock().getTime();
    if (lastAuditAt === null || now - lastAuditAt >= auditIntervalMs) {
      lastAuditAt = now;
      await audit().catch((error: unknown) => logger.warn({ err: toTradingViewError(error).message }, 'tradingview audit skipped'));
    }
    return summary.processed >= batchSize;
  }

  function kick() {
    if (!started) return;
    if (inFlight) kicked = true;
    else schedule(0);
  }

  return {
    syncUser,
    runOnce,
    audit,
    kick,
    start() {
      if (started) return;
      started = true;
      void port.healthCheck().then(
        (health) => {
          if (health.ok) logger.info({ adapter: port.kind }, 'tradingview reachable');
          else logger.error({ adapter: port.kind, kind: health.kind, err: health.message }, 'tradingview health check failed');
        },
        (error: unknown) => logger.error({ err: error }, 'tradingview health check failed'),
      );
      schedule(0);
    },
    async stop() {
      started = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await inFlight;
    },
  };
}
