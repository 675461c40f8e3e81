// Hands recorded access changes to their subscribers: at once after the commit that made them,
// and from a loop that retries failed deliveries with back-off, takes over deliveries a crashed
// instance had leased, and asks the core for access that ended with time.
import { CALLBACK_OF_KIND, type AccessChange, type AccessSubscriber } from '@shared/access-changes';
import type { Db } from '../../db/client';
import { createBackgroundLoop, type BackgroundLoop } from '../../jobs/background-loop';
import type { Logger } from '../../logger';
import { claimDeliveries, completeDeliveries, failDelivery, type DueDelivery } from './access-changes.repository';
import type { Entitlements } from './entitlements';

/** Longer than a subscriber's callback can take (TradingView calls time out well before). */
const LEASE_MS = 2 * 60_000;
const BATCH = 50;
const RETRY_BASE_MS = 30_000;
const RETRY_MAX_MS = 60 * 60_000;
const LOOP_INTERVAL_MS = 30_000;

/** 30 s, 1 min, 2 min, … capped at an hour: a subscriber's outage must not lose changes, only delay them. */
export const deliveryRetryDelayMs = (attempts: number) => Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1), RETRY_MAX_MS);

export type AccessChangeDelivery = ReturnType<typeof createAccessChangeDelivery>;

export function createAccessChangeDelivery(deps: { db: Db; clock: () => Date; logger: Logger; subscribers: readonly AccessSubscriber[] }) {
  const { db, clock, logger } = deps;
  const byName = new Map(deps.subscribers.map((subscriber) => [subscriber.name, subscriber]));
  const names = [...byName.keys()];

  /**
   * Runs each delivery's callback; the ones done leave the outbox together at the end (a crash
   * before then runs them again once their lease lapses: callbacks are safe to repeat).
   */
  async function run(deliveries: DueDelivery[]): Promise<void> {
    const done: { changeId: string; subscriber: string }[] = [];
    for (const { subscriber: name, attempts, change } of deliveries) {
      const callback = byName.get(name)?.[CALLBACK_OF_KIND[change.kind]];
      try {
        // Rows are written only for subscribers with this callback; one without it has nothing to do.
        if (callback) await callback(change);
        done.push({ changeId: change.id, subscriber: name });
      } catch (error) {
        const retryAt = new Date(clock().getTime() + deliveryRetryDelayMs(attempts));
        logger.warn({ err: error, subscriber: name, changeId: change.id, kind: change.kind, userId: change.userId, attempts, retryAt }, 'access change delivery failed');
        await failDelivery(db, change.id, name, error instanceof Error ? error.message : String(error), retryAt);
      }
    }
    await completeDeliveries(db, done);
  }

  const lease = () => {
    const now = clock();
    return { now, until: new Date(now.getTime() + LEASE_MS) };
  };

  return {
    /** Delivers changes just committed (the core calls this after its transaction, with the changes it wrote). */
    async deliverNow(changes: readonly AccessChange[]): Promise<void> {
      const { now, until } = lease();
      await run(await claimDeliveries(db, names, now, until, changes.length * Math.max(1, byName.size), changes));
    },
    /** One pass over due deliveries; true when a full batch was taken (more may wait). */
    async runOnce(): Promise<boolean> {
      const { now, until } = lease();
      const due = await claimDeliveries(db, names, now, until, BATCH);
      await run(due);
      return due.length === BATCH;
    },
  };
}

/** The loop main.ts starts (tests call its runOnce): access that ended with time, then the deliveries due. */
export function createAccessChangesLoop(deps: { entitlements: Pick<Entitlements, 'recordExpiries'>; delivery: AccessChangeDelivery; logger: Logger }): BackgroundLoop & { runOnce: () => Promise<boolean> } {
  async function runOnce(): Promise<boolean> {
    await deps.entitlements.recordExpiries();
    return deps.delivery.runOnce();
  }
  return { ...createBackgroundLoop({ pass: runOnce, intervalMs: LOOP_INTERVAL_MS, logger: deps.logger, label: 'access changes' }), runOnce };
}
