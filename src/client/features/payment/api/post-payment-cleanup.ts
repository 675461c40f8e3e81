import { API_PATHS, type PostPaymentCleanupRequest } from '@shared/api-contract';
import { api } from '@client/lib/api/api-client';

/**
 * After a lifetime purchase the recurring plan it replaces is ended. Failures are
 * logged and ignored: the purchase itself is done, and support can cancel the old plan.
 */
export async function postPaymentCleanup(body: PostPaymentCleanupRequest): Promise<void> {
  try {
    await api(API_PATHS.postPaymentCleanup, { body });
  } catch (error) {
    console.warn('Post-payment cleanup failed', error);
  }
}
