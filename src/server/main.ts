import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { atTheEdge } from './http/edge';
import { drainable } from './http/drain';
import { securityHeaders } from './http/security-headers';
import { compose } from './composition';
import { buildDependencies, resolveAuthSecret } from './dependencies';
import { ConfigError, listeningUrl, loadConfig, sandboxAdapters, type Config } from './config';
import { openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { CONTENT_DIR } from './modules/content/content.service';
import { importContentOnFirstStart } from './modules/content/content-import';
import { createLogger, loadPrettifier } from './logger';
import { passesDoctor } from './doctor/startup-check';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

const config = readConfig();
const logger = createLogger(config.logLevel, { prettify: await loadPrettifier(config.isProduction, process.stdout.isTTY) });
// A live shop checks its outside services before it takes a request (npm run doctor's checks).
if (config.isProduction && !(await passesDoctor(config, logger))) process.exit(1);
const database = await openDatabase(
  config.database.kind === 'postgres' ? config.database : { kind: 'pglite', dataDir: config.database.dataDir },
  (error) => logger.warn({ err: error }, 'idle database connection lost'),
);
const applied = await migrate(database.db);
logger.info({ engine: database.engine, applied }, 'database ready');

const clientDir = resolve(config.clientDir);
const deps = await buildDependencies(config, database, logger, { secret: await resolveAuthSecret(config) });
// The repository's guides and strategies become the studio's rows at a shop's first start.
const imported = await importContentOnFirstStart({ db: database.db, storage: deps.contentStorage, dir: CONTENT_DIR, productSlug: config.site.brandSlug, by: 'first start', at: new Date() });
if (imported) logger.info(imported, 'content imported from content/');
await deps.content.current();
const composition = compose(deps);
const { jobs, integrations = [] } = composition;
let stopping = false;
const app = await createApp(composition, { clientDir: existsSync(resolve(clientDir, 'index.html')) ? clientDir : null, stopping: () => stopping });

const sandboxes = sandboxAdapters(config);
logger.info(
  {
    payments: config.payments.kind,
    ...Object.fromEntries(integrations.map((integration) => [integration.name, integration.sandbox ? 'sandbox' : integration.name])),
  },
  sandboxes.length ? `adapters in use (sandbox: ${sandboxes.join(', ')})` : 'adapters in use (all live)',
);

// Idle connections stay open longer than the usual proxies' 60 s: when the server closes a
// connection that a proxy (or a client) is just reusing, that request fails with a reset.
const serverOptions = { keepAliveTimeout: 65_000, headersTimeout: 66_000 };
const fetch = atTheEdge(app.fetch, { headers: securityHeaders(config), logger });
const server = serve({ fetch, hostname: config.host, port: config.port, serverOptions }, (info) => {
  const address = listeningUrl(config.host, info.port);
  logger.info(address === config.publicUrl ? `listening on ${address}` : `listening on ${address}, public address ${config.publicUrl}`);
});
jobs.memberMails.start();
jobs.sandbox?.start();
jobs.operatorAlerts.start();
jobs.accessChanges.start();
jobs.affiliateDigest.start();
jobs.funnelVisits.start();
for (const loop of integrations.flatMap((integration) => integration.loops)) loop.start();

const drain = drainable(server as Server);
/** Requests in flight get this long to be answered (a rolling deploy's grace). */
const DRAIN_MS = 10_000;
/** And the whole stop this long after the notice: the container's stop timeout (compose.yaml's stop_grace_period) is longer. */
const STOP_LIMIT_MS = 25_000;

/**
 * Stops without dropping a request or leaving work leased: first the notice (STOP_NOTICE_MS:
 * /readyz says 503 while everything is still answered, so a proxy stops sending here before a
 * connection closes under a request it is sending), then no new connection, the requests in
 * flight answered (up to DRAIN_MS), then each background loop finishes the pass in flight, whose
 * claimed rows (grant queue, outbox, the integrations' work, access-change deliveries) it completes or
 * gives back with their retry time, so another instance goes on with them at once rather than
 * once a lease lapses; then the database is closed.
 */
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  const started = Date.now();
  logger.info({ signal, inFlight: drain.inFlight(), noticeMs: config.stopNoticeMs }, 'shutting down');
  const limitMs = config.stopNoticeMs + STOP_LIMIT_MS;
  // what the stop still waits for, named in the log when it runs out of time
  let phase = 'notice';
  const waitingFor = new Set<string>();
  setTimeout(() => {
    logger.error({ limitMs, phase, waitingFor: [...waitingFor], inFlight: drain.inFlight() }, 'shutdown took too long; exiting');
    process.exit(1);
  }, limitMs).unref();
  if (config.stopNoticeMs > 0) await new Promise((done) => setTimeout(done, config.stopNoticeMs));
  phase = 'draining requests';
  const { cut } = await drain.close(DRAIN_MS);
  if (cut > 0) logger.warn({ cut, graceMs: DRAIN_MS }, 'requests still unanswered at the end of the grace period were cut');
  phase = 'stopping background loops';
  const { sandbox } = jobs;
  const stopLoop = async (name: string, stop: () => Promise<void>) => {
    waitingFor.add(name);
    await stop();
    waitingFor.delete(name);
  };
  const loops = await Promise.allSettled([
    stopLoop('access changes', () => jobs.accessChanges.stop()),
    stopLoop('affiliate digest', () => jobs.affiliateDigest.stop()),
    stopLoop('funnel visits', () => jobs.funnelVisits.stop()),
    stopLoop('operator alerts', () => jobs.operatorAlerts.stop()),
    ...(sandbox ? [stopLoop('sandbox billing', () => sandbox.stop())] : []),
    stopLoop('member mails', () => jobs.memberMails.stop()),
    ...integrations.flatMap((integration) => integration.loops.map((loop, index) => stopLoop(`${integration.name} loop ${index + 1}`, () => loop.stop()))),
  ]);
  for (const loop of loops) if (loop.status === 'rejected') logger.error({ err: loop.reason }, 'a background loop failed while stopping');
  phase = 'closing the database';
  await database.close().catch((error: unknown) => logger.warn({ err: error }, 'the database did not close cleanly'));
  logger.info({ tookMs: Date.now() - started }, 'stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
