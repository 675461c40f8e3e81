import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { buildDependencies, resolveAuthSecret } from './dependencies';
import { ConfigError, loadConfig, sandboxAdapters, type Config } from './config';
import { openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { loadSiteContent } from './modules/content/content.service';
import { createLogger } from './logger';
import { createBillingJobs } from './modules/billing/sandbox-jobs';

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
const logger = createLogger(config.logLevel, !config.isProduction && process.stdout.isTTY);
const database = await openDatabase(
  config.database.kind === 'postgres' ? config.database : { kind: 'pglite', dataDir: config.database.dataDir },
  (error) => logger.warn({ err: error }, 'idle database connection lost'),
);
const applied = await migrate(database.db);
logger.info({ engine: database.engine, applied }, 'database ready');

const clientDir = resolve(config.clientDir);
const deps = buildDependencies(config, database, logger, { secret: await resolveAuthSecret(config), content: await loadSiteContent(config) });
const app = await createApp(deps, { clientDir: existsSync(resolve(clientDir, 'index.html')) ? clientDir : null });

const sandboxes = sandboxAdapters(config);
logger.info(
  {
    payments: config.payments.kind,
    tradingview: config.tradingView.credentials ? 'tradingview' : 'sandbox',
    mail: config.mail.kind,
  },
  sandboxes.length ? `adapters in use (sandbox: ${sandboxes.join(', ')})` : 'adapters in use (all live)',
);

const server = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, (info) => {
  logger.info(`listening on ${config.publicUrl} (port ${info.port})`);
});
deps.reconciler.start();
const billingJobs = createBillingJobs(deps);
billingJobs?.start();

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  // stop taking connections, let in-flight requests finish, then release the database
  server.close(async () => {
    await billingJobs?.stop();
    await deps.reconciler.stop();
    await database.close();
    logger.info('stopped');
    process.exit(0);
  });
  setTimeout(() => process.exit(1), 10_000).unref();
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
