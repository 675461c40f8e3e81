// What happens after a plan change succeeded (the upgrade flow): the provider's webhooks
// and our access function need a moment, so the page waits before reading them again.
import { planUpdatedToast } from '@shared/error-messages';
import type { Toast } from '@shared/error-messages';
import type { PlanType } from '@shared/plans';
import { UPGRADE_SUCCESS_DELAYS_MS, UPGRADE_SUCCESS_PATH } from '@shared/timing';

export type Sleep = (ms: number) => Promise<void>;

export const sleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export type UpgradeSuccessDeps = {
  notifySuccess: (toast: Toast) => void;
  refreshSubscription: () => Promise<unknown>;
  /**
   * useAuth().refreshAccess, which itself makes up to 3 tries 1 s apart on failure
   * (ACCESS_REFRESH_ATTEMPTS); retrying here as well would make up to 9.
   */
  refreshAccess: () => Promise<unknown>;
  navigate: (path: string) => void;
  sleep: Sleep;
  /** Aborted when the member leaves the page; later steps are skipped, nothing navigates. */
  signal?: AbortSignal;
};

/**
 * Toast, wait 2 s, refresh subscription data, wait 1 s, refresh access, wait 0.5 s, then show
 * the plan-change card again. Failed refreshes do not stop the sequence: the change itself
 * succeeded, the next read will show it, and the route guard checks access again anyway.
 */
export async function runUpgradeSuccessSequence(planType: PlanType, deps: UpgradeSuccessDeps): Promise<void> {
  const { signal } = deps;
  deps.notifySuccess(planUpdatedToast(planType));
  await deps.sleep(UPGRADE_SUCCESS_DELAYS_MS.beforeSubscriptionRefresh);
  if (signal?.aborted) return;
  await deps.refreshSubscription().catch((error: unknown) => console.warn('Subscription refresh failed', error));
  await deps.sleep(UPGRADE_SUCCESS_DELAYS_MS.beforeAccessRefresh);
  if (signal?.aborted) return;
  await deps.refreshAccess().catch((error: unknown) => console.warn('Access refresh failed', error));
  await deps.sleep(UPGRADE_SUCCESS_DELAYS_MS.beforeNavigate);
  if (signal?.aborted) return;
  deps.navigate(UPGRADE_SUCCESS_PATH);
}
