import { useQuery } from '@tanstack/react-query';
import { OPERATOR_STATUS_PATH, operatorStatusSchema } from '@shared/admin-contract';
import { api } from './api/api-client';

export const operatorQueryKey = (userId: string | null) => ['operator', userId] as const;

/**
 * Whether the signed-in user is an operator (null while unknown): the member area shows the
 * console link and /admin opens only then. Shared by both, so one answer serves every screen.
 */
export function useIsOperator(userId: string | null): boolean | null {
  const query = useQuery({
    queryKey: operatorQueryKey(userId),
    queryFn: () => api(OPERATOR_STATUS_PATH, { schema: operatorStatusSchema }).then((status) => status.operator),
    enabled: userId !== null,
    staleTime: 5 * 60_000,
  });
  if (userId === null || query.isError) return false;
  return query.data ?? null;
}
