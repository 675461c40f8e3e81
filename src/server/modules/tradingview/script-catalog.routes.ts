// The operator console's script catalog (mounted under /api/admin, behind requireOperator): the
// scripts and their plans, a sync from TradingView and the choice of plans per script, audited.
import { Hono } from 'hono';
import { scriptCatalogSchema, scriptSyncResultSchema, setScriptPlansRequestSchema, setScriptPlansResultSchema, type CatalogScript } from '@shared/script-catalog';
import { readJson } from '../../http/errors';
import { describeOperation } from '../../http/openapi';
import { requireUser, type AuthVariables } from '../../http/session-user';
import type { CatalogRow } from './script-catalog.repository';
import type { ScriptCatalogService } from './script-catalog.service';

const NO_STORE = { 'cache-control': 'private, no-store' };

const view = (row: CatalogRow) => ({ id: row.id, name: row.name, plans: [...row.plans], syncedAt: row.syncedAt?.toISOString() ?? null });
const idOf = (script: CatalogScript) => script.id;

export function scriptCatalogAdminRoutes(catalog: ScriptCatalogService) {
  return new Hono<{ Variables: AuthVariables }>()
    .get('/tradingview/scripts', describeOperation({ summary: 'The script catalog: each invite-only script and the plans that grant it', auth: 'operator', response: scriptCatalogSchema }), async (c) =>
      c.json({ scripts: (await catalog.list()).map(view) }, 200, NO_STORE),
    )
    .post('/tradingview/scripts/sync', describeOperation({ summary: "Read the vendor's invite-only scripts from TradingView into the catalog", auth: 'operator', response: scriptSyncResultSchema }), async (c) => {
      const outcome = await catalog.sync(requireUser(c).email);
      return c.json({ added: outcome.added.map(idOf), renamed: outcome.renamed, unlisted: outcome.unlisted, scripts: outcome.scripts.map(view) });
    })
    .post('/tradingview/scripts/plans', describeOperation({ summary: "Choose the plans that grant a script (its members' access follows)", auth: 'operator', body: setScriptPlansRequestSchema, response: setScriptPlansResultSchema }), async (c) => {
      const { scriptId, plans } = await readJson(c, setScriptPlansRequestSchema);
      const { script, resynced } = await catalog.setPlans(scriptId, plans, requireUser(c).email);
      return c.json({ script: view(script), resynced });
    });
}
