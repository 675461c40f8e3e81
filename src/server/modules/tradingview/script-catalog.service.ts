// The script catalog for operators (console and command line, both audited): read the vendor's
// scripts from TradingView, and choose which plans grant each. A plan's new bundle reaches its
// members through the reconciler: each member's grant names their scripts, and the reconciler
// grants what was added and revokes what was taken away.
import { PLAN_TYPES, type PlanType } from '@shared/plans';
import { planSync, type CatalogScript } from '@shared/script-catalog';
import type { Db } from '../../db/client';
import { serverError } from '../../http/server-errors';
import type { GrantReconciler } from './grant-reconciler';
import { addScripts, markListed, readCatalog, renameScript, setScriptPlans, type CatalogRow } from './script-catalog.repository';
import { nameUnnamedScripts } from './script-names';
import { membersOnPlans } from '../entitlements/entitlement-reads';
import { toTradingViewError, type TradingViewPort } from './tradingview.port';

export type ScriptCatalogDeps = {
  db: Db;
  port: TradingViewPort;
  /** Only syncUser is used: it writes the members' desired grants, which a running reconciler applies. */
  reconciler: Pick<GrantReconciler, 'syncUser'>;
  /** TRADINGVIEW_SCRIPT_IDS: every plan's bundle until the operator chooses. */
  initialBundle: readonly string[];
  clock: () => Date;
  /** Writes an operator's action to the audit log. */
  audit: (entry: { operator: string; action: string; details: Record<string, unknown> }) => Promise<void>;
};

export type SyncOutcome = { added: CatalogScript[]; renamed: string[]; unlisted: string[]; scripts: CatalogRow[] };

export function createScriptCatalogService(deps: ScriptCatalogDeps) {
  const { db, port, reconciler, initialBundle, clock, audit } = deps;
  const list = () => readCatalog(db, initialBundle);

  return {
    list,

    /** Reads the vendor's invite-only scripts into the catalog; never changes who has access. */
    async sync(operator: string): Promise<SyncOutcome> {
      let listed;
      try {
        listed = await port.listScripts();
      } catch (error) {
        throw serverError('tradingViewDidNotAnswer', toTradingViewError(error).message);
      }
      const now = clock();
      const plan = planSync(await list(), listed, initialBundle);
      await addScripts(db, plan.added, now);
      for (const script of plan.renamed) await renameScript(db, script.id, script.name);
      await markListed(db, listed.map((script) => script.id), now);
      await audit({
        operator,
        action: 'tradingview.sync_scripts',
        details: { added: plan.added.map((script) => script.id), renamed: plan.renamed.map((script) => script.id), unlisted: plan.unlisted },
      });
      return { added: plan.added, renamed: plan.renamed.map((script) => script.id), unlisted: plan.unlisted, scripts: await list() };
    },

    /** Names the scripts the catalog knows only by their id, from TradingView's list (the count named). */
    nameScripts: () => nameUnnamedScripts(db, port, initialBundle),

    /**
     * The plans that grant `scriptId` from now on. Members of a plan that gained it are granted it,
     * members of a plan that lost it lose it (unless another plan of theirs still grants it).
     */
    async setPlans(scriptId: string, plans: readonly PlanType[], operator: string): Promise<{ script: CatalogRow; resynced: number }> {
      const wanted = PLAN_TYPES.filter((plan) => plans.includes(plan));
      await list();
      const before = await setScriptPlans(db, scriptId, wanted);
      if (!before) throw serverError('unknownScript', scriptId);
      const changed = PLAN_TYPES.filter((plan) => before.includes(plan) !== wanted.includes(plan));
      const members = await membersOnPlans(db, changed);
      for (const userId of members) await reconciler.syncUser(userId);
      await audit({ operator, action: 'tradingview.set_script_plans', details: { scriptId, before, after: wanted, members: members.length } });
      const script = (await list()).find((row) => row.id === scriptId)!;
      return { script, resynced: members.length };
    },
  };
}

export type ScriptCatalogService = ReturnType<typeof createScriptCatalogService>;
