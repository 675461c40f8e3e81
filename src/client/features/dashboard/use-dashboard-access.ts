import { useEffect, useState } from 'react';
import { ROUTE_GUARD_MAX_ATTEMPTS, ROUTE_GUARD_TIMEOUT_MS, routeGuardRetryDelay } from '@shared/timing';
import { ApiRequestError } from '@client/lib/api/api-client';
import { fetchAccessOnce } from './api/check-access';

/**
 * What the dashboard guard decided: still checking, let in, turned away (no access), or the
 * server no longer knows the session.
 */
export type GuardDecision = 'checking' | 'allowed' | 'denied' | 'signed-out';

class SignedOut extends Error {}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

/** Only failures another try can fix are retried: no answer, a time-out, or a 5xx. */
function isRetryable(error: unknown): boolean {
  return !(error instanceof ApiRequestError) || error.network || error.status >= 500;
}

/**
 * The route guard's access check: up to 3 tries, waiting 1 s then 2 s between them.
 * Resolves with the answer; rejects with the last failure, or SignedOut on a 401.
 */
export async function checkAccessWithRetry(
  fetchOnce: (signal: AbortSignal) => Promise<boolean>,
  signal: AbortSignal,
): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetchOnce(signal);
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 401) throw new SignedOut();
      if (signal.aborted || attempt >= ROUTE_GUARD_MAX_ATTEMPTS || !isRetryable(error)) throw error;
      await sleep(routeGuardRetryDelay(attempt - 1), signal);
    }
  }
}

/**
 * Decides whether the signed-in user may see the dashboard. A check that fails or takes longer
 * than 8 s lets the user through: the content API still refuses without access,
 * so a slow access check never locks a paying member out of the page itself.
 */
export function useDashboardAccess(userId: string | null): GuardDecision {
  const [decision, setDecision] = useState<{ userId: string; value: GuardDecision } | null>(null);

  useEffect(() => {
    if (!userId) return;
    const controller = new AbortController();
    let settled = false;
    const settle = (value: GuardDecision) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      controller.abort();
      setDecision({ userId, value });
    };
    const timer = setTimeout(() => settle('allowed'), ROUTE_GUARD_TIMEOUT_MS);

    checkAccessWithRetry(fetchAccessOnce, controller.signal).then(
      (hasAccess) => settle(hasAccess ? 'allowed' : 'denied'),
      (error: unknown) => settle(error instanceof SignedOut ? 'signed-out' : 'allowed'),
    );
    return () => {
      // Unmounted before an answer: stop quietly, decide nothing.
      settled = true;
      clearTimeout(timer);
      controller.abort();
    };
  }, [userId]);

  if (!userId || decision?.userId !== userId) return 'checking';
  return decision.value;
}
