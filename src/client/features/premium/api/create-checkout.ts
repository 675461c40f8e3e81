import type { CreateCheckoutRequest } from '@shared/api-contract';
import { isEuPlan, type PlanType } from '@shared/plans';
import { clickIds } from '@client/lib/tracking';

/** A signed-in member's checkout for `planType` (spec §7 create-checkout, "also used for reactivation"). */
export function reactivationRequest(planType: PlanType, email: string): CreateCheckoutRequest {
  return {
    planType,
    customerEmail: email,
    ...clickIds(),
    userAgent: navigator.userAgent.slice(0, 2048),
    // An EU plan came from the EU page: a canceled checkout returns there.
    originPage: isEuPlan(planType) ? '/eu' : '/',
  };
}
