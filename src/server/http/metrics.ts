// /metrics in Prometheus's text format (prom-client): the requests by route, the background
// queues read from the database at each scrape, and the process's own health (event-loop lag,
// heap). Served only when METRICS_TOKEN or METRICS_ALLOW is set, and then only to a request with
// the token or from an allowed client address (decision 051; docs/deploying.md "Metrics").
import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { sql } from 'drizzle-orm';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Config } from '../config';
import type { Community } from '../linked-accounts';
import type { Db } from '../db/client';
import { queryRows } from '../db/query';
import { resolveClientAddress } from './client-address';
import { errorBody } from './errors';

export const metricsEnabled = (config: Pick<Config, 'metrics'>) => Boolean(config.metrics.token) || config.metrics.allow.length > 0;

type Backlogs = {
  grants_due: number;
  grants_oldest_due_seconds: number;
  grants_failed: number;
  outbox_waiting: number;
  outbox_oldest_seconds: number;
  outbox_failed: number;
  deliveries_waiting: number;
  deliveries_oldest_seconds: number;
  webhook_failures: number;
  webhook_lag_seconds: number;
};

/** Every backlog in one statement, at the shop's clock; open rows only, which the queues' partial indexes hold. */
async function readBacklogs(db: Db, now: Date): Promise<Backlogs> {
  const at = now.toISOString();
  const [row] = await queryRows<Record<keyof Backlogs, string | number | null>>(
    db,
    sql`SELECT
      (SELECT count(*) FROM tradingview_grants WHERE status IN ('pending', 'processing', 'failed') AND next_attempt_at <= ${at}::timestamptz) AS grants_due,
      (SELECT extract(epoch FROM ${at}::timestamptz - min(next_attempt_at)) FROM tradingview_grants WHERE status IN ('pending', 'processing', 'failed') AND next_attempt_at <= ${at}::timestamptz) AS grants_oldest_due_seconds,
      (SELECT count(*) FROM tradingview_grants WHERE status = 'failed') AS grants_failed,
      (SELECT count(*) FROM outbox WHERE status IN ('queued', 'sending', 'failing')) AS outbox_waiting,
      (SELECT extract(epoch FROM ${at}::timestamptz - min(created_at)) FROM outbox WHERE status IN ('queued', 'sending', 'failing')) AS outbox_oldest_seconds,
      (SELECT count(*) FROM outbox WHERE status = 'failed') AS outbox_failed,
      (SELECT count(*) FROM access_change_deliveries) AS deliveries_waiting,
      (SELECT extract(epoch FROM ${at}::timestamptz - min(c.occurred_at)) FROM access_change_deliveries d JOIN access_changes c ON c.id = d.change_id) AS deliveries_oldest_seconds,
      (SELECT count(*) FROM payment_event_failures WHERE resolved_at IS NULL) AS webhook_failures,
      (SELECT extract(epoch FROM ${at}::timestamptz - min(first_failed_at)) FROM payment_event_failures WHERE resolved_at IS NULL) AS webhook_lag_seconds`,
  );
  return Object.fromEntries(Object.entries(row ?? {}).map(([key, value]) => [key, Math.max(0, Number(value ?? 0))])) as Backlogs;
}

const BACKLOG_GAUGES: { name: string; help: string; value: keyof Backlogs }[] = [
  { name: 'candlewise_grant_queue_due', help: 'TradingView grants and revocations due now (pending, in progress or retrying)', value: 'grants_due' },
  { name: 'candlewise_grant_queue_oldest_due_seconds', help: 'How long the oldest due TradingView grant has waited past its time', value: 'grants_oldest_due_seconds' },
  { name: 'candlewise_grants_failed', help: 'TradingView grants whose last attempt failed (retried with back-off)', value: 'grants_failed' },
  { name: 'candlewise_outbox_backlog', help: 'Mails waiting in the outbox (queued, sending or retrying)', value: 'outbox_waiting' },
  { name: 'candlewise_outbox_oldest_seconds', help: 'Age of the oldest mail waiting in the outbox', value: 'outbox_oldest_seconds' },
  { name: 'candlewise_outbox_failed', help: 'Mails that were given up on', value: 'outbox_failed' },
  { name: 'candlewise_access_change_deliveries_waiting', help: 'Access changes not yet delivered to a subscriber (TradingView, the communities, mail)', value: 'deliveries_waiting' },
  { name: 'candlewise_access_change_oldest_seconds', help: 'Age of the oldest access change not yet delivered', value: 'deliveries_oldest_seconds' },
  { name: 'candlewise_webhook_failures_unresolved', help: 'Payment webhook events that failed and are not yet processed', value: 'webhook_failures' },
  { name: 'candlewise_webhook_lag_seconds', help: 'How long the oldest unprocessed payment webhook event has waited (0: none waiting)', value: 'webhook_lag_seconds' },
];

const sha256 = (text: string) => createHash('sha256').update(text).digest();

function socketAddress(c: Context): string | null {
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null; // app.request() without connection info
  }
}

export type Metrics = {
  /** Counts every request and its time by method, matched route and status. */
  observe: MiddlewareHandler;
  /** The /metrics handler: the text format for an allowed scraper, 403 for anyone else. */
  serve: (c: Context) => Promise<Response>;
};

export function createMetrics(deps: { db: Db; clock: () => Date; config: Pick<Config, 'metrics' | 'trustProxy'>; communities: readonly Community[] }): Metrics {
  const { db, clock, config, communities } = deps;
  const registry = new Registry();
  // the process: event-loop lag (nodejs_eventloop_lag_*), heap (nodejs_heap_*), CPU, memory, handles
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({ name: 'candlewise_http_requests_total', help: 'Requests answered, by method, matched route and status', labelNames: ['method', 'route', 'status'] as const, registers: [registry] });
  const duration = new Histogram({
    name: 'candlewise_http_request_duration_seconds',
    help: 'Time to answer a request, by method and matched route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // one read of the database per scrape, shared by the gauges (serve() starts each scrape afresh):
  // the shop's queues in one statement, each community's as its integration counts it
  const readAll = async () => {
    const now = clock();
    const [backlogs, queues] = await Promise.all([readBacklogs(db, now), Promise.all(communities.map(({ links }) => links.backlog(now)))]);
    return { backlogs, queues };
  };
  let reading: ReturnType<typeof readAll> | null = null;
  const readings = () => (reading ??= readAll());
  const gauge = (name: string, help: string, value: (read: Awaited<ReturnType<typeof readAll>>) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        this.set(value(await readings()));
      },
    });
  for (const { name, help, value } of BACKLOG_GAUGES) gauge(name, help, (read) => read.backlogs[value]);
  communities.forEach(({ name, title, links }, index) => {
    gauge(`candlewise_${name}_backlog`, `${title}: linked accounts whose ${links.gives} are due a change now`, (read) => read.queues[index]?.due ?? 0);
    gauge(`candlewise_${name}_failed`, `${title}: linked accounts whose last change of ${links.gives} failed`, (read) => read.queues[index]?.failed ?? 0);
  });

  const token = config.metrics.token ? sha256(`Bearer ${config.metrics.token}`) : null;
  const allowed = new BlockList();
  for (const entry of config.metrics.allow) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) allowed.addAddress(address, type);
    else allowed.addSubnet(address, Number(prefix), type);
  }
  const mayRead = (c: Context) => {
    const authorization = c.req.header('authorization');
    if (token && authorization && timingSafeEqual(sha256(authorization), token)) return true;
    if (config.metrics.allow.length === 0) return false;
    const address = resolveClientAddress(socketAddress(c), c.req.header('x-forwarded-for') ?? null, config.trustProxy);
    return Boolean(address && isIP(address) && allowed.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4'));
  };

  return {
    async observe(c, next) {
      const started = performance.now();
      await next();
      // the route as registered (/api/content/guides/:slug), not the path: one series per route
      const route = routePath(c) || 'unmatched';
      requests.inc({ method: c.req.method, route, status: String(c.res.status) });
      duration.observe({ method: c.req.method, route }, (performance.now() - started) / 1000);
    },
    async serve(c) {
      if (!mayRead(c)) return c.json(errorBody('forbidden', 'The metrics need the METRICS_TOKEN bearer token or an address in METRICS_ALLOW.'), 403);
      reading = null;
      return c.body(await registry.metrics(), 200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
    },
  };
}
