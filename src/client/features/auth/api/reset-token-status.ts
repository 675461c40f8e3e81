import { useQuery } from '@tanstack/react-query';
import { authRequest } from '@client/lib/auth-request';

export const fetchResetTokenStatus = (token: string) =>
  authRequest<{ valid: boolean }>(`/api/auth/reset-token-status?token=${encodeURIComponent(token)}`);

/** Whether the link's token can still be used, so an expired link is told before typing. */
export const useResetTokenStatus = (token: string | null) =>
  useQuery({
    queryKey: ['auth', 'reset-token', token],
    queryFn: () => fetchResetTokenStatus(token ?? ''),
    enabled: token !== null,
    staleTime: Infinity,
    retry: 1,
  });
