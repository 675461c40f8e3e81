import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { atTheEdge } from './http/edge';
import { drainable } from './http/drain';
import { gracefulStop } from './http/graceful-stop';
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
// every background loop by name: started once the server listens, stopped by the graceful stop (whose log names them)
const loops = [
  ...Object.entries(jobs).flatMap(([name, job]) => (job ? [{ name, start: () => job.start(), stop: () => job.stop() }] : [])),
  ...integrations.flatMap((integration) => integration.loops.map((loop, index) => ({ name: `${integration.name} loop ${index + 1}`, start: () => loop.start(), stop: () => loop.stop() }))),
];
for (const loop of loops) loop.start();

const drain = drainable(server as Server);
function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  void gracefulStop(signal, { drain, loops, closeDatabase: () => database.close(), logger, noticeMs: config.stopNoticeMs, exit: (code) => process.exit(code) });
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
