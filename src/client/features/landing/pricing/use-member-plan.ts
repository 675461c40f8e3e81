import { ANONYMOUS_MEMBER, memberPlanOf, type MemberPlanState } from '@shared/pricing-state';
import { useSubscription } from '@client/lib/api/subscription';
import { useAuth } from '@client/lib/auth-state';

/** What the pricing cards need to know about the visitor: signed in, which plan, active, lifetime. */
export function useMemberPlan(): { member: MemberPlanState; isLoading: boolean; email: string | null } {
  const { user } = useAuth();
  const subscription = useSubscription();
  if (!user) return { member: ANONYMOUS_MEMBER, isLoading: false, email: null };
  // A failed read leaves the visitor a plain signed-in buyer; the server refuses duplicate purchases anyway.
  return { member: { signedIn: true, ...memberPlanOf(subscription.data) }, isLoading: subscription.isPending, email: user.email };
}
