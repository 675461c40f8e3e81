// What happens after a plan change succeeded (spec §4 "Upgrade flow"): the provider's webhooks
// and our access function need a moment, so the page waits before reading them again.
import { planUpdatedToast } from '@shared/error-messages';
import type { Toast } from '@shared/error-messages';
import type { PlanType } from '@shared/plans';
import {
  ACCESS_REFRESH_ATTEMPTS,
  ACCESS_REFRESH_RETRY_MS,
  UPGRADE_SUCCESS_DELAYS_MS,
  UPGRADE_SUCCESS_PATH,
} from '@shared/timing';

export type Sleep = (ms: number) => Promise<void>;

export const sleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Refreshes access, retrying a failed check up to ACCESS_REFRESH_ATTEMPTS tries in all, 1 s
 * apart. A final failure is swallowed: the member keeps the page, and the route guard checks
 * access again on the next navigation. Returns whether any try succeeded.
 */
export async function refreshAccessWithRetry(
  refreshAccess: () => Promise<unknown>,
  wait: Sleep,
  signal?: AbortSignal,
): Promise<boolean> {
  for (let attempt = 1; attempt <= ACCESS_REFRESH_ATTEMPTS; attempt += 1) {
    if (signal?.aborted) return false;
    try {
      await refreshAccess();
      return true;
    } catch (error) {
      console.warn(`Access refresh ${attempt}/${ACCESS_REFRESH_ATTEMPTS} failed`, error);
      if (attempt < ACCESS_REFRESH_ATTEMPTS) await wait(ACCESS_REFRESH_RETRY_MS);
    }
  }
  return false;
}

export type UpgradeSuccessDeps = {
  notifySuccess: (toast: Toast) => void;
  refreshSubscription: () => Promise<unknown>;
  refreshAccess: () => Promise<unknown>;
  navigate: (path: string) => void;
  sleep: Sleep;
  /** Aborted when the member leaves the page; later steps are skipped, nothing navigates. */
  signal?: AbortSignal;
};

/**
 * Toast, wait 2 s, refresh subscription data, wait 1 s, refresh access (3 tries, 1 s apart),
 * wait 0.5 s, then show the plan-change card again. A failed subscription refresh does not stop
 * the sequence: the change itself succeeded and the next read will show it.
 */
export async function runUpgradeSuccessSequence(planType: PlanType, deps: UpgradeSuccessDeps): Promise<void> {
  const { signal } = deps;
  deps.notifySuccess(planUpdatedToast(planType));
  await deps.sleep(UPGRADE_SUCCESS_DELAYS_MS.beforeSubscriptionRefresh);
  if (signal?.aborted) return;
  await deps.refreshSubscription().catch((error: unknown) => console.warn('Subscription refresh failed', error));
  await deps.sleep(UPGRADE_SUCCESS_DELAYS_MS.beforeAccessRefresh);
  if (signal?.aborted) return;
  await refreshAccessWithRetry(deps.refreshAccess, deps.sleep, signal);
  await deps.sleep(UPGRADE_SUCCESS_DELAYS_MS.beforeNavigate);
  if (signal?.aborted) return;
  deps.navigate(UPGRADE_SUCCESS_PATH);
}
