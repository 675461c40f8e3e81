// The operator console's support actions on one member: free days, a pause of collection, a
// transfer of TradingView access, a ban. The rules both sides share; the server applies them.

export const FREE_DAYS_MIN = 1;
export const FREE_DAYS_MAX = 365;
/** How far ahead a plan's paid time may end after free days: Stripe's limit on a trial's end (two years). */
export const FREE_DAYS_HORIZON_DAYS = 730;

/** While collection is paused, the member keeps access (the vendor's goodwill) or loses it until resumed. */
export const PAUSED_ACCESS = ['keep', 'stop'] as const;
export type PausedAccess = (typeof PAUSED_ACCESS)[number];

export const isPausedAccess = (value: unknown): value is PausedAccess => PAUSED_ACCESS.includes(value as PausedAccess);

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Where a plan's paid time ends after `days` free days: counted from its current end, or from now
 * when that end has passed (a past-due plan's free days start today).
 */
export function freeDaysEnd(currentEnd: Date, now: Date, days: number): Date {
  return new Date(Math.max(currentEnd.getTime(), now.getTime()) + days * DAY_MS);
}

/** The most free days a plan ending at `currentEnd` can still take within the horizon (0: none). */
export function freeDaysLeft(currentEnd: Date, now: Date): number {
  const horizon = now.getTime() + FREE_DAYS_HORIZON_DAYS * DAY_MS;
  return Math.max(0, Math.floor((horizon - Math.max(currentEnd.getTime(), now.getTime())) / DAY_MS));
}
