import { useQuery } from '@tanstack/react-query';
import { RETENTION_REPORT_PATH, retentionReportSchema } from '@shared/retention-report';
import { api } from '@client/lib/api/api-client';

/** The retention numbers of months `from`–`to` (GET /api/admin/retention/report). */
export function useRetentionReport(range: { from: string; to: string }) {
  return useQuery({
    queryKey: ['admin', 'retention-report', range.from, range.to],
    queryFn: () => api(`${RETENTION_REPORT_PATH}?${new URLSearchParams(range)}`, { schema: retentionReportSchema }),
    retry: false,
  });
}
