// Rate-limit decisions, kept pure so that the rules can be table-tested; the server stores the
// state (one row per key in Postgres, so that every instance counts the same attempts).

/** At most `max` attempts per fixed window of `windowMs`. */
export type WindowRule = { kind: 'window'; max: number; windowMs: number };

/**
 * `free` attempts, then each further attempt makes the next one wait twice as long as the one
 * before (from `firstDelayMs` up to `maxDelayMs`). Counting starts over after `forgetAfterMs`
 * without an attempt, or when the caller clears the key (a successful sign-in).
 */
export type BackoffRule = { kind: 'backoff'; free: number; firstDelayMs: number; maxDelayMs: number; forgetAfterMs: number };

export type ThrottleRule = WindowRule | BackoffRule;

/** What is stored per key. `since` starts the window (window rule) or is the last attempt (back-off). */
export type ThrottleState = { hits: number; since: Date; blockedUntil: Date | null };

export type ThrottleDecision =
  | { allowed: true; next: ThrottleState }
  | { allowed: false; retryAfterMs: number };

/** Counts one attempt at `now`, or refuses it without counting. */
export function decideThrottle(state: ThrottleState | null, rule: ThrottleRule, now: Date): ThrottleDecision {
  const t = now.getTime();
  if (rule.kind === 'window') {
    if (!state || t - state.since.getTime() >= rule.windowMs) return { allowed: true, next: { hits: 1, since: now, blockedUntil: null } };
    if (state.hits >= rule.max) return { allowed: false, retryAfterMs: state.since.getTime() + rule.windowMs - t };
    return { allowed: true, next: { ...state, hits: state.hits + 1 } };
  }
  if (state?.blockedUntil && state.blockedUntil.getTime() > t) return { allowed: false, retryAfterMs: state.blockedUntil.getTime() - t };
  const hits = state && t - state.since.getTime() < rule.forgetAfterMs ? state.hits + 1 : 1;
  const blockedUntil = hits >= rule.free ? new Date(t + backoffDelayMs(rule, hits - rule.free)) : null;
  return { allowed: true, next: { hits, since: now, blockedUntil } };
}

/** The wait after the n-th attempt beyond the free ones (n = 0 for the last free attempt). */
export function backoffDelayMs(rule: BackoffRule, n: number): number {
  return Math.min(rule.maxDelayMs, rule.firstDelayMs * 2 ** Math.min(n, 30));
}

/** When a stored state no longer matters and its row may be deleted. */
export function throttleExpiresAt(state: ThrottleState, rule: ThrottleRule): Date {
  const since = state.since.getTime();
  const end = rule.kind === 'window' ? since + rule.windowMs : Math.max(since + rule.forgetAfterMs, state.blockedUntil?.getTime() ?? 0);
  return new Date(end);
}

const MINUTE = 60_000;

/**
 * Failed password sign-ins per account (e-mail), whatever the address they come from: five free,
 * then 30 s, 1 min, 2 min … up to 15 min between attempts. A correct password clears it.
 */
export const SIGN_IN_FAILURES_PER_ACCOUNT: BackoffRule = {
  kind: 'backoff',
  free: 5,
  firstDelayMs: 30_000,
  maxDelayMs: 15 * MINUTE,
  forgetAfterMs: 24 * 60 * MINUTE,
};

/**
 * Checkouts started by anonymous visitors (each one is a provider call). A browser that carries
 * the shop's browser id is counted by it, with a far higher ceiling for its address, so buyers
 * sharing one address (a carrier NAT, an office) all reach the checkout during a sale; a client
 * without the id (a script without cookies) is counted by its address alone.
 */
export const ANONYMOUS_CHECKOUTS_PER_ADDRESS: WindowRule = { kind: 'window', max: 20, windowMs: 10 * MINUTE };
export const ANONYMOUS_CHECKOUTS_PER_BROWSER: WindowRule = { kind: 'window', max: 20, windowMs: 10 * MINUTE };
export const ANONYMOUS_CHECKOUTS_PER_SHARED_ADDRESS: WindowRule = { kind: 'window', max: 1_000, windowMs: 10 * MINUTE };

/** Promotion code look-ups per client address: a visitor checks a code or two, a script guessing codes is stopped. */
export const PROMOTION_LOOKUPS_PER_ADDRESS: WindowRule = { kind: 'window', max: 30, windowMs: 10 * MINUTE };
