// The Retention page's numbers: GET /api/admin/retention/report?from=YYYY-MM&to=YYYY-MM (mounted
// under /api/admin, behind the operator check).
import { Hono } from 'hono';
import { retentionReportQuerySchema, retentionReportSchema } from '@shared/retention-report';
import { describeOperation } from '../../http/openapi';
import { serverError } from '../../http/server-errors';
import type { RetentionReportService } from './retention-report.service';

const NO_STORE = { 'cache-control': 'private, no-store' };

export function retentionReportAdminRoutes(service: Pick<RetentionReportService, 'report'>) {
  return new Hono().get(
    '/retention/report',
    describeOperation({
      summary: 'Cohorts, churn by kind and reason, MRR movement, LTV per plan, trial conversion, refund and dispute rates, revenue per code and affiliate for months `from`–`to` (YYYY-MM, at most 24 months back)',
      auth: 'operator',
      response: retentionReportSchema,
    }),
    async (c) => {
      const query = retentionReportQuerySchema.safeParse(c.req.query());
      if (!query.success) throw serverError('invalidBody', query.error.issues[0]?.message);
      return c.json(await service.report(query.data), 200, NO_STORE);
    },
  );
}
