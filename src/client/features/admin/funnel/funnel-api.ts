import { useQuery } from '@tanstack/react-query';
import { funnelReportSchema } from '@shared/funnel';
import { api } from '@client/lib/api/api-client';

/** The funnel over the last `days` days (GET /api/admin/funnel). */
export function useFunnel(days: number) {
  return useQuery({
    queryKey: ['admin', 'funnel', days],
    queryFn: () => api(`/api/admin/funnel?days=${days}`, { schema: funnelReportSchema }),
    retry: false,
  });
}
