import { useQuery } from '@tanstack/react-query';
import type { StrategySummary } from '@shared/content';
import { api } from '@client/lib/api/api-client';

export function useStrategies() {
  return useQuery({
    queryKey: ['content', 'strategies'],
    queryFn: () => api<{ strategies: StrategySummary[] }>('/api/content/strategies').then((result) => result.strategies),
    staleTime: 5 * 60_000,
  });
}
