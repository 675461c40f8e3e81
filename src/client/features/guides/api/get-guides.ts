import { useQuery } from '@tanstack/react-query';
import type { GuideSummary } from '@shared/content';
import { api } from '@client/lib/api/api-client';

export function useGuides() {
  return useQuery({
    queryKey: ['content', 'guides'],
    queryFn: () => api<{ guides: GuideSummary[] }>('/api/content/guides').then((result) => result.guides),
    staleTime: 5 * 60_000,
  });
}
