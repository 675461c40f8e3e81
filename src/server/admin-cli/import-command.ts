// `npm run import -- stripe|tradingview [--dry-run] [--map file.csv]`: the import of an existing
// business from the command line. A map with broken lines stops it before anything is read.
import { formatBrokenLines, formatImportReport, IMPORT_SOURCES, parseUsernameMap, type ImportSource } from '@shared/imports';
import type { Imports } from '../modules/imports/imports.service';
import { CLI_OPERATOR, type CommandResult } from './admin-command';

export const IMPORT_USAGE = 'usage: npm run import -- stripe|tradingview [--dry-run] [--map file.csv]   (file.csv: email,tradingview_username per line)';

export type ImportCommandDeps = {
  imports: Pick<Imports, 'run'>;
  readFile: (path: string) => Promise<string>;
  /** After a real run: applies the TradingView grants it scheduled (the server retries what fails) and sends its mails. */
  settle: () => Promise<{ succeeded: number; failed: number }>;
};

type Parsed = { source: ImportSource; dryRun: boolean; mapFile: string | null };

export function parseImportArgs(args: readonly string[]): Parsed | string {
  const [source, ...flags] = args;
  if (!IMPORT_SOURCES.includes(source as ImportSource)) return IMPORT_USAGE;
  const parsed: Parsed = { source: source as ImportSource, dryRun: false, mapFile: null };
  for (let index = 0; index < flags.length; index += 1) {
    const flag = flags[index]!;
    if (flag === '--dry-run') parsed.dryRun = true;
    else if (flag === '--map' && flags[index + 1] && !flags[index + 1]!.startsWith('--')) parsed.mapFile = flags[(index += 1)]!;
    else if (flag.startsWith('--map=') && flag.length > '--map='.length) parsed.mapFile = flag.slice('--map='.length);
    else return `Unknown or incomplete option: ${flag}\n${IMPORT_USAGE}`;
  }
  return parsed;
}

export async function runImportCommand(deps: ImportCommandDeps, args: readonly string[]): Promise<CommandResult> {
  const parsed = parseImportArgs(args);
  if (typeof parsed === 'string') return { output: parsed, exitCode: 2 };
  let map: ReadonlyMap<string, string> = new Map();
  if (parsed.mapFile) {
    let text: string;
    try {
      text = await deps.readFile(parsed.mapFile);
    } catch (error) {
      return { output: `Cannot read ${parsed.mapFile}: ${error instanceof Error ? error.message : String(error)}`, exitCode: 2 };
    }
    const result = parseUsernameMap(text);
    if (!result.ok) return { output: formatBrokenLines(parsed.mapFile, result.errors), exitCode: 2 };
    map = result.map;
  }
  const report = await deps.imports.run(parsed.source, { dryRun: parsed.dryRun, map, operator: CLI_OPERATOR });
  const lines = [formatImportReport(parsed.source, parsed.dryRun, report)];
  if (!parsed.dryRun && report.created.length + report.matched.length > 0) {
    const grants = await deps.settle();
    lines.push(`TradingView: ${grants.succeeded} grants applied now${grants.failed ? `, ${grants.failed} failed (the server retries them)` : ''}`);
  }
  return { output: lines.join('\n'), exitCode: report.error ? 1 : 0 };
}
