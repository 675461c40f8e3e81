// The console's CSV downloads: GET /api/admin/exports/{members,orders,churn-reasons,audit-log}.csv
// (mounted under /api/admin, behind the operator check). Each is audited and streamed.
import { Hono } from 'hono';
import { CSV_EXPORT_KINDS, CSV_EXPORTS } from '@shared/csv';
import { describeOperation } from '../../http/openapi';
import { requireUser, type AuthVariables } from '../../http/session-user';
import type { ExportsService } from './exports.service';

export function exportsAdminRoutes(exports: Pick<ExportsService, 'csv'>) {
  const routes = new Hono<{ Variables: AuthVariables }>();
  for (const kind of CSV_EXPORT_KINDS) {
    const { label, file } = CSV_EXPORTS[kind];
    routes.get(`/exports/${file}`, describeOperation({ summary: `The ${label} as CSV (streamed; the download is audited)`, auth: 'operator', ok: 'text/csv' }), async (c) =>
      c.body(await exports.csv(kind, requireUser(c).email), 200, {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${file}"`,
        'cache-control': 'private, no-store',
      }),
    );
  }
  return routes;
}
