import { useQuery } from '@tanstack/react-query';
import { api } from '@client/lib/api-client';
import type { SubscriptionViewDto } from '@shared/api-contract';
import { PATHS } from './paths';

export const subscriptionQueryKey = (userId: string | undefined) => ['subscription', userId] as const;

export const getSubscription = () => api<SubscriptionViewDto>(PATHS.subscription);

/** The signed-in member's derived subscription view; idle without a user. */
export function useSubscription(userId: string | undefined) {
  return useQuery({
    queryKey: subscriptionQueryKey(userId),
    queryFn: getSubscription,
    enabled: userId !== undefined,
  });
}
