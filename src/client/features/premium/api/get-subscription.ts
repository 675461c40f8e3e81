import { useQuery } from '@tanstack/react-query';
import { API_PATHS, subscriptionViewDtoSchema } from '@shared/api-contract';
import { api } from '@client/lib/api-client';

// The key every screen uses for GET /api/subscription, so they share one cached answer.
export const SUBSCRIPTION_QUERY_KEY = ['subscription'] as const;

export const getSubscription = () => api(API_PATHS.subscription, { schema: subscriptionViewDtoSchema });

/** The member's subscription view; `latestPlanType` is the newest plan of their history (null: none). */
export const useSubscription = (enabled: boolean) => useQuery({ queryKey: SUBSCRIPTION_QUERY_KEY, queryFn: getSubscription, enabled });
