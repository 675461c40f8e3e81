// The sandbox provider's background work: renew subscriptions whose period ended and deliver
// its events to the payment event handler. Delivery is at-least-once (the handler is idempotent),
// so several instances, or a route delivering right after a payment, may overlap safely.
import { runInLanes } from '@shared/lanes';
import { createBackgroundLoop } from '../../jobs/background-loop';
import type { Logger } from '../../logger';
import type { PaymentEventHandler } from '../fulfilment/fulfilment';
import type { SandboxPaymentsPort } from '../payments/payments.port';

const SANDBOX_JOB_INTERVAL_MS = 2_000;
// as many events per pass as runClock renews subscriptions (100)
const BATCH = 100;
/**
 * Subscriptions renewed, and whose events are handled, at once unless told (the database's lanes):
 * each waits on a dozen database round trips, so one at a time left the database and the process
 * mostly idle (13 events/s at a renewal wave; docs/decisions/035 and 043).
 */
export const DEFAULT_LANES = 4;

/**
 * Delivers the pending sandbox events no other deliverer has claimed, each subscription's in
 * order, `lanes` subscriptions at once; an event that fails goes back for the next pass.
 * The delivered ones leave the queue together at the end (a crash before then delivers them
 * again, which the handler answers as duplicates). The objects the events name are read once for
 * the pass and handed over with them. Returns how many were delivered.
 */
export async function deliverSandboxEvents(payments: SandboxPaymentsPort, handler: PaymentEventHandler, logger: Logger, lanes = DEFAULT_LANES): Promise<number> {
  const delivered: string[] = [];
  const claimed = await payments.sandbox.claimPendingEvents(BATCH);
  if (claimed.length === 0) return 0;
  // the subscriptions and invoices they name, read once for all of them instead of once an event
  const objects = await payments.sandbox.readEventObjects(claimed.map(({ event }) => event));
  // one subscription's events (with the checkout that started it) keep their order; others need none
  await runInLanes(claimed, ({ lane }) => lane, lanes, async ({ event }) => {
    try {
      await handler.handle(event, 'sandbox', objects);
      delivered.push(event.id);
    } catch (error) {
      logger.error({ err: error, eventId: event.id, type: event.type }, 'sandbox event delivery failed; will retry');
      await payments.sandbox.releaseEvent(event.id);
    }
  });
  await payments.sandbox.markDelivered(...delivered);
  return delivered.length;
}

export type SandboxJobs = {
  /** One pass: renewals that are due, then event delivery. Tests call this directly. */
  runOnce: () => Promise<{ renewed: number; delivered: number }>;
  start: () => void;
  /** Stops the schedule and waits for a pass in progress to finish. */
  stop: () => Promise<void>;
};

export function createSandboxJobs(deps: {
  payments: SandboxPaymentsPort;
  handler: PaymentEventHandler;
  logger: Logger;
  clock: () => Date;
  intervalMs?: number;
  /** Subscriptions renewed and delivered at once (the database's lanes). */
  lanes?: number;
}): SandboxJobs {
  const { payments, handler, logger, clock } = deps;
  const intervalMs = deps.intervalMs ?? SANDBOX_JOB_INTERVAL_MS;
  const lanes = deps.lanes ?? DEFAULT_LANES;
  let running: Promise<unknown> = Promise.resolve();

  async function pass() {
    const renewed = await payments.sandbox.runClock(clock(), lanes);
    const delivered = await deliverSandboxEvents(payments, handler, logger, lanes);
    if (renewed > 0) logger.info({ renewed }, 'sandbox renewals processed');
    return { renewed, delivered };
  }

  // Passes never overlap within one process.
  function runOnce() {
    const next = running.then(pass, pass);
    running = next.catch(() => undefined);
    return next;
  }

  const loop = createBackgroundLoop({
    // a full batch of renewals or events: more wait, so the next pass runs at once
    pass: () => runOnce().then(({ renewed, delivered }) => renewed >= BATCH || delivered >= BATCH),
    intervalMs,
    firstDelayMs: intervalMs,
    logger,
    label: 'sandbox job',
  });

  return {
    runOnce,
    start: loop.start,
    async stop() {
      await loop.stop();
      // a pass a caller started through runOnce finishes too
      await running;
    },
  };
}
