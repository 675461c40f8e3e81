// The stop sequence main.ts runs on SIGTERM and SIGINT (a rolling deploy, `podman stop`, a
// platform's restart), apart from the process so that a test can run it to the end or into its limit.
import type { Logger } from '../logger';
import type { Drain } from './drain';

/** Requests in flight get this long to be answered (a rolling deploy's grace). */
export const DRAIN_MS = 10_000;
/** And the whole stop this long after the notice: the container's stop timeout (compose.yaml's stop_grace_period) is longer. */
export const STOP_LIMIT_MS = 25_000;

export type StopParts = {
  drain: Pick<Drain, 'inFlight' | 'close'>;
  /** The background loops by name, each stopped once its pass in flight is done. */
  loops: readonly { name: string; stop: () => Promise<void> }[];
  closeDatabase: () => Promise<void>;
  logger: Logger;
  /** How long /readyz says 503 before the drain starts (STOP_NOTICE_MS). */
  noticeMs: number;
  exit: (code: number) => void;
  drainMs?: number;
  limitMs?: number;
};

/**
 * Stops without dropping a request or leaving work leased: first the notice (/readyz says 503
 * while everything is still answered, so a proxy stops sending here before a connection closes
 * under a request it is sending), then no new connection, the requests in flight answered (up to
 * `drainMs`), then each background loop finishes the pass in flight, whose claimed rows (grant
 * queue, outbox, the integrations' work, access-change deliveries) it completes or gives back with
 * their retry time, so another instance goes on with them at once rather than once a lease lapses;
 * then the database is closed and the process exits 0. A stop still running `limitMs` after the
 * notice exits 1, its log line naming the phase and the loops it still waited for.
 */
export async function gracefulStop(signal: string, parts: StopParts): Promise<void> {
  const { drain, loops, logger, noticeMs, exit } = parts;
  const drainMs = parts.drainMs ?? DRAIN_MS;
  const limitMs = noticeMs + (parts.limitMs ?? STOP_LIMIT_MS);
  const started = Date.now();
  logger.info({ signal, inFlight: drain.inFlight(), noticeMs }, 'shutting down');
  let phase = 'notice';
  const waitingFor = new Set<string>();
  let done = false;
  const limit = setTimeout(() => {
    done = true;
    logger.error({ limitMs, phase, waitingFor: [...waitingFor], inFlight: drain.inFlight() }, 'shutdown took too long; exiting');
    exit(1);
  }, limitMs);
  limit.unref();
  if (noticeMs > 0) await new Promise((resolve) => setTimeout(resolve, noticeMs));
  phase = 'draining requests';
  const { cut } = await drain.close(drainMs);
  if (cut > 0) logger.warn({ cut, graceMs: drainMs }, 'requests still unanswered at the end of the grace period were cut');
  phase = 'stopping background loops';
  const stopped = await Promise.allSettled(
    loops.map(async ({ name, stop }) => {
      waitingFor.add(name);
      await stop();
      waitingFor.delete(name);
    }),
  );
  for (const loop of stopped) if (loop.status === 'rejected') logger.error({ err: loop.reason }, 'a background loop failed while stopping');
  phase = 'closing the database';
  await parts.closeDatabase().catch((error: unknown) => logger.warn({ err: error }, 'the database did not close cleanly'));
  if (done) return;
  done = true;
  clearTimeout(limit);
  logger.info({ tookMs: Date.now() - started }, 'stopped');
  exit(0);
}
