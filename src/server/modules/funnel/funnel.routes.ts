// The console's funnel: GET /api/admin/funnel?days=30 (mounted behind the operator check).
import { Hono } from 'hono';
import { funnelQuerySchema, funnelReportSchema } from '@shared/funnel';
import { describeOperation } from '../../http/openapi';
import type { FunnelService } from './funnel.service';

const NO_STORE = { 'cache-control': 'private, no-store' };

export function funnelAdminRoutes(funnel: Pick<FunnelService, 'report'>) {
  return new Hono().get(
    '/funnel',
    describeOperation({
      summary: 'The funnel per day and per source over the last `days` (1–366, default 30)',
      auth: 'operator',
      response: funnelReportSchema,
    }),
    async (c) => {
      const { days } = funnelQuerySchema.parse(c.req.query());
      return c.json(await funnel.report(days), 200, NO_STORE);
    },
  );
}
