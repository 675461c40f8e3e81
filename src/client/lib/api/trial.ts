import { useQuery } from '@tanstack/react-query';
import { memberTrialResponseSchema, TRIAL_PATHS } from '@shared/trials-contract';
import { useAuth } from '@client/lib/auth-state';
import { api } from './api-client';

/** Query keys of GET /api/trial: one per user. */
export const trialKeys = { all: ['trial'] as const, member: (userId: string | undefined) => ['trial', userId] as const };

/** The signed-in member's latest free trial (null: none); idle without a user. */
export function useMemberTrial() {
  const userId = useAuth().user?.id;
  return useQuery({
    queryKey: trialKeys.member(userId),
    queryFn: async () => (await api(TRIAL_PATHS.member, { schema: memberTrialResponseSchema })).trial,
    enabled: userId !== undefined,
  });
}
