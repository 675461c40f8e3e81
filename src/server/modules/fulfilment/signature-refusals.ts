// Webhook deliveries refused for a bad signature. Anyone can post one, so a refusal must cost the
// shop neither a row nor a log line per request: refusals are counted in memory by the minute,
// per instance (the operators' alert reads the count), and logged at most once a minute with
// the number refused since the line before.
import { SIGNATURE_FAILURE_WINDOW_MS } from '@shared/operator-alerts';

const MINUTE_MS = 60_000;

export type SignatureRefusals = {
  /** Counts one refusal; how many to log now (those since the last line), or null within a minute of that line. */
  record: (now: Date) => number | null;
  /** Refusals counted at or after `since`, to the minute. */
  countSince: (since: Date) => number;
};

/** A tally that keeps the last `keepMs` of refusals, one number a minute. */
export function createSignatureRefusals(keepMs = SIGNATURE_FAILURE_WINDOW_MS): SignatureRefusals {
  const perMinute = new Map<number, number>();
  let unlogged = 0;
  let loggedAt = Number.NEGATIVE_INFINITY;
  return {
    record(now) {
      const minute = Math.floor(now.getTime() / MINUTE_MS);
      if (!perMinute.has(minute)) {
        const oldest = minute - Math.ceil(keepMs / MINUTE_MS);
        for (const kept of perMinute.keys()) if (kept < oldest) perMinute.delete(kept);
      }
      perMinute.set(minute, (perMinute.get(minute) ?? 0) + 1);
      unlogged += 1;
      if (now.getTime() - loggedAt < MINUTE_MS) return null;
      loggedAt = now.getTime();
      const count = unlogged;
      unlogged = 0;
      return count;
    },
    countSince(since) {
      const first = Math.floor(since.getTime() / MINUTE_MS);
      let total = 0;
      for (const [minute, count] of perMinute) if (minute >= first) total += count;
      return total;
    },
  };
}
