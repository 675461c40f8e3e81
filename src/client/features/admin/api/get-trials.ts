import { useQuery } from '@tanstack/react-query';
import { TRIAL_PATHS, trialsReportSchema } from '@shared/trials-contract';
import { api } from '@client/lib/api/api-client';

/** Free trials of the last 30 days, or every trial of one member. */
export function useTrialsReport(userId?: string) {
  return useQuery({
    queryKey: ['admin', 'trials', userId ?? 'all'],
    queryFn: () => api(`${TRIAL_PATHS.admin}${userId ? `?userId=${encodeURIComponent(userId)}` : ''}`, { schema: trialsReportSchema }),
  });
}
