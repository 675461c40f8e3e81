// The import of an existing business, one run at a time: each run (dry or real) is logged with its
// report, which the command line prints and the console shows. A provider failing mid-run ends the
// run with what it did so far and the error; the same command continues, since every step is
// keyed by the provider's own ids and skips what an earlier run did.
import { emptyImportReport, type ImportReport, type ImportSource, type UsernameMap } from '@shared/imports';
import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import { finishRun, recentImportedMembers, recentRuns, startRun } from './imports.repository';
import { runStripeImport, type StripeImportDeps } from './stripe-import';
import { runTradingViewImport, type TradingViewImportDeps } from './tradingview-import';

export type ImportsDeps = Omit<StripeImportDeps, 'operator'> & Omit<TradingViewImportDeps, 'operator' | 'accounts'> & { db: Db; logger: Logger };

const CONSOLE_ROWS = 200;

export function createImports(deps: ImportsDeps) {
  const { db, clock, logger } = deps;

  async function run(source: ImportSource, options: { dryRun: boolean; map: UsernameMap; operator: string }): Promise<ImportReport> {
    const report = emptyImportReport();
    const runId = await startRun(db, { source, dryRun: options.dryRun, startedAt: clock(), report });
    try {
      if (source === 'stripe') await runStripeImport({ ...deps, operator: options.operator }, options, report);
      else await runTradingViewImport({ ...deps, operator: options.operator }, options, report);
    } catch (error) {
      report.error = error instanceof Error ? error.message : String(error);
      logger.warn({ err: error, source, dryRun: options.dryRun }, 'import stopped; rerun to continue');
    }
    await finishRun(db, runId, report, clock());
    logger.info({ source, dryRun: options.dryRun, read: report.read, created: report.created.length, unchanged: report.unchanged, conflicts: report.conflicts.length }, 'import run finished');
    return report;
  }

  return {
    run,
    /** The console's view: the latest runs with their reports, and the members the imports brought in. */
    async overview() {
      const [runs, members] = await Promise.all([recentRuns(db, 20), recentImportedMembers(db, CONSOLE_ROWS)]);
      return { runs, members };
    },
  };
}

export type Imports = ReturnType<typeof createImports>;
