import { useQuery } from '@tanstack/react-query';
import { securityAlertsResponseSchema, type SecurityAlertsResponse } from '@shared/api-contract';
import { SECURITY_REFRESH_MS } from '@shared/security';
import { api } from '@client/lib/api/api-client';

export const securityAlertsKey = (userId: string | undefined) => ['security', 'alerts', userId] as const;

export function fetchSecurityAlerts(): Promise<SecurityAlertsResponse> {
  return api('/api/security/alerts', { schema: securityAlertsResponseSchema });
}

/** Score and alerts of the signed-in user, refreshed every 30 s while the dashboard is open. */
export function useSecurityAlerts(userId: string | undefined) {
  return useQuery({
    queryKey: securityAlertsKey(userId),
    queryFn: fetchSecurityAlerts,
    enabled: Boolean(userId),
    refetchInterval: SECURITY_REFRESH_MS,
    staleTime: SECURITY_REFRESH_MS,
  });
}
