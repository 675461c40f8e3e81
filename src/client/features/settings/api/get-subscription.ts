import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { API_PATHS, subscriptionViewDtoSchema } from '@shared/api-contract';
import type { SubscriptionViewDto } from '@shared/api-contract';
import { api } from '@client/lib/api-client';
import { checkSubscription } from './check-subscription';

// The same key every screen uses for GET /api/subscription, so a refresh here updates them all.
export const SUBSCRIPTION_QUERY_KEY = ['subscription'] as const;

export const getSubscription = () => api(API_PATHS.subscription, { schema: subscriptionViewDtoSchema });

/** The signed-in member's derived subscription view (spec §3). */
export function useSubscription() {
  return useQuery<SubscriptionViewDto>({ queryKey: SUBSCRIPTION_QUERY_KEY, queryFn: getSubscription });
}

/**
 * A forced refetch (spec §4): sync with the payment provider first, then read the view again.
 * A failed sync is not fatal; the refetch still shows what the database knows. Rejects when the
 * read itself fails.
 */
export function useRefreshSubscription(): () => Promise<SubscriptionViewDto> {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await checkSubscription().catch((error: unknown) => console.warn('Subscription sync failed', error));
    const view = await queryClient.fetchQuery({ queryKey: SUBSCRIPTION_QUERY_KEY, queryFn: getSubscription, staleTime: 0 });
    // Other screens may keep the view under a longer key (['subscription', userId]): mark it stale.
    await queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_QUERY_KEY, refetchType: 'none' });
    return view;
  }, [queryClient]);
}
