// `npm run import -- stripe|tradingview [--dry-run] [--map file.csv]`: builds the shop on the
// configured database as the server does and runs one import. With the embedded database, stop
// the server first: PGlite's data directory is one process's at a time.
import { readFile } from 'node:fs/promises';
import { compose } from '../composition';
import { buildDependencies, resolveAuthSecret } from '../dependencies';
import { createLogger } from '../logger';
import { tradingViewOf } from '../modules/tradingview/tradingview.integration';
import { runWithDatabase } from './cli-database';
import { runImportCommand } from './import-command';

/** Reconciler passes after a run: each takes up to a batch of grants; a pass that takes none ends it. */
const MAX_GRANT_PASSES = 200;

await runWithDatabase(async (config, database) => {
  // the report is the output: the log says only what went wrong
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const { services, deps } = compose(await buildDependencies(config, database, logger, { secret: await resolveAuthSecret(config) }));
  const { reconciler } = tradingViewOf(deps.integrations);
  return runImportCommand(
    {
      imports: services.imports,
      readFile: (path) => readFile(path, 'utf8'),
      async settle() {
        const total = { succeeded: 0, failed: 0 };
        for (let pass = 0; pass < MAX_GRANT_PASSES; pass += 1) {
          const summary = await reconciler.runOnce();
          total.succeeded += summary.succeeded;
          total.failed += summary.failed;
          if (summary.processed === 0) break;
        }
        // the set-your-password mails: sent now over SMTP, or kept in the sandbox mailbox
        await deps.mailer.runOnce();
        return total;
      },
    },
    process.argv.slice(2),
  );
});
