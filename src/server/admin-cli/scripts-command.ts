// `npm run admin -- scripts sync|list|set-plans`: the script catalog from the command line, through
// the same service as the console (validated, audited as the command line).
import { PLAN_TYPES } from '@shared/plans';
import { describeScript, parsePlanList, scriptIdSchema } from '@shared/script-catalog';
import { ApiError } from '../http/errors';
import type { ScriptCatalogService } from '../modules/tradingview/script-catalog.service';

export const SCRIPTS_USAGE = [
  "usage: npm run admin -- scripts sync                      (read the vendor's invite-only scripts from TradingView)",
  '       npm run admin -- scripts list                      (one line per script with the plans that grant it)',
  '       npm run admin -- scripts set-plans <PUB;id> <plans> (comma-separated, or none)',
  `plans: ${PLAN_TYPES.join(', ')}`,
].join('\n');

type Result = { output: string; exitCode: number };

export async function runScriptsCommand(catalog: ScriptCatalogService, operator: string, args: readonly string[]): Promise<Result> {
  const [command, ...rest] = args;
  try {
    if (command === 'list' && rest.length === 0) {
      return { output: (await catalog.list()).map(describeScript).join('\n') || 'No scripts in the catalog.', exitCode: 0 };
    }
    if (command === 'sync' && rest.length === 0) {
      const outcome = await catalog.sync(operator);
      const notes = [
        `${outcome.scripts.length} script(s) in the catalog; ${outcome.added.length} added, ${outcome.renamed.length} renamed.`,
        ...outcome.added.filter((script) => script.plans.length === 0).map((script) => `${script.id} is in no plan yet: npm run admin -- scripts set-plans ${script.id} <plans>`),
        ...outcome.unlisted.map((id) => `${id} was not listed by TradingView; kept as it is.`),
      ];
      return { output: [...notes, ...outcome.scripts.map(describeScript)].join('\n'), exitCode: 0 };
    }
    if (command === 'set-plans' && rest.length === 2) {
      const id = scriptIdSchema.safeParse(rest[0]);
      if (!id.success) return { output: `${id.error.issues[0]?.message ?? 'Not a script id.'}\n${SCRIPTS_USAGE}`, exitCode: 2 };
      const plans = parsePlanList(rest[1]!);
      if (typeof plans === 'string') return { output: plans, exitCode: 2 };
      const { script, resynced } = await catalog.setPlans(id.data, plans, operator);
      return { output: `${describeScript(script)}\n${resynced} member(s) on the changed plans brought up to date; the reconciler grants and revokes on TradingView.`, exitCode: 0 };
    }
  } catch (error) {
    // The service's refusals (an unknown script, TradingView not answering) are the operator's to read.
    if (error instanceof ApiError) return { output: error.message, exitCode: error.status < 500 ? 2 : 1 };
    throw error;
  }
  return { output: SCRIPTS_USAGE, exitCode: 2 };
}
