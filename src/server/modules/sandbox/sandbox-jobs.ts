// The sandbox provider's background work: renew subscriptions whose period ended, and deliver its
// events to the payment event handler (sandbox-delivery.ts).
import { createBackgroundLoop } from '../../jobs/background-loop';
import type { Logger } from '../../logger';
import type { PaymentEventHandler } from '../fulfilment/fulfilment';
import type { SandboxPaymentsPort } from '../payments/payments.port';
import { DEFAULT_LANES, deliverSandboxEvents } from './sandbox-delivery';
import { RENEWALS_AT_ONCE } from './sandbox-subscriptions';

const SANDBOX_JOB_INTERVAL_MS = 2_000;

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
  /** Events delivered at once (the database's lanes). */
  lanes?: number;
}): SandboxJobs {
  const { payments, handler, logger, clock } = deps;
  const intervalMs = deps.intervalMs ?? SANDBOX_JOB_INTERVAL_MS;
  const lanes = deps.lanes ?? DEFAULT_LANES;
  // A lane holds one connection at most, and renewals one beside them (a hundred a transaction):
  // the two loops hold at most 9 of the default pool's 20 connections, and requests keep the rest
  // (decision 043).
  let running: Promise<unknown> = Promise.resolve();
  let stopping = false;

  async function renew() {
    const renewed = await payments.sandbox.runClock(clock());
    if (renewed > 0) logger.info({ renewed }, 'sandbox renewals processed');
    return renewed;
  }
  const deliver = (keepClaiming?: () => boolean) => deliverSandboxEvents(payments, handler, logger, lanes, keepClaiming);

  // A caller's passes (tests, the demo) never overlap one another within one process.
  function runOnce() {
    const pass = async () => ({ renewed: await renew(), delivered: await deliver() });
    const next = running.then(pass, pass);
    running = next.catch(() => undefined);
    return next;
  }

  // Renewing and delivering run as two loops, as Stripe's clock and its webhooks do: a wave's next
  // batch is renewed while the events of the one before are delivered (decision 071). The loop's
  // delivery goes on while events wait, until the jobs are told to stop.
  const deliveries = createBackgroundLoop({
    pass: async () => {
      await deliver(() => !stopping);
    },
    intervalMs,
    firstDelayMs: intervalMs,
    logger,
    label: 'sandbox delivery',
  });
  const renewals = createBackgroundLoop({
    pass: async () => {
      const renewed = await renew();
      if (renewed > 0) deliveries.kick();
      return renewed >= RENEWALS_AT_ONCE;
    },
    intervalMs,
    firstDelayMs: intervalMs,
    logger,
    label: 'sandbox renewals',
  });

  return {
    runOnce,
    start() {
      stopping = false;
      renewals.start();
      deliveries.start();
    },
    async stop() {
      stopping = true;
      await Promise.all([renewals.stop(), deliveries.stop()]);
      // a pass a caller started through runOnce finishes too
      await running;
    },
  };
}
