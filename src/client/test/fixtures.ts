import type { SubscriptionViewDto } from '@shared/api-contract';

/** GET /api/subscription for someone who never bought anything. */
export const NO_SUBSCRIPTION: SubscriptionViewDto = {
  planType: null,
  isActive: false,
  isCanceled: false,
  status: null,
  expiresAt: null,
  purchaseDate: null,
  amount: null,
  currency: null,
  tradingviewUsername: null,
  canCancel: false,
  latestPlanType: null,
  boughtOn: null,
};
