// The operator console's TradingView, payments, alerts and sandbox-tools API, mounted
// at /api/admin behind requireOperator. Handlers validate, call one service and answer a DTO.
import { Hono } from 'hono';
import { z } from 'zod';
import { grantMissingRequestSchema, orderFilterSchema, outageRequestSchema, revokeUnpaidRequestSchema } from '@shared/admin-ops-contract';
import { readJson } from '../../http/errors';
import { requireUser, type AuthVariables } from '../../http/session-user';
import type { OperatorAlerts } from './alerts.service';
import type { PaymentsReport } from './payments-report.service';
import type { SandboxToolsService } from './sandbox-tools.service';
import type { TradingViewHealthService } from './tradingview-health.service';

export type AdminOpsServices = {
  tradingView: TradingViewHealthService;
  payments: PaymentsReport;
  alerts: OperatorAlerts;
  sandbox: SandboxToolsService;
};

/** Every route below (under /api/admin), for the table-driven authorisation test. */
export const ADMIN_OPS_ROUTES = [
  { method: 'GET', path: '/alerts' },
  { method: 'GET', path: '/tradingview/health' },
  { method: 'GET', path: '/tradingview/queue' },
  { method: 'POST', path: '/tradingview/retry-failed' },
  { method: 'GET', path: '/tradingview/reconciliation' },
  { method: 'POST', path: '/tradingview/reconciliation/revoke' },
  { method: 'POST', path: '/tradingview/reconciliation/grant' },
  { method: 'GET', path: '/payments/orders' },
  { method: 'GET', path: '/payments/events' },
  { method: 'POST', path: '/payments/events/:id/replay' },
  { method: 'GET', path: '/sandbox' },
  { method: 'POST', path: '/sandbox/tradingview-outage' },
] as const;

const failureId = z.uuid('Malformed event failure id.');

export function adminOpsRoutes(services: AdminOpsServices) {
  const { tradingView, payments, alerts, sandbox } = services;
  return new Hono<{ Variables: AuthVariables }>()
    .get('/alerts', async (c) => c.json({ alerts: await alerts.active() }))
    .get('/tradingview/health', async (c) => c.json(await tradingView.health()))
    .get('/tradingview/queue', async (c) => c.json(await tradingView.queue()))
    .post('/tradingview/retry-failed', async (c) => c.json({ retried: await tradingView.retryAllFailed(requireUser(c)) }))
    .get('/tradingview/reconciliation', async (c) => c.json(await tradingView.reconciliation()))
    .post('/tradingview/reconciliation/revoke', async (c) => {
      const { username } = await readJson(c, revokeUnpaidRequestSchema);
      return c.json({ done: await tradingView.revokeUnpaid(username, requireUser(c)) });
    })
    .post('/tradingview/reconciliation/grant', async (c) => {
      const { userId } = await readJson(c, grantMissingRequestSchema);
      return c.json({ done: await tradingView.grantMissing(userId, requireUser(c)) });
    })
    .get('/payments/orders', async (c) => c.json(await payments.orders(orderFilterSchema.parse(c.req.query()))))
    .get('/payments/events', async (c) => c.json(await payments.events()))
    .post('/payments/events/:id/replay', async (c) => c.json({ result: await payments.replay(failureId.parse(c.req.param('id')), requireUser(c)) }))
    .get('/sandbox', async (c) => c.json(await sandbox.state()))
    .post('/sandbox/tradingview-outage', async (c) => {
      const { down } = await readJson(c, outageRequestSchema);
      await sandbox.setOutage(down, requireUser(c));
      return c.json(await sandbox.state());
    });
}
