// The message variant of /premium-access-required ("Premium access required"): what a signed-in
// user without access is told, by their history.
import type { SubscriptionRow } from './access';
import { neverExpires, planDisplayName } from './plans';
import type { PlanType } from './plans';
import { latestPlanForPremiumRequired } from './subscription-view';

export const CHOOSE_ANOTHER_PLAN = 'Choose Another Plan';

export type PremiumRequiredVariant =
  | {
      kind: 'none';
      message: 'You need an active subscription to access the dashboard.';
      actions: ['Get Premium Access'];
    }
  | {
      kind: 'lifetime';
      message: 'Your Lifetime subscription seems to have an issue. Please contact support or choose a new plan.';
      actions: ['Choose Another Plan'];
    }
  | {
      kind: 'lapsed';
      /** The plan to reactivate through checkout. */
      plan: PlanType;
      message: string;
      actions: [reactivate: string, chooseAnother: 'Choose Another Plan'];
    };

/** Variant for the newest plan in the user's history; null means there is no history. */
export function premiumRequiredVariantForPlan(latestPlan: PlanType | null): PremiumRequiredVariant {
  if (latestPlan === null) {
    return {
      kind: 'none',
      message: 'You need an active subscription to access the dashboard.',
      actions: ['Get Premium Access'],
    };
  }
  // A plan that never expires cannot have lapsed: something went wrong, not a renewal to offer.
  if (neverExpires(latestPlan)) {
    return {
      kind: 'lifetime',
      message:
        'Your Lifetime subscription seems to have an issue. Please contact support or choose a new plan.',
      actions: [CHOOSE_ANOTHER_PLAN],
    };
  }
  const name = planDisplayName(latestPlan);
  return {
    kind: 'lapsed',
    plan: latestPlan,
    message: `Your ${name} subscription is no longer active. Reactivate it or choose another plan to regain access.`,
    actions: [`Reactivate ${name} Plan`, CHOOSE_ANOTHER_PLAN],
  };
}

export function premiumRequiredVariant(
  rows: readonly Pick<SubscriptionRow, 'planType' | 'createdAt'>[],
): PremiumRequiredVariant {
  return premiumRequiredVariantForPlan(rows.length === 0 ? null : latestPlanForPremiumRequired(rows));
}
