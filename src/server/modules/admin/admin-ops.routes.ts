// The operator console's TradingView, payments, access-change delivery, alerts and sandbox-tools API, mounted
// at /api/admin behind requireOperator. Handlers validate, call one service and answer a DTO.
import { Hono } from 'hono';
import { z } from 'zod';
import {
  fixResultSchema,
  grantMissingRequestSchema,
  grantQueueSchema,
  operatorAlertsSchema,
  orderFilterSchema,
  ordersSchema,
  refundResultSchema,
  outageRequestSchema,
  paymentEventsSchema,
  reconciliationSchema,
  replayResultSchema,
  retryFailedResultSchema,
  revokeUnpaidRequestSchema,
  sandboxToolsSchema,
  tradingViewHealthSchema,
} from '@shared/admin-ops-contract';
import { accessChangesBacklogSchema } from '@shared/admin-contract';
import { readJson } from '../../http/errors';
import { describeOperation } from '../../http/openapi';
import { requireUser, type AuthVariables } from '../../http/session-user';
import type { AccessChangesBacklogService } from './access-changes-backlog.service';
import type { OperatorAlerts } from './alerts.service';
import type { PaymentsReport } from './payments-report.service';
import type { SandboxToolsService } from './sandbox-tools.service';
import type { TradingViewHealthService } from './tradingview-health.service';

export type AdminOpsServices = {
  tradingView: TradingViewHealthService;
  payments: PaymentsReport;
  accessChanges: AccessChangesBacklogService;
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
  { method: 'POST', path: '/payments/orders/:id/refund' },
  { method: 'GET', path: '/payments/events' },
  { method: 'POST', path: '/payments/events/:id/replay' },
  { method: 'GET', path: '/access-changes' },
  { method: 'GET', path: '/sandbox' },
  { method: 'POST', path: '/sandbox/tradingview-outage' },
] as const;

const failureId = z.uuid('Malformed event failure id.');
const orderId = z.uuid('Malformed order id.');

export function adminOpsRoutes(services: AdminOpsServices) {
  const { tradingView, payments, accessChanges, alerts, sandbox } = services;
  return new Hono<{ Variables: AuthVariables }>()
    .get('/alerts', describeOperation({ summary: 'The alerts an operator should act on', auth: 'operator', response: operatorAlertsSchema }), async (c) => c.json({ alerts: await alerts.active() }))
    .get('/tradingview/health', describeOperation({ summary: "Whether the shop's TradingView session works, and its scripts' user counts", auth: 'operator', response: tradingViewHealthSchema }), async (c) => c.json(await tradingView.health()))
    .get('/tradingview/queue', describeOperation({ summary: 'The TradingView grants still to do and the latest settled', auth: 'operator', response: grantQueueSchema }), async (c) => c.json(await tradingView.queue()))
    .post('/tradingview/retry-failed', describeOperation({ summary: 'Retry every failed TradingView grant now', auth: 'operator', response: retryFailedResultSchema }), async (c) => c.json({ retried: await tradingView.retryAllFailed(requireUser(c)) }))
    .get('/tradingview/reconciliation', describeOperation({ summary: 'TradingView access against paid access: unpaid usernames, missing grants', auth: 'operator', response: reconciliationSchema }), async (c) => c.json(await tradingView.reconciliation()))
    .post('/tradingview/reconciliation/revoke', describeOperation({ summary: 'Revoke the access of a username no paying member has', auth: 'operator', body: revokeUnpaidRequestSchema, response: fixResultSchema }), async (c) => {
      const { username } = await readJson(c, revokeUnpaidRequestSchema);
      return c.json({ done: await tradingView.revokeUnpaid(username, requireUser(c)) });
    })
    .post('/tradingview/reconciliation/grant', describeOperation({ summary: "Grant a paying member's missing TradingView access", auth: 'operator', body: grantMissingRequestSchema, response: fixResultSchema }), async (c) => {
      const { userId } = await readJson(c, grantMissingRequestSchema);
      return c.json({ done: await tradingView.grantMissing(userId, requireUser(c)) });
    })
    .get('/payments/orders', describeOperation({ summary: 'Orders, filtered by plan, status and days', auth: 'operator', response: ordersSchema }), async (c) => c.json(await payments.orders(orderFilterSchema.parse(c.req.query()))))
    .post('/payments/orders/:id/refund', describeOperation({ summary: 'Refund an order in full at the payment provider (audited); its access ends with the refund', auth: 'operator', response: refundResultSchema }), async (c) =>
      c.json(await payments.refund(orderId.parse(c.req.param('id')), requireUser(c))),
    )
    .get('/payments/events', describeOperation({ summary: 'Processed payment events and the failed ones', auth: 'operator', response: paymentEventsSchema }), async (c) => c.json(await payments.events()))
    .post('/payments/events/:id/replay', describeOperation({ summary: 'Apply a failed payment event again', auth: 'operator', response: replayResultSchema }), async (c) => c.json({ result: await payments.replay(failureId.parse(c.req.param('id')), requireUser(c)) }))
    .get('/access-changes', describeOperation({ summary: 'Access changes each subscriber (TradingView, mail…) has yet to take: waiting, failing, oldest, last error', auth: 'operator', response: accessChangesBacklogSchema }), async (c) =>
      c.json(await accessChanges.backlog(), 200, { 'cache-control': 'private, no-store' }),
    )
    .get('/sandbox', describeOperation({ summary: "The sandbox tools' state: simulated TradingView outage, sandbox subscriptions", auth: 'operator', response: sandboxToolsSchema }), async (c) => c.json(await sandbox.state()))
    .post('/sandbox/tradingview-outage', describeOperation({ summary: 'Simulate a TradingView outage, or end it', auth: 'operator', body: outageRequestSchema, response: sandboxToolsSchema }), async (c) => {
      const { down } = await readJson(c, outageRequestSchema);
      await sandbox.setOutage(down, requireUser(c));
      return c.json(await sandbox.state());
    });
}
