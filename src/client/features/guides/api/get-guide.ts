import { useQuery } from '@tanstack/react-query';
import type { Guide } from '@shared/content';
import { api } from '@client/lib/api/api-client';

export function useGuide(id: string) {
  return useQuery({
    queryKey: ['content', 'guide', id],
    queryFn: () => api<Guide>(`/api/content/guides/${encodeURIComponent(id)}`),
    staleTime: 5 * 60_000,
  });
}
