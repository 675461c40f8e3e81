import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { SubscriptionViewDto } from '@shared/api-contract';
import { getSubscription, subscriptionKeys } from '@client/lib/api/subscription';
import { useAuth } from '@client/lib/auth-state';
import { checkSubscription } from './check-subscription';

/**
 * A forced refetch: sync with the payment provider first, then read the view again.
 * A failed sync is not fatal; the refetch still shows what the database knows. Rejects when the
 * read itself fails.
 */
export function useRefreshSubscription(): () => Promise<SubscriptionViewDto> {
  const queryClient = useQueryClient();
  const userId = useAuth().user?.id;
  return useCallback(async () => {
    await checkSubscription().catch((error: unknown) => console.warn('Subscription sync failed', error));
    return queryClient.fetchQuery({ queryKey: subscriptionKeys.view(userId), queryFn: getSubscription, staleTime: 0 });
  }, [queryClient, userId]);
}
