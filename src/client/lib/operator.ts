import { useQuery } from '@tanstack/react-query';
import { ADMIN_API, adminMeSchema } from '@shared/admin-contract';
import { api, ApiRequestError } from './api-client';

export const operatorQueryKey = (userId: string | null) => ['admin', 'me', userId] as const;

/** True for operators; the server says 401/403 to everyone else, which here simply means "no". */
async function fetchIsOperator(): Promise<boolean> {
  try {
    await api(`${ADMIN_API}/me`, { schema: adminMeSchema });
    return true;
  } catch (error) {
    if (error instanceof ApiRequestError && (error.status === 401 || error.status === 403)) return false;
    throw error;
  }
}

/**
 * Whether the signed-in user is an operator (null while unknown): the member area shows the
 * console link and /admin opens only then. Shared by both, so one answer serves every screen.
 */
export function useIsOperator(userId: string | null): boolean | null {
  const query = useQuery({ queryKey: operatorQueryKey(userId), queryFn: fetchIsOperator, enabled: userId !== null, staleTime: 5 * 60_000, retry: 1 });
  if (userId === null) return false;
  if (query.isError) return false;
  return query.data ?? null;
}
