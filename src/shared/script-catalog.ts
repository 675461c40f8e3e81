// The script catalog: the vendor's invite-only scripts and which plans grant each. A plan's bundle
// is every script that names it; a member's scripts are the bundles of the plans that give them
// access now. What a sync adds, and how the operator's plan choice is read, are decided here.
import { z } from 'zod';
import { isPlanType, PLAN_TYPES, type PlanType } from './plans';

export type CatalogScript = { id: string; name: string; plans: readonly PlanType[] };

/** A script as TradingView lists it among the vendor's invite-only scripts. */
export type ListedScript = { id: string; name: string };

/** TradingView's id of a published script: `PUB;` and its hash. */
export const scriptIdSchema = z
  .string()
  .trim()
  .regex(/^PUB;[A-Za-z0-9_-]{1,100}$/, 'A script id is PUB; followed by letters, digits, - or _ (as TradingView shows it).');

/** The scripts a plan grants, in catalog order. */
export function bundleOf(catalog: readonly CatalogScript[], plan: PlanType): string[] {
  return catalog.filter((script) => script.plans.includes(plan)).map((script) => script.id);
}

/** The scripts granted by any of `plans`, sorted (a stable value to store and compare). */
export function scriptsOfPlans(catalog: readonly CatalogScript[], plans: Iterable<PlanType>): string[] {
  const scripts = new Set<string>();
  for (const plan of plans) for (const id of bundleOf(catalog, plan)) scripts.add(id);
  return [...scripts].sort();
}

export type SyncPlan = {
  /** Scripts new to the catalog, with the plans they start with. */
  added: CatalogScript[];
  /** Scripts already in the catalog whose name TradingView now gives differently. */
  renamed: ListedScript[];
  /** Catalog scripts TradingView did not list (kept: their members keep what they have). */
  unlisted: string[];
};

/**
 * What a sync changes. It never changes who has access: a script already in the catalog keeps its
 * plans; a new one starts with every plan when TRADINGVIEW_SCRIPT_IDS names it (the initial
 * bundle), else with none until the operator chooses.
 */
export function planSync(catalog: readonly CatalogScript[], listed: readonly ListedScript[], initialBundle: readonly string[]): SyncPlan {
  const known = new Map(catalog.map((script) => [script.id, script]));
  const seen = new Set<string>();
  const added: CatalogScript[] = [];
  const renamed: ListedScript[] = [];
  for (const script of listed) {
    if (seen.has(script.id)) continue;
    seen.add(script.id);
    const existing = known.get(script.id);
    if (!existing) added.push({ id: script.id, name: script.name, plans: initialBundle.includes(script.id) ? [...PLAN_TYPES] : [] });
    else if (existing.name !== script.name) renamed.push(script);
  }
  return { added, renamed, unlisted: catalog.filter((script) => !seen.has(script.id)).map((script) => script.id) };
}

/**
 * The operator's list of plans ("monthly,yearly", or "none"), deduplicated in catalogue order;
 * a string naming what is wrong when a plan is unknown.
 */
export function parsePlanList(text: string): PlanType[] | string {
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 1 && names[0]!.toLowerCase() === 'none') return [];
  if (names.length === 0) return `Name the plans (${PLAN_TYPES.join(', ')}) separated by commas, or none.`;
  const unknown = names.filter((name) => !isPlanType(name));
  if (unknown.length) return `Unknown plan${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}: the plans are ${PLAN_TYPES.join(', ')}.`;
  return PLAN_TYPES.filter((plan) => names.includes(plan));
}

/** One line of `npm run admin -- scripts list`. */
export function describeScript(script: CatalogScript): string {
  return `${script.id}  ${script.name}  plans: ${script.plans.length ? script.plans.join(',') : 'none'}`;
}

// ---------------------------------------------------------------- the console's API

export const catalogScriptSchema = z.object({
  id: z.string(),
  name: z.string(),
  plans: z.array(z.enum(PLAN_TYPES)),
  /** When TradingView last listed it; null when only TRADINGVIEW_SCRIPT_IDS names it. */
  syncedAt: z.string().nullable(),
});
export const scriptCatalogSchema = z.object({ scripts: z.array(catalogScriptSchema) });
export type ScriptCatalogView = z.infer<typeof scriptCatalogSchema>;

export const setScriptPlansRequestSchema = z.object({
  scriptId: scriptIdSchema,
  plans: z.array(z.enum(PLAN_TYPES, { message: `The plans are ${PLAN_TYPES.join(', ')}.` })).max(PLAN_TYPES.length),
});

export const setScriptPlansResultSchema = z.object({
  script: catalogScriptSchema,
  /** Members on the plans that changed, whose grants were brought up to date. */
  resynced: z.number().int(),
});
export type SetScriptPlansResult = z.infer<typeof setScriptPlansResultSchema>;

export const scriptSyncResultSchema = z.object({
  added: z.array(z.string()),
  renamed: z.array(z.string()),
  unlisted: z.array(z.string()),
  scripts: z.array(catalogScriptSchema),
});
export type ScriptSyncResult = z.infer<typeof scriptSyncResultSchema>;
