import { useMutation } from '@tanstack/react-query';
import { API_PATHS, activateExistingSubscriptionResponseSchema, type ActivateExistingSubscriptionRequest } from '@shared/api-contract';
import { api } from '@client/lib/api/api-client';
import { API_TIMEOUT_MS } from '@client/lib/api/timeouts';

/** Links the paid session to the signed-in account and, with a username, schedules TradingView access. */
export const activateSubscription = (body: ActivateExistingSubscriptionRequest) =>
  api(API_PATHS.activateExistingSubscription, { body, schema: activateExistingSubscriptionResponseSchema, timeoutMs: API_TIMEOUT_MS.thirdParty });

export const useActivateSubscription = () => useMutation({ mutationFn: activateSubscription });
