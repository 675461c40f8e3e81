import { useMutation } from '@tanstack/react-query';
import { API_PATHS, activateExistingSubscriptionResponseSchema, type ActivateExistingSubscriptionRequest } from '@shared/api-contract';
import { api } from '@client/lib/api/api-client';

// Checking the username with TradingView can take a while; the server has its own timeouts.
const ACTIVATION_TIMEOUT_MS = 30_000;

/** Links the paid session to the signed-in account and, with a username, schedules TradingView access. */
export const activateSubscription = (body: ActivateExistingSubscriptionRequest) =>
  api(API_PATHS.activateExistingSubscription, { body, schema: activateExistingSubscriptionResponseSchema, timeoutMs: ACTIVATION_TIMEOUT_MS });

export const useActivateSubscription = () => useMutation({ mutationFn: activateSubscription });
