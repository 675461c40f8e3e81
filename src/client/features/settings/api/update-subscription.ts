import { useMutation } from '@tanstack/react-query';
import { API_PATHS, updateSubscriptionResponseSchema } from '@shared/api-contract';
import type { UpdateSubscriptionRequest } from '@shared/api-contract';
import { api } from '@client/lib/api-client';

// Charging a card can be slow; the default 15 s could abandon a change that then succeeds.
const UPDATE_TIMEOUT_MS = 45_000;

export const updateSubscription = (body: UpdateSubscriptionRequest) =>
  api(API_PATHS.updateSubscription, { body, schema: updateSubscriptionResponseSchema, timeoutMs: UPDATE_TIMEOUT_MS });

/** Moves the member's recurring subscription to another plan (prorated). */
export function useUpdateSubscription() {
  return useMutation({ mutationFn: updateSubscription });
}
