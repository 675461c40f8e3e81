import { useQuery } from '@tanstack/react-query';
import { operatorAlertsSchema } from '@shared/admin-ops-contract';
import { api } from '@client/lib/api/api-client';

export const ALERTS_QUERY_KEY = ['admin', 'alerts'] as const;

/** The alerts on now; also the console's "is this an operator" question (401/403 otherwise). */
export function useOperatorAlerts() {
  return useQuery({
    queryKey: ALERTS_QUERY_KEY,
    queryFn: () => api('/api/admin/alerts', { schema: operatorAlertsSchema }),
    refetchInterval: 30_000,
    retry: false,
  });
}
