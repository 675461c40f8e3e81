// The operator console's payments, access-change delivery, alerts and sandbox-tools API, mounted
// at /api/admin behind requireOperator (the TradingView page's is the integration's). Handlers
// validate, call one service and answer a DTO.
import { Hono } from 'hono';
import { z } from 'zod';
import {
  operatorAlertsSchema,
  orderFilterSchema,
  ordersSchema,
  refundResultSchema,
  outageRequestSchema,
  paymentEventsSchema,
  replayResultSchema,
  memberMailsAheadRequestSchema,
  memberMailsAheadSchema,
  sandboxToolsSchema,
} from '@shared/admin-ops-contract';
import { accessChangesBacklogSchema } from '@shared/admin-contract';
import { readJson } from '../../http/errors';
import { describeOperation } from '../../http/openapi';
import { requireUser, type AuthVariables } from '../../http/session-user';
import type { AccessChangesBacklogService } from './access-changes-backlog.service';
import type { OperatorAlerts } from './alerts.service';
import type { PaymentsReport } from './payments-report.service';
import type { SandboxToolsService } from './sandbox-tools.service';

export type AdminOpsServices = {
  payments: PaymentsReport;
  accessChanges: AccessChangesBacklogService;
  alerts: OperatorAlerts;
  sandbox: SandboxToolsService;
};

/** Every route below (under /api/admin), for the table-driven authorisation test. */
export const ADMIN_OPS_ROUTES = [
  { method: 'GET', path: '/alerts' },
  { method: 'GET', path: '/payments/orders' },
  { method: 'POST', path: '/payments/orders/:id/refund' },
  { method: 'GET', path: '/payments/events' },
  { method: 'POST', path: '/payments/events/:id/replay' },
  { method: 'GET', path: '/access-changes' },
  { method: 'GET', path: '/sandbox' },
  { method: 'POST', path: '/sandbox/tradingview-outage' },
  { method: 'POST', path: '/sandbox/member-mails' },
] as const;

const failureId = z.uuid('Malformed event failure id.');
const orderId = z.uuid('Malformed order id.');

export function adminOpsRoutes(services: AdminOpsServices) {
  const { payments, accessChanges, alerts, sandbox } = services;
  return new Hono<{ Variables: AuthVariables }>()
    .get('/alerts', describeOperation({ summary: 'The alerts an operator should act on', auth: 'operator', response: operatorAlertsSchema }), async (c) => c.json({ alerts: await alerts.active() }))
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
    })
    .post('/sandbox/member-mails', describeOperation({
      summary: 'Run the win-back mails and set-up reminders as a pass `days` from now would (audited)',
      auth: 'operator',
      description: 'Only while mails stay in the outbox and payments in the sandbox (404 otherwise); a member never gets the same mail twice.',
      body: memberMailsAheadRequestSchema,
      response: memberMailsAheadSchema,
    }), async (c) => {
      const { days } = await readJson(c, memberMailsAheadRequestSchema);
      return c.json(await sandbox.runMemberMailsAhead(days, requireUser(c)));
    });
}
