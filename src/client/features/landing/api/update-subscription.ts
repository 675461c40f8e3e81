import { api } from '@client/lib/api-client';
import type { UpdateSubscriptionResponse } from '@shared/api-contract';
import type { PlanType } from '@shared/plans';
import { PATHS } from './paths';

/** Switches the member's recurring subscription to `planType` (prorated by the payment provider). */
export const updateSubscription = (planType: PlanType) =>
  api<UpdateSubscriptionResponse>(PATHS.updateSubscription, { body: { planType } });
