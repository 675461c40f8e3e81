import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SANDBOX_PATHS, sandboxPortalSchema, type SandboxSubscriptionAction } from '@shared/sandbox-contract';
import { api } from '@client/lib/api/api-client';
import { sandboxPortalKey } from './get-sandbox-portal';

export type SubscriptionActionInput = { subscriptionId: string; action: SandboxSubscriptionAction };

/** Cancels at period end, resumes, or (demo clock) ends the current period now; answers the updated portal. */
export const updateSandboxSubscription = (customerId: string, { subscriptionId, action }: SubscriptionActionInput) =>
  api(SANDBOX_PATHS.subscriptionAction(customerId, subscriptionId, action), { body: {}, schema: sandboxPortalSchema });

export function useUpdateSandboxSubscription(customerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SubscriptionActionInput) => updateSandboxSubscription(customerId, input),
    onSuccess: (portal) => queryClient.setQueryData(sandboxPortalKey(customerId), portal),
  });
}
