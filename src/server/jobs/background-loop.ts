// The one timer loop behind the background workers (mail outbox, mail schedule, TradingView
// reconciler, sandbox billing). Passes never overlap; a failed pass is logged and the loop goes on;
// stop() waits for the pass in flight so shutdown does not cut a write in half.
import type { Logger } from '../logger';

export type BackgroundLoop = {
  /** Starts the loop; false when it was already running. */
  start: () => boolean;
  /** Stops the loop and waits for the pass in flight. */
  stop: () => Promise<void>;
  /** Runs a pass now, or right after the one in flight; does nothing while stopped. */
  kick: () => void;
};

export function createBackgroundLoop(options: {
  /**
   * One pass; answers true when more work waits, so the next pass runs at once, or a number of ms
   * when the next pass is due sooner than the interval (the end of a pause).
   */
  pass: () => Promise<boolean | number | void>;
  intervalMs: number;
  /** Delay before the first pass after start(); 0 unless given. */
  firstDelayMs?: number;
  logger: Logger;
  /** Names the loop in the error log: "<label> pass failed". */
  label: string;
}): BackgroundLoop {
  const { pass, intervalMs, logger, label } = options;
  let started = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let inFlight: Promise<void> | null = null;
  let kicked = false;

  function schedule(delayMs: number) {
    if (!started) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(tick, delayMs);
    // A pending pass alone should not keep the process alive.
    timer.unref?.();
  }

  function tick() {
    timer = null;
    if (!started || inFlight) return;
    kicked = false;
    inFlight = pass()
      .then(
        (more) => (more === true ? 0 : typeof more === 'number' ? Math.min(Math.max(0, more), intervalMs) : intervalMs),
        (error: unknown) => {
          logger.error({ err: error }, `${label} pass failed`);
          return intervalMs;
        },
      )
      .then((delayMs) => {
        inFlight = null;
        schedule(kicked ? 0 : delayMs);
      });
  }

  return {
    start() {
      if (started) return false;
      started = true;
      schedule(options.firstDelayMs ?? 0);
      return true;
    },
    async stop() {
      started = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await inFlight;
    },
    kick() {
      if (!started) return;
      if (inFlight) kicked = true;
      else schedule(0);
    },
  };
}
