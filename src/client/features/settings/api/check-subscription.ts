import { API_PATHS, checkSubscriptionResponseSchema } from '@shared/api-contract';
import { api } from '@client/lib/api/api-client';

/** Asks the server to sync the member's subscription with the payment provider. */
export const checkSubscription = () =>
  api(API_PATHS.checkSubscription, { method: 'POST', body: {}, schema: checkSubscriptionResponseSchema });
