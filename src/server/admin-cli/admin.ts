// `npm run admin -- <command>`: opens the configured database (migrating it first, as the server
// does) and manages the operators, promotion codes and script catalog stored there. With the embedded database, stop the server first:
// PGlite's data directory is one process's at a time.
import { buildCatalogue, buildContentStorage, buildPayments } from '../dependencies';
import { importContent } from '../modules/content/content-import';
import { CONTENT_DIR } from '../modules/content/content.service';
import { createCatalogueService } from '../modules/catalogue/catalogue.service';
import { createPriceMover } from '../modules/catalogue/price-moves';
import { createLogger } from '../logger';
import { recordOperatorAction } from '../modules/admin/audit.repository';
import { createPromotionsService } from '../modules/promotions/promotions.service';
import { createAffiliatesService } from '../modules/affiliates/affiliates.service';
import { createScriptCatalogService } from '../modules/tradingview/script-catalog.service';
import { buildTradingViewAccess } from '../modules/tradingview/tradingview.integration';
import { CLI_OPERATOR, runAdminCommand } from './admin-command';
import { runWithDatabase } from './cli-database';

await runWithDatabase(async (config, database) => {
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
    const settings = config.integrations.tradingview;
    const { port, reconciler } = buildTradingViewAccess({ settings, db: database.db, logger: createLogger(config.logLevel), clock });
    const audit = (entry: { operator: string; action: string; details: Record<string, unknown> }) => recordOperatorAction(database.db, entry);
    return createScriptCatalogService({ db: database.db, port, reconciler, initialBundle: settings.scriptIds, clock, audit });
  };
  const reimport = () => importContent({ db: database.db, storage: buildContentStorage(config, database.db), dir: CONTENT_DIR, productSlug: config.site.brandSlug, by: CLI_OPERATOR, at: clock() });
  // Affiliates: the card check of a purchase asks the configured payment provider.
  const affiliates = async () => {
    const logger = createLogger(config.logLevel);
    const payments = await buildPayments({ config, db: database.db, logger, clock });
    return createAffiliatesService({ db: database.db, payments, clock, logger, publicUrl: config.publicUrl, audit: (entry) => recordOperatorAction(database.db, entry) });
  };
  // The catalogue as the configuration seeds it; the first edit writes the seed with it.
  const catalogue = async () => {
    const store = buildCatalogue(config, database.db, clock);
    await store.load();
    const payments = await buildPayments({ config, db: database.db, logger: createLogger(config.logLevel), clock, catalogue: store });
    const mover = createPriceMover({ db: database.db, payments, taxBehavior: config.tax.behavior, audit: recordOperatorAction });
    return createCatalogueService(store, { payments, mover, audit: (entry) => recordOperatorAction(database.db, entry), taxBehavior: config.tax.behavior });
  };
  return runAdminCommand({ db: database.db, config, clock, promotions, scripts, importContent: reimport, affiliates, catalogue }, process.argv.slice(2));
});
