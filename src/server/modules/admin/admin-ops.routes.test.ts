// Authorisation of every operator-console route of this module and of the Discord and TradingView integrations'
// console, one table: visitors 401, members 403, operators 200. ADMIN_OPS_ROUTES,
// DISCORD_CONSOLE_ROUTES and TRADINGVIEW_CONSOLE_ROUTES are the list; a route missing from the probes fails here.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { discordMembers, paymentEventFailures } from '../../db/schema';
import type { TestApp } from '../../test-support/test-app';
import { linkAccount } from '../discord/discord.repository';
import { createSandboxTradingView } from '../tradingview/sandbox-tradingview';
import { DISCORD_CONSOLE_ROUTES } from '../discord/discord-console.routes';
import { TRADINGVIEW_CONSOLE_ROUTES } from '../tradingview/tradingview-console.routes';
import { ADMIN_OPS_ROUTES } from './admin-ops.routes';
import { consoleSuite, seedMember } from '../../test-support/admin-test-kit';
import { buy, ordersOfSession } from '../../test-support/billing-test-kit';

const ROUTES = [...ADMIN_OPS_ROUTES, ...DISCORD_CONSOLE_ROUTES, ...TRADINGVIEW_CONSOLE_ROUTES];
type Route = (typeof ROUTES)[number];
type Probe = { path: string; body?: unknown };

let t: TestApp;
let operator: string;
let member: string;

consoleSuite((suite) => ({ t, operator, member } = suite));

/** A request each route answers with 200 for an operator, on the fixtures it needs. */
async function probes(): Promise<Map<Route, Probe>> {
  const paying = await seedMember(t.deps.database.db, { username: 'probe_trader' });
  const [failure] = await t.deps.database.db
    .insert(paymentEventFailures)
    .values({ kind: 'handler', eventId: 'evt_probe', source: 'sandbox', type: 'probe.unknown', event: { id: 'evt_probe', type: 'probe.unknown', created: new Date().toISOString() }, error: 'boom' })
    .returning({ id: paymentEventFailures.id });
  await linkAccount(t.deps.database.db, paying.userId, { id: '100000000000000001', username: 'probe_discord' }, new Date());
  const [linked] = await t.deps.database.db.select({ id: discordMembers.id }).from(discordMembers).where(eq(discordMembers.userId, paying.userId));
  const [paidOrder] = await ordersOfSession(t, await buy(t, 'probe-refund@example.com'));
  const concrete: Record<Route['path'], Probe> = {
    '/alerts': { path: '/alerts' },
    '/tradingview/health': { path: '/tradingview/health' },
    '/tradingview/queue': { path: '/tradingview/queue' },
    '/tradingview/retry-failed': { path: '/tradingview/retry-failed', body: {} },
    '/tradingview/reconciliation': { path: '/tradingview/reconciliation' },
    '/tradingview/reconciliation/revoke': { path: '/tradingview/reconciliation/revoke', body: { username: 'nobody_here' } },
    '/tradingview/reconciliation/grant': { path: '/tradingview/reconciliation/grant', body: { userId: paying.userId } },
    '/discord/overview': { path: '/discord/overview' },
    '/discord/roles': { path: '/discord/roles' },
    '/discord/accounts': { path: '/discord/accounts?failing=true&page=1' },
    '/discord/accounts/:id/retry': { path: `/discord/accounts/${linked!.id}/retry`, body: {} },
    '/discord/repairs': { path: '/discord/repairs' },
    '/discord/audit': { path: '/discord/audit', body: {} },
    '/payments/orders': { path: '/payments/orders?status=paid&plan=monthly&from=2030-01-01&to=2030-01-31' },
    '/payments/orders/:id/refund': { path: `/payments/orders/${paidOrder!.id}/refund`, body: {} },
    '/payments/events': { path: '/payments/events' },
    '/payments/events/:id/replay': { path: `/payments/events/${failure!.id}/replay`, body: {} },
    '/access-changes': { path: '/access-changes' },
    '/sandbox': { path: '/sandbox' },
    '/sandbox/tradingview-outage': { path: '/sandbox/tradingview-outage', body: { down: false } },
    '/sandbox/member-mails': { path: '/sandbox/member-mails', body: { days: 1 } },
  };
  return new Map(ROUTES.map((route) => [route, concrete[route.path]]));
}

describe('operator console routes (TradingView, Discord, payments, alerts, sandbox tools)', () => {
  it('answer visitors 401, members 403 and operators 200, on every route', async () => {
    const table = await probes();
    const results: string[] = [];
    for (const [route, probe] of table) {
      const send = (cookie?: string) => t.request(`/api/admin${probe.path}`, { method: route.method, body: probe.body, ...(cookie ? { cookie } : {}) });
      const [visitor, asMember, asOperator] = [await send(), await send(member), await send(operator)];
      results.push(`${route.method} ${route.path}: ${visitor.status} ${asMember.status} ${asOperator.status}`);
    }
    expect(results).toEqual(ROUTES.map((route) => `${route.method} ${route.path}: 401 403 200`));
  });

  it('hides unknown console paths behind the same check', async () => {
    expect((await t.request('/api/admin/nothing-here')).status).toBe(401);
    expect((await t.request('/api/admin/nothing-here', { cookie: member })).status).toBe(403);
    expect((await t.request('/api/admin/nothing-here', { cookie: operator })).status).toBe(404);
  });

  it('answers bad input with 400, never 500', async () => {
    const bad = [
      await t.request('/api/admin/payments/orders?status=lost', { cookie: operator }),
      await t.request('/api/admin/payments/orders?from=yesterday', { cookie: operator }),
      await t.request('/api/admin/payments/orders?from=2030-02-01&to=2030-01-01', { cookie: operator }),
      await t.request('/api/admin/payments/events/not-a-uuid/replay', { method: 'POST', body: {}, cookie: operator }),
      await t.request('/api/admin/tradingview/reconciliation/grant', { body: { userId: 'x' }, cookie: operator }),
      await t.request('/api/admin/tradingview/reconciliation/revoke', { body: '{', cookie: operator }),
      await t.request('/api/admin/sandbox/tradingview-outage', { body: { down: 'yes' }, cookie: operator }),
      await t.request('/api/admin/discord/accounts?failing=maybe', { cookie: operator }),
      await t.request('/api/admin/discord/accounts?page=0', { cookie: operator }),
      await t.request('/api/admin/discord/accounts/not-a-uuid/retry', { method: 'POST', body: {}, cookie: operator }),
    ];
    expect(bad.map((response) => response.status)).toEqual([400, 400, 400, 400, 400, 400, 400, 400, 400, 400]);
  });

  it("stores the console's TradingView outage where another instance on the database reads it", async () => {
    // a fresh adapter each time: another instance, with nothing cached
    const anotherInstance = () => createSandboxTradingView({ db: t.deps.database.db, missingUsernames: [], clock: () => new Date() });
    const sandboxState = async () => ((await (await t.request('/api/admin/sandbox', { cookie: operator })).json()) as { tradingViewOutage: boolean | null }).tradingViewOutage;
    try {
      expect((await t.request('/api/admin/sandbox/tradingview-outage', { body: { down: true }, cookie: operator })).status).toBe(200);
      expect(await anotherInstance().sandbox!.outage()).toBe(true);
      expect(await anotherInstance().healthCheck()).toMatchObject({ ok: false, kind: 'network' });
      expect(await sandboxState()).toBe(true);
    } finally {
      expect((await t.request('/api/admin/sandbox/tradingview-outage', { body: { down: false }, cookie: operator })).status).toBe(200);
    }
    expect(await anotherInstance().sandbox!.outage()).toBe(false);
    expect(await sandboxState()).toBe(false);
  });
});
