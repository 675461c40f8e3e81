// Security monitoring rules: alerts and score from a user's security log.

export const SECURITY_EVENT_TYPES = [
  'AUTH_FAILURE',
  'SUBSCRIPTION_CHANGE',
  'SUSPICIOUS_ACTIVITY',
  'UNAUTHORIZED_ACCESS',
] as const;
export type SecurityEventType = (typeof SECURITY_EVENT_TYPES)[number];

/** One log row; `count` > 1 when repeats were folded into it (failed sign-ins), newest at `timestamp`. */
export type SecurityEvent = { event: SecurityEventType; timestamp: Date; count?: number };

export type SecurityAlertType = 'critical' | 'warning' | 'info';
export type SecurityAlert = { id: string; type: SecurityAlertType; message: string; timestamp: Date };

export const MAX_SECURITY_EVENTS_PER_USER = 1000;
export const SECURITY_REFRESH_MS = 30_000;
export const MAX_ALERTS_KEPT = 10;
export const MAX_ALERTS_SHOWN = 3;

const MINUTE = 60_000;
export const AUTH_FAILURE_WINDOW_MS = 15 * MINUTE;
export const AUTH_FAILURE_THRESHOLD = 3;
export const SUBSCRIPTION_CHANGE_WINDOW_MS = 60 * MINUTE;
export const SUBSCRIPTION_CHANGE_THRESHOLD = 2;
export const SCORE_WINDOW_MS = 24 * 60 * MINUTE;
/**
 * Repeats of one event within this span go into one row with a count, so that a stranger who
 * types wrong passwords for a member's e-mail cannot push the member's real events out of the log.
 */
export const REPEAT_FOLD_WINDOW_MS = AUTH_FAILURE_WINDOW_MS;
/**
 * Failed sign-ins are typed by whoever knows the e-mail, so at most this many count against the
 * score: a stranger can lower it to 75 (a yellow warning), never to 0.
 */
export const AUTH_FAILURE_SCORE_CAP = 5;

export const SCORE_PENALTIES: Record<SecurityEventType, number> = {
  AUTH_FAILURE: 5,
  SUSPICIOUS_ACTIVITY: 10,
  UNAUTHORIZED_ACCESS: 15,
  SUBSCRIPTION_CHANGE: 0,
};

function within(events: readonly SecurityEvent[], type: SecurityEventType, now: Date, windowMs: number) {
  const from = now.getTime() - windowMs;
  // No upper bound: an event stamped slightly ahead by another instance's clock still counts.
  return events
    .filter((e) => e.event === type && e.timestamp.getTime() > from)
    .sort((a, b) => b.timestamp.getTime() - a.timestamp.getTime());
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const total = (events: readonly SecurityEvent[]) => events.reduce((sum, e) => sum + (e.count ?? 1), 0);

/**
 * Alerts for the current windows, newest first, at most 10. Ids derive from the newest event
 * behind an alert, so a dismissed alert stays dismissed across refreshes until a new event
 * arrives. Beyond the spec's two rules, each suspicious-activity or unauthorized-access event of
 * the last 24 h is surfaced too, because the score already counts them and the member should
 * see why it dropped.
 */
export function securityAlerts(events: readonly SecurityEvent[], now: Date): SecurityAlert[] {
  const alerts: SecurityAlert[] = [];

  const failures = within(events, 'AUTH_FAILURE', now, AUTH_FAILURE_WINDOW_MS);
  const newestFailure = failures[0];
  const failureCount = total(failures);
  if (failureCount >= AUTH_FAILURE_THRESHOLD && newestFailure) {
    alerts.push({
      id: `auth-failures-${newestFailure.timestamp.getTime()}`,
      type: 'warning',
      message: `${plural(failureCount, 'failed sign-in attempt', 'failed sign-in attempts')} in the last 15 minutes. If this wasn't you, change your password.`,
      timestamp: newestFailure.timestamp,
    });
  }

  const changes = within(events, 'SUBSCRIPTION_CHANGE', now, SUBSCRIPTION_CHANGE_WINDOW_MS);
  const newestChange = changes[0];
  const changeCount = total(changes);
  if (changeCount >= SUBSCRIPTION_CHANGE_THRESHOLD && newestChange) {
    alerts.push({
      id: `subscription-changes-${newestChange.timestamp.getTime()}`,
      type: 'info',
      message: `Your subscription was changed ${plural(changeCount, 'time', 'times')} in the last hour. If you didn't make these changes, contact support.`,
      timestamp: newestChange.timestamp,
    });
  }

  for (const e of within(events, 'UNAUTHORIZED_ACCESS', now, SCORE_WINDOW_MS)) {
    alerts.push({
      id: `unauthorized-${e.timestamp.getTime()}`,
      type: 'critical',
      message: 'Someone tried to reach a page your account is not allowed to open. If this wasn\'t you, sign out of all devices and change your password.',
      timestamp: e.timestamp,
    });
  }
  for (const e of within(events, 'SUSPICIOUS_ACTIVITY', now, SCORE_WINDOW_MS)) {
    alerts.push({
      id: `suspicious-${e.timestamp.getTime()}`,
      type: 'warning',
      message: 'We noticed unusual activity on your account. Review your recent sign-ins and change your password if anything looks unfamiliar.',
      timestamp: e.timestamp,
    });
  }

  return alerts
    .sort((a, b) => b.timestamp.getTime() - a.timestamp.getTime())
    .slice(0, MAX_ALERTS_KEPT);
}

/** The alerts the panel shows: the first 3 not dismissed. */
export function visibleAlerts(
  alerts: readonly SecurityAlert[],
  dismissedIds: ReadonlySet<string> | readonly string[] = [],
): SecurityAlert[] {
  const dismissed = new Set(dismissedIds);
  return alerts.filter((a) => !dismissed.has(a.id)).slice(0, MAX_ALERTS_SHOWN);
}

/**
 * 100 minus penalties for the last 24 h (5 per failed login, at most AUTH_FAILURE_SCORE_CAP of
 * them, 10 suspicious, 15 unauthorized), 0–100.
 */
export function securityScore(events: readonly SecurityEvent[], now: Date): number {
  let score = 100;
  for (const type of SECURITY_EVENT_TYPES) {
    const count = total(within(events, type, now, SCORE_WINDOW_MS));
    score -= (type === 'AUTH_FAILURE' ? Math.min(count, AUTH_FAILURE_SCORE_CAP) : count) * SCORE_PENALTIES[type];
  }
  return Math.min(100, Math.max(0, score));
}

export function scoreColour(score: number): 'green' | 'yellow' | 'red' {
  if (score >= 80) return 'green';
  if (score >= 60) return 'yellow';
  return 'red';
}

/** Keeps a user's log bounded: the newest 1000 events. */
export function trimSecurityLog<T extends { timestamp: Date }>(events: readonly T[]): T[] {
  return [...events]
    .sort((a, b) => b.timestamp.getTime() - a.timestamp.getTime())
    .slice(0, MAX_SECURITY_EVENTS_PER_USER);
}
