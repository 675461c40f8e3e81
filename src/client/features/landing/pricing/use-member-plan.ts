import { neverExpires } from '@shared/plans';
import { ANONYMOUS_MEMBER, type MemberPlanState } from '@shared/pricing-state';
import { useAuth } from '@client/lib/auth-state';
import { useSubscription } from '../api/get-subscription';

/** What the pricing cards need to know about the visitor: signed in, which plan, active, lifetime. */
export function useMemberPlan(): { member: MemberPlanState; isLoading: boolean; email: string | null } {
  const { user } = useAuth();
  const subscription = useSubscription(user?.id);
  if (!user) return { member: ANONYMOUS_MEMBER, isLoading: false, email: null };
  const view = subscription.data;
  // A failed read leaves the visitor a plain signed-in buyer; the server refuses duplicate purchases anyway.
  const member: MemberPlanState = {
    signedIn: true,
    planType: view?.planType ?? null,
    currentlyActive: Boolean(view?.isActive && !view.isCanceled),
    isLifetime: view?.planType != null && neverExpires(view.planType) && view.isActive,
  };
  return { member, isLoading: subscription.isPending, email: user.email };
}
