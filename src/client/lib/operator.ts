import { useQuery } from '@tanstack/react-query';
import { OPERATOR_STATUS_PATH, operatorStatusSchema, type OperatorStatus } from '@shared/admin-contract';
import { api } from './api/api-client';

export const operatorQueryKey = (userId: string | null) => ['operator', userId] as const;

const MEMBER: OperatorStatus = { operator: false, standing: 'member' };

/**
 * What the signed-in user may do in the console (null while unknown): the member area shows the
 * console link to operators, /admin opens for them and tells a named operator what is missing.
 * Shared by both, so one answer serves every screen; a failed check reads as "not an operator".
 */
export function useOperatorStatus(userId: string | null): OperatorStatus | null {
  const query = useQuery({
    queryKey: operatorQueryKey(userId),
    queryFn: () => api(OPERATOR_STATUS_PATH, { schema: operatorStatusSchema }),
    enabled: userId !== null,
    staleTime: 5 * 60_000,
  });
  if (userId === null || query.isError) return MEMBER;
  return query.data ?? null;
}

/** Whether the signed-in user is an operator (null while unknown). */
export function useIsOperator(userId: string | null): boolean | null {
  return useOperatorStatus(userId)?.operator ?? null;
}
