import { useQuery } from '@tanstack/react-query';
import type { GuideFeature } from '@shared/content';
import { api } from '@client/lib/api/api-client';

export function useGuideFeature(productId: string, featureId: string) {
  return useQuery({
    queryKey: ['content', 'feature', productId, featureId],
    queryFn: () => api<GuideFeature>(`/api/content/guides/${encodeURIComponent(productId)}/features/${encodeURIComponent(featureId)}`),
    staleTime: 5 * 60_000,
  });
}
