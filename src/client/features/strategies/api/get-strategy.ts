import { useQuery } from '@tanstack/react-query';
import type { Strategy } from '@shared/content';
import { api } from '@client/lib/api/api-client';

export function useStrategy(id: string) {
  return useQuery({
    queryKey: ['content', 'strategy', id],
    queryFn: () => api<Strategy>(`/api/content/strategies/${encodeURIComponent(id)}`),
    staleTime: 5 * 60_000,
  });
}
