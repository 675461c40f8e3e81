// The console's TradingView page's API (mounted at /api/admin behind the operator check, as the
// integration's admin routes, decision 065): session health, the grant queue and "retry all
// failed", the reconciliation with who pays and its two fixes. Handlers validate, call the console
// service and answer a DTO.
import { Hono } from 'hono';
import { fixResultSchema, grantMissingRequestSchema, grantQueueSchema, reconciliationSchema, retryFailedResultSchema, revokeUnpaidRequestSchema, tradingViewHealthSchema } from '@shared/admin-ops-contract';
import { readJson } from '../../http/errors';
import { describeOperation } from '../../http/openapi';
import { requireUser, type AuthVariables } from '../../http/session-user';
import type { TradingViewConsoleService } from './tradingview-console.service';

/** Every route below (under /api/admin), for the table-driven authorisation test (admin-ops.routes.test.ts). */
export const TRADINGVIEW_CONSOLE_ROUTES = [
  { method: 'GET', path: '/tradingview/health' },
  { method: 'GET', path: '/tradingview/queue' },
  { method: 'POST', path: '/tradingview/retry-failed' },
  { method: 'GET', path: '/tradingview/reconciliation' },
  { method: 'POST', path: '/tradingview/reconciliation/revoke' },
  { method: 'POST', path: '/tradingview/reconciliation/grant' },
] as const;

export function tradingViewConsoleRoutes(tradingView: TradingViewConsoleService) {
  return new Hono<{ Variables: AuthVariables }>()
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
    });
}
