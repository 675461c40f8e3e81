import { useQuery } from '@tanstack/react-query';
import type { SubscriptionViewDto } from '@shared/api-contract';
import { useAuth } from '@client/lib/auth-state';
import { isPlanType } from '@shared/plans';
import { api, UnreadableAnswerError } from './api-client';
import { PATHS } from './paths';

/** Query keys of GET /api/subscription: one per user, `all` to refresh every one of them. */
export const subscriptionKeys = {
  all: ['subscription'] as const,
  view: (userId: string | undefined) => ['subscription', userId] as const,
};

/** The signed-in member's derived subscription view. */
export async function getSubscription(): Promise<SubscriptionViewDto> {
  const view = await api<Partial<SubscriptionViewDto> | null>(PATHS.subscription);
  // Checked by hand, not with the contract's zod schema: the landing bundle stays free of zod
  // (docs/decisions/009). These are the fields every screen decides on.
  if (!view || typeof view.isActive !== 'boolean' || typeof view.isCanceled !== 'boolean' || !(view.planType === null || isPlanType(view.planType))) {
    throw new UnreadableAnswerError('Unreadable subscription answer');
  }
  return view as SubscriptionViewDto;
}

/** The signed-in member's subscription view; idle without a user. */
export function useSubscription() {
  const userId = useAuth().user?.id;
  return useQuery({ queryKey: subscriptionKeys.view(userId), queryFn: getSubscription, enabled: userId !== undefined });
}
