import {
  effectiveTarget,
  type ExistingGrant,
  formatGrantError,
  type GrantTarget,
  memberGrantChanges,
  retryDelayMs,
  targetOf,
  targetScripts,
} from '@shared/tradingview-grants';
import type { Db } from '../../db/client';
import { createBackgroundLoop } from '../../jobs/background-loop';
import type { Logger } from '../../logger';
import {
  claimNextDue,
  createGrant,
  finishClaim,
  findShopAccess,
  forgetShopAccess,
  lockMemberForSync,
  memberGrantStates,
  otherTargetsForUsername,
  recordShopAccess,
  renewClaim,
  setGrantTarget,
  settledGrants,
  shopAccessOf,
  shopUsernames,
  usersToSweep,
  type GrantRow,
} from './tradingview.repository';
import { isThrottle, toTradingViewError, type ShopAccess, type TradingViewError, type TradingViewPort } from './tradingview.port';
import { catalogScriptIds, readCatalog } from './script-catalog.repository';
import { clearSharedPause, readSharedPause, writeSharedPause, type QueuePause } from './queue-pause.repository';

export type RunSummary = { processed: number; succeeded: number; failed: number; resynced: number };


export type GrantReconciler = {
  /**
   * Recomputes what TradingView should hold for a member from their current username and their
   * subscriptions (billing calls it after each event, the username change after linking a name).
   */
  syncUser: (userId: string) => Promise<void>;
  /** One pass: resyncs (periodically) all members whose grants differ, then works through due rows. */
  runOnce: () => Promise<RunSummary>;
  /**
   * Compares TradingView's own lists with the rows marked done and requeues what differs
   * (access removed by hand, a revoke undone); it never removes anyone on its own.
   */
  audit: () => Promise<{ requeued: number }>;
  /** The queue's pause, if any (the console's TradingView page shows it). */
  paused: () => QueuePause | null;
  start: () => void;
  stop: () => Promise<void>;
  /** Asks a started loop for a pass now, so a new grant does not wait for the next interval. */
  kick: () => void;
};

export type GrantReconcilerOptions = {
  db: Db;
  port: TradingViewPort;
  /**
   * TRADINGVIEW_SCRIPT_IDS: the initial bundle of every plan (kept in the script catalog, where the
   * operator chooses each plan's scripts), and what rows from before bundles stand for.
   */
  scriptIds: readonly string[];
  logger: Logger;
  clock: () => Date;
  intervalMs: number;
  /**
   * How long a claimed row stays off limits to other reconcilers; renewed every `renewEveryMs`
   * while its TradingView calls run, so a crashed instance's row is free again soon.
   */
  leaseMs?: number;
  renewEveryMs?: number;
  /** Rows per pass; a full pass schedules the next one at once. */
  batchSize?: number;
  /**
   * Rows worked on at once. A row spends most of its time waiting on TradingView's answers, so
   * one at a time leaves the rate limit mostly unused (a sale's grants then queue for minutes);
   * the limit itself is kept by the throttle waits and the shared pause.
   */
  lanes?: number;
  /** How often every member is resynced, as a backstop for a missed syncUser call. */
  sweepIntervalMs?: number;
  /** Members a pass resyncs of a sweep before it works through due rows (a sweep spans passes). */
  sweepSlice?: number;
  /** How often the loop audits TradingView's lists (each costs a page per ~30 users per script). */
  auditIntervalMs?: number;
  /** While the session cookie is refused, how often it is checked again. */
  sessionProbeMs?: number;
  /**
   * A script's grant that failed on the network or with a 5xx is tried again this many times
   * within the claim (safe: a repeated add answers "exists", which reads the list before any change), after
   * `transientDelayMs`, doubled each time; only then does the row count a failure and back off.
   */
  transientRetries?: number;
  transientDelayMs?: number;
  /** How long after the grant queue last had work the audit waits before its next page. */
  auditYieldMs?: number;
  /** A 429 asking for no call before this (ms) is waited out within the row; a longer one pauses the queue. */
  throttleWaitInRowMs?: number;
};

/** Short throttles one row waits out before it is deferred (a limit that never lifts must not hold the lease for ever). */
const THROTTLE_WAITS_PER_ROW = 20;

export const DEFAULT_LANES = 4;

/** Short, and renewed while working: after a crash mid-grant another instance grants within a minute. */
export const DEFAULT_LEASE_MS = 30_000;

export function createGrantReconciler(options: GrantReconcilerOptions): GrantReconciler {
  const { db, port, scriptIds, logger, clock } = options;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const renewEveryMs = options.renewEveryMs ?? leaseMs / 3;
  const batchSize = options.batchSize ?? 25;
  const lanes = Math.max(1, options.lanes ?? DEFAULT_LANES);
  const sweepIntervalMs = options.sweepIntervalMs ?? 15 * 60_000;
  const auditIntervalMs = options.auditIntervalMs ?? 60 * 60_000;
  const sweepSlice = options.sweepSlice ?? 500;
  const sessionProbeMs = options.sessionProbeMs ?? 30_000;
  const transientRetries = options.transientRetries ?? 2;
  const transientDelayMs = options.transientDelayMs ?? 1_000;
  const auditYieldMs = options.auditYieldMs ?? 2_000;
  const throttleWaitInRowMs = options.throttleWaitInRowMs ?? 5_000;
  const initialBundle = [...scriptIds].sort();
  let lastSweepAt: number | null = null;
  // the sweep in progress: at 100,000 members it takes minutes, and new grants must not wait for it
  let sweeping: { ids: string[]; next: number; changed: number; startedAt: number } | null = null;
  let pause: QueuePause | null = null;
  let nextProbeAt = 0;
  // when the grant queue last claimed a row (wall time): the audit lets it go first
  let queueBusyAt = 0;
  let stopping = false;

  /**
   * A row from before bundles (no scripts) stands for the initial bundle: read as such, an
   * unchanged member's old row is no change (and costs no TradingView call).
   */
  const asBundled = <Grant extends ExistingGrant>(rows: Grant[]) => rows.map((row) => (row.desiredScripts === null ? { ...row, desiredScripts: initialBundle } : row));

  /** syncUser, saying whether anything changed. */
  async function resync(userId: string): Promise<boolean> {
    const changed = await db.transaction(async (tx) => {
      const member = await lockMemberForSync(tx, userId, scriptIds);
      if (!member) return false;
      const now = clock();
      // the current name gets what the subscriptions allow; every older name is revoked with it
      const changes = memberGrantChanges(asBundled(member.grants), member, member.catalog, now);
      for (const change of changes) {
        if (change.kind === 'create') await createGrant(tx, userId, change.username, change.target, now);
        else await setGrantTarget(tx, change.id, change.target, now);
      }
      if (changes.length) logger.info({ userId, changes: changes.map((c) => ({ username: c.username, ...c.target })) }, 'tradingview grants updated');
      return changes.length > 0;
    });
    if (changed) loop.kick();
    return changed;
  }

  async function syncUser(userId: string): Promise<void> {
    await resync(userId);
  }

  /**
   * The members of a sweep slice whose grants differ from what they should be, found from a few
   * reads for the whole slice: an unchanged member costs no query of its own. Only those found are
   * resynced (under their lock, from fresh reads), so a change made meanwhile is not lost.
   */
  async function differingMembers(userIds: string[]): Promise<string[]> {
    if (userIds.length === 0) return [];
    const catalog = await readCatalog(db, scriptIds);
    const states = await memberGrantStates(db, userIds);
    const now = clock();
    return userIds.filter((userId) => {
      const state = states.get(userId);
      return state !== undefined && memberGrantChanges(asBundled(state.grants), state, catalog, now).length > 0;
    });
  }

  /**
   * One script: the shop changes and removes only access it gave itself (tradingview_shop_access);
   * access the vendor gave by hand is left as it is, and forgotten as ours if it was. A script
   * outside the target's bundle is revoked, which touches only access the shop gave.
   */
  async function applyToScript(scriptId: string, row: GrantRow, target: GrantTarget, recorded?: ShopAccess | null): Promise<void> {
    const wanted = target.desired === 'grant' && targetScripts(target, scriptIds).includes(scriptId);
    const shop = recorded !== undefined ? recorded : await findShopAccess(db, scriptId, row.username);
    if (!wanted && !shop) return;
    if (wanted && !shop && target.expiresAt === null) await recordLifetimeAddAhead(scriptId, row.username);
    const outcome = wanted ? await port.grant(scriptId, row.username, target.expiresAt, shop) : await port.revoke(scriptId, row.username, shop);
    if (outcome === 'left_alone') {
      await forgetShopAccess(db, scriptId, row.username);
      logger.info({ grantId: row.id, username: row.username, scriptId, desired: wanted ? 'grant' : 'revoke' }, 'tradingview access given by hand left as it is');
    } else if (wanted) {
      await recordShopAccess(db, scriptId, row.username, target.expiresAt, clock());
    } else {
      await forgetShopAccess(db, scriptId, row.username);
    }
  }

  /**
   * Access without an expiry looks the same whether the vendor gave it by hand or the shop's own
   * add landed and its answer was lost: the retry would meet "exists" and leave it alone as the
   * vendor's, and a refund would then never take it back. So, once the list shows nobody holds it,
   * the shop records it as its own before the add is sent; the retry then finds it recorded. A
   * username already listed is the vendor's and is not recorded (the grant leaves it alone).
   */
  async function recordLifetimeAddAhead(scriptId: string, username: string): Promise<void> {
    const wanted = username.toLowerCase();
    const listed = await port.listUsers(scriptId, username);
    if (!listed.some((access) => access.username.toLowerCase() === wanted)) await recordShopAccess(db, scriptId, username, null, clock());
  }

  /** Keeps renewing the claim on `row` until the returned stop() (which gives the latest claim). */
  function holdLease(row: GrantRow): () => Promise<GrantRow> {
    let claim = row;
    let renewing: Promise<void> = Promise.resolve();
    const timer = setInterval(() => {
      renewing = renewing
        .then(async () => {
          claim = (await renewClaim(db, claim, new Date(clock().getTime() + leaseMs))) ?? claim;
        })
        .catch((error: unknown) => logger.warn({ err: error, grantId: row.id }, 'could not renew a tradingview grant lease'));
    }, renewEveryMs);
    timer.unref?.();
    return async () => {
      clearInterval(timer);
      await renewing;
      return claim;
    };
  }

  /** A failure that is TradingView's state, not the grant's: the queue pauses, the grant waits. */
  const pausesQueue = (failure: TradingViewError) => isThrottle(failure) || failure.kind === 'session_expired';

  /** The pause this instance met, told to every instance (a failure to tell it only costs them a call of their own). */
  async function pauseQueue(failure: TradingViewError): Promise<QueuePause> {
    const met = meetPause(failure);
    await writeSharedPause(db, met).catch((error: unknown) => logger.warn({ err: error }, 'could not share the tradingview queue pause'));
    return met;
  }

  function meetPause(failure: TradingViewError): QueuePause {
    const now = clock();
    const reason = isThrottle(failure) ? 'throttled' : 'session_expired';
    const until = reason === 'throttled' ? new Date(now.getTime() + (failure.retryAfterMs ?? sessionProbeMs)) : null;
    // a later Retry-After extends the pause; an earlier one leaves it
    if (pause?.reason === reason && (until === null || (pause.until && pause.until >= until))) return pause;
    if (pause?.reason !== reason) {
      (reason === 'throttled' ? logger.warn.bind(logger) : logger.error.bind(logger))(
        { reason, until: until?.toISOString(), err: failure.message },
        reason === 'throttled' ? 'tradingview grant queue paused: TradingView throttled us' : 'tradingview grant queue paused: the session cookie expired; set new TRADINGVIEW_SESSION_ID and TRADINGVIEW_SESSION_SIGN',
      );
    }
    if (reason === 'session_expired') nextProbeAt = now.getTime() + sessionProbeMs;
    pause = { reason, since: pause?.reason === reason ? pause.since : now, until, detail: failure.message };
    return pause;
  }

  /**
   * Another instance's pause holds this one too: it makes no call until the throttle's end, or its
   * own session check a probe interval on.
   */
  async function adoptSharedPause(): Promise<void> {
    const shared = await readSharedPause(db);
    if (!shared) return;
    // the pause held already lasts as long (a throttle extended by its instance keeps its start, so the end decides)
    if (pause?.reason === shared.reason && (shared.until === null || (pause.until !== null && shared.until <= pause.until))) return;
    if (!pause) logger.info({ reason: shared.reason, until: shared.until?.toISOString() }, 'tradingview grant queue paused by another instance');
    if (shared.reason === 'session_expired' && pause?.reason !== 'session_expired') nextProbeAt = clock().getTime() + sessionProbeMs;
    pause = shared;
  }

  /** Whether the queue is still paused; an expired session is checked again every sessionProbeMs. */
  async function stillPaused(): Promise<boolean> {
    await adoptSharedPause().catch((error: unknown) => logger.warn({ err: error }, 'could not read the shared tradingview queue pause'));
    if (!pause) return false;
    const now = clock().getTime();
    if (pause.reason === 'throttled') {
      if (pause.until && now < pause.until.getTime()) return true;
    } else {
      if (now < nextProbeAt) return true;
      nextProbeAt = now + sessionProbeMs;
      const health = await port.healthCheck().catch((error: unknown) => ({ ok: false as const, kind: toTradingViewError(error).kind }));
      if (!health.ok && health.kind === 'session_expired') return true;
    }
    logger.info({ reason: pause.reason, pausedMs: now - pause.since.getTime() }, 'tradingview grant queue resumed');
    const ended = pause;
    pause = null;
    await clearSharedPause(db, ended.since).catch((error: unknown) => logger.warn({ err: error }, 'could not end the shared tradingview queue pause'));
    return false;
  }

  const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

  /**
   * One script, with a transient failure (network, 5xx) tried again a few times within the claim.
   * A short throttle is waited out here, the row kept: under a per-second limit, a row given up at
   * each 429 would start again from its first read and could never finish its calls in a window.
   * The queue is paused meanwhile, since this worker makes no other call. A long one pauses the
   * queue with the row deferred.
   */
  async function applyWithRetries(scriptId: string, row: GrantRow, target: GrantTarget, recorded: ShopAccess | null): Promise<void> {
    let throttleWaits = 0;
    for (let attempt = 0; ; ) {
      try {
        // a second try reads the shop's record again: the first may have changed it (a lifetime add records ahead)
        return await applyToScript(scriptId, row, target, attempt === 0 && throttleWaits === 0 ? recorded : undefined);
      } catch (error) {
        const failure = toTradingViewError(error);
        const wait = failure.retryAfterMs ?? Number.POSITIVE_INFINITY;
        if (isThrottle(failure) && wait <= throttleWaitInRowMs && throttleWaits < THROTTLE_WAITS_PER_ROW && !stopping) {
          throttleWaits += 1;
          await sleep(wait);
          continue;
        }
        if (failure.kind !== 'network' || pausesQueue(failure) || attempt >= transientRetries || stopping) throw error;
        await sleep(transientDelayMs * 2 ** attempt);
        attempt += 1;
      }
    }
  }

  /** `catalog`: the catalog's script ids, read once for the pass (a script outside the target is revoked). */
  async function processRow(claimed: GrantRow, catalog: readonly string[]): Promise<boolean> {
    const others = await otherTargetsForUsername(db, claimed.username, claimed.id);
    const target = effectiveTarget(targetOf(claimed), others.map(targetOf), scriptIds);
    const scripts = new Set([...catalog, ...targetScripts(target, scriptIds)]);
    const releaseLease = holdLease(claimed);
    let failed: { error: unknown } | null = null;
    try {
      // what the shop gave this username, read once for every script of the row
      const recorded = await shopAccessOf(db, [...scripts], claimed.username);
      for (const scriptId of scripts) await applyWithRetries(scriptId, claimed, target, recorded.get(scriptId) ?? null);
    } catch (error) {
      failed = { error };
    }
    // the claim as last renewed: finishing with the original would look like a lost lease
    const row = await releaseLease();
    if (failed) {
      const { error } = failed;
      // Never revoke because of a TradingView error: the row keeps its target and is retried.
      const failure = toTradingViewError(error);
      if (pausesQueue(failure)) {
        const paused = await pauseQueue(failure);
        await finishClaim(db, row, { ok: 'deferred', retryAt: paused.until ?? clock() }, clock());
        return false;
      }
      logger.warn(
        { grantId: row.id, userId: row.userId, username: row.username, desired: target.desired, kind: failure.kind, attempts: row.attempts + 1, err: failure.message },
        'tradingview grant attempt failed; will retry',
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
    if (sweeping === null && (lastSweepAt === null || now.getTime() - lastSweepAt >= sweepIntervalMs)) {
      lastSweepAt = now.getTime();
      sweeping = { ids: await usersToSweep(db), next: 0, changed: 0, startedAt: performance.now() };
    }
    const slice = sweeping ? sweeping.ids.slice(sweeping.next, sweeping.next + sweepSlice) : [];
    // A period's end comes as the core's `ended` access change (its expiry watch), like every
    // other end; the sweep is only the backstop for a missed change.
    for (const userId of await differingMembers(slice)) {
      const changed = await resync(userId);
      if (sweeping && changed) sweeping.changed += 1;
    }
    // every member of the slice was looked at, most without a query of their own
    summary.resynced += slice.length;
    if (sweeping) {
      sweeping.next += slice.length;
      if (sweeping.next >= sweeping.ids.length) {
        // what a sweep costs as the shop grows (npm run bench:scale reads it)
        logger.info({ members: sweeping.ids.length, changed: sweeping.changed, ms: Math.round(performance.now() - sweeping.startedAt) }, 'tradingview sweep done');
        sweeping = null;
      }
    }
    // paused: the rows wait where they are, and no TradingView call is made
    if (!(await stillPaused())) await workThroughDue(summary);
    return summary;
  }

  // one claim at a time per instance: a claim made beside another would not yet see that one's
  // row as taken, and could take a second row for the same TradingView account
  let claiming: Promise<unknown> = Promise.resolve();
  function claimInTurn(): Promise<GrantRow | null> {
    const claimed = claiming.then(() => claimNextDue(db, clock(), leaseMs));
    claiming = claimed.catch(() => undefined);
    return claimed;
  }

  /**
   * Up to batchSize due rows, in lanes. The pass starts with one lane and opens the others after
   * a row succeeded: a queue TradingView refuses (an expired session, a throttle) costs one call
   * per pass, not one per lane.
   */
  async function workThroughDue(summary: RunSummary): Promise<void> {
    // read at the pass's first row, once for all of them
    let catalog: Promise<string[]> | null = null;
    let claims = 0;
    let drained = false;
    const nextRow = async (): Promise<GrantRow | null> => {
      if (drained || claims >= batchSize || pause || stopping) return null;
      claims += 1;
      const row = await claimInTurn();
      if (!row) drained = true;
      return row;
    };
    const running: Promise<void>[] = [];
    const errors: unknown[] = [];
    const lane = async (): Promise<void> => {
      for (let row = await nextRow(); row; row = await nextRow()) {
        queueBusyAt = Date.now();
        summary.processed += 1;
        const succeeded = await processRow(row, await (catalog ??= catalogScriptIds(db, scriptIds)));
        queueBusyAt = Date.now();
        if (!succeeded) {
          summary.failed += 1;
          continue;
        }
        summary.succeeded += 1;
        while (running.length < lanes) open();
      }
    };
    // Each lane's failure is caught as it happens: one noticed only when the loop below reached
    // its lane, after an earlier lane had finished, was an unhandled rejection, which ends the
    // process (a Postgres restart during the chaos bench's burst did).
    const open = () => running.push(lane().catch((error: unknown) => void errors.push(error)));
    open();
    // lanes opened while earlier ones run are awaited too
    for (let i = 0; i < running.length; i += 1) await running[i];
    if (errors.length) throw errors[0];
  }

  /** Before each page the audit lists: the grant queue first, and nothing while it is paused. */
  async function yieldToQueue(): Promise<void> {
    while (pause || Date.now() - queueBusyAt < auditYieldMs) {
      if (stopping) throw new Error('the reconciler is stopping');
      await sleep(Math.min(250, auditYieldMs));
    }
  }

  async function audit(): Promise<{ requeued: number }> {
    const started = performance.now();
    // rows settled after the listing began may be missing from it: only those before are judged
    const listedFrom = clock();
    const catalog = await catalogScriptIds(db, scriptIds);
    const listed = new Map<string, Set<string>>();
    let pages = 0;
    const beforePage = async () => {
      pages += 1;
      await yieldToQueue();
    };
    // A failed listing ends the audit with no change: an error is never a reason to act.
    for (const scriptId of catalog) listed.set(scriptId, new Set((await port.listUsers(scriptId, undefined, { beforePage })).map((u) => u.username.toLowerCase())));
    const holds = (username: string, scriptId: string) => listed.get(scriptId)?.has(username.toLowerCase()) === true;
    const ours = new Map<string, Set<string>>();
    for (const scriptId of catalog) ours.set(scriptId, await shopUsernames(db, scriptId));
    // Access to revoke still listed counts only where the shop gave it: hand-given access stays.
    const holdsOurs = (username: string, scripts: readonly string[]) => scripts.some((scriptId) => holds(username, scriptId) && ours.get(scriptId)?.has(username.toLowerCase()));
    const rows = await settledGrants(db, listedFrom);
    // Per username, the scripts some member's settled row wants it to hold.
    const wanted = new Map<string, Set<string>>();
    for (const row of rows) {
      const scripts = wanted.get(row.username.toLowerCase()) ?? new Set<string>();
      for (const scriptId of targetScripts(targetOf(row), scriptIds)) scripts.add(scriptId);
      wanted.set(row.username.toLowerCase(), scripts);
    }
    const unwanted = (username: string) => catalog.filter((scriptId) => !wanted.get(username.toLowerCase())?.has(scriptId));
    const now = clock();
    let requeued = 0;
    for (const row of rows) {
      const drifted =
        row.desired === 'grant'
          ? // an expired grant is left to the expiry resync, which revokes it
            (row.desiredExpiresAt === null || row.desiredExpiresAt > now) && targetScripts(targetOf(row), scriptIds).some((scriptId) => !holds(row.username, scriptId))
          : false;
      const kept = holdsOurs(row.username, unwanted(row.username));
      if (!drifted && !kept) continue;
      await setGrantTarget(db, row.id, targetOf(row), now);
      requeued += 1;
      logger.warn({ grantId: row.id, userId: row.userId, username: row.username, desired: row.desired }, 'tradingview access differs from our records; requeued');
    }
    logger.info({ grants: rows.length, requeued, pages, ms: Math.round(performance.now() - started) }, 'tradingview audit done');
    return { requeued };
  }

  // ---------------------------------------------------------------- the loop

  async function pass(): Promise<boolean | number> {
    const summary = await runOnce();
    // paused: the next pass comes when the throttle's Retry-After ends, or at the next session check
    if (pause) return pause.until ? pause.until.getTime() - clock().getTime() : Math.max(0, nextProbeAt - clock().getTime());
    // a pass that worked may have left rows it could not take (another of the same account was
    // being worked on): the next pass comes at once and ends the run when it finds nothing
    return summary.processed > 0 || sweeping !== null;
  }

  const loop = createBackgroundLoop({ pass, intervalMs: options.intervalMs, logger, label: 'tradingview reconciler' });
  // The audit lists every holder (thousands of pages at 100,000 members): a loop of its own that
  // lets the grant queue go first, so new purchases are granted while it runs.
  const auditLoop = createBackgroundLoop({
    pass: async () => {
      await audit().catch((error: unknown) => logger.warn({ err: toTradingViewError(error).message }, 'tradingview audit skipped'));
    },
    intervalMs: auditIntervalMs,
    logger,
    label: 'tradingview audit',
  });

  return {
    syncUser,
    runOnce,
    audit,
    paused: () => pause,
    kick: loop.kick,
    start() {
      stopping = false;
      if (!loop.start()) return;
      auditLoop.start();
      void port.healthCheck().then(
        (health) => {
          if (health.ok) logger.info({ adapter: port.kind }, 'tradingview reachable');
          else logger.error({ adapter: port.kind, kind: health.kind, err: health.message }, 'tradingview health check failed');
        },
        (error: unknown) => logger.error({ err: error }, 'tradingview health check failed'),
      );
    },
    async stop() {
      stopping = true;
      await Promise.all([loop.stop(), auditLoop.stop()]);
    },
  };
}
