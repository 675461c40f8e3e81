// `npm run admin -- <command>`: opens the configured database (migrating it first, as the server
// does) and manages the operators, promotion codes and script catalog stored there. With the embedded database, stop the server first:
// PGlite's data directory is one process's at a time.
import { ConfigError, loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { migrate } from '../db/migrate';
import { buildPayments, buildTradingView } from '../dependencies';
import { createLogger } from '../logger';
import { recordOperatorAction } from '../modules/admin/audit.repository';
import { createPromotionsService } from '../modules/promotions/promotions.service';
import { createScriptCatalogService } from '../modules/tradingview/script-catalog.service';
import { runAdminCommand } from './admin-command';

try {
  const config = loadConfig();
  const database = await openDatabase(config.database.kind === 'postgres' ? config.database : { kind: 'pglite', dataDir: config.database.dataDir });
  try {
    await migrate(database.db);
    const clock = () => new Date();
    // Promotion codes are mirrored at the payment provider the configuration names (the sandbox's tables, or Stripe).
    const promotions = async () => {
      const logger = createLogger(config.logLevel);
      const payments = await buildPayments({ config, db: database.db, logger, clock });
      return createPromotionsService({ db: database.db, payments, clock, logger, audit: (entry) => recordOperatorAction(database.db, entry) });
    };
    // The script catalog reads the TradingView the configuration names; its reconciler only writes
    // the members' desired grants here, which the server's reconciler applies.
    const scripts = async () => {
      const { tradingView, reconciler } = buildTradingView({ config, db: database.db, logger: createLogger(config.logLevel), clock });
      const audit = (entry: { operator: string; action: string; details: Record<string, unknown> }) => recordOperatorAction(database.db, entry);
      return createScriptCatalogService({ db: database.db, port: tradingView, reconciler, initialBundle: config.tradingView.scriptIds, clock, audit });
    };
    const result = await runAdminCommand({ db: database.db, config, clock, promotions, scripts }, process.argv.slice(2));
    console.log(result.output);
    process.exitCode = result.exitCode;
  } finally {
    await database.close();
  }
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
