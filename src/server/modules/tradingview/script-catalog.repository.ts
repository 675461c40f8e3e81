// The script catalog (tradingview_scripts): the only file that touches it.
import { asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PlanType } from '@shared/plans';
import { PLAN_TYPES } from '@shared/plans';
import type { CatalogScript } from '@shared/script-catalog';
import type { Db } from '../../db/client';
import { preparedPerDb } from '../../db/prepared';
import { tradingviewScripts } from '../../db/schema';

export type CatalogRow = CatalogScript & { syncedAt: Date | null };

// Named: every grant target a member's access change computes reads it, and a statement without
// parameters is left unnamed by the pool's registry (db/statement-names.ts), so Postgres parsed
// and planned it anew each time.
const catalogRows = preparedPerDb((db) =>
  db
    .select({ id: tradingviewScripts.id, name: tradingviewScripts.name, plans: tradingviewScripts.planTypes, syncedAt: tradingviewScripts.syncedAt })
    .from(tradingviewScripts)
    .orderBy(asc(tradingviewScripts.createdAt), asc(tradingviewScripts.id))
    .prepare('script_catalog'),
);

async function readRows(db: Db): Promise<CatalogRow[]> {
  return catalogRows(db).execute();
}

/**
 * The catalog, with every script of TRADINGVIEW_SCRIPT_IDS in it: one missing (a fresh database,
 * or an id added to the variable) joins with every plan, named by its id until a sync names it.
 * A script already there keeps the plans the operator chose. Steady state is one read, no write.
 */
export async function readCatalog(db: Db, initialBundle: readonly string[]): Promise<CatalogRow[]> {
  const rows = await readRows(db);
  const known = new Set(rows.map((row) => row.id));
  const missing = [...new Set(initialBundle)].filter((id) => !known.has(id));
  if (missing.length === 0) return rows;
  await db
    .insert(tradingviewScripts)
    .values(missing.map((id) => ({ id, name: id, planTypes: [...PLAN_TYPES] })))
    .onConflictDoNothing();
  return readRows(db);
}

/**
 * The catalog as a JSON array, in catalog order, for a statement that reads it with other things
 * (the grant reconciler's sync reads it with the member's lock); catalogFromJson reads it back.
 */
export function catalogJson(): SQL<unknown> {
  return sql`coalesce((SELECT json_agg(json_build_object('id', t.id, 'name', t.name, 'plans', t.plan_types) ORDER BY t.created_at, t.id) FROM ${tradingviewScripts} t), '[]'::json)`;
}

/** The catalog read as catalogJson; one that lacks a script of TRADINGVIEW_SCRIPT_IDS is completed as readCatalog does. */
export async function catalogFromJson(db: Db, value: unknown, initialBundle: readonly string[]): Promise<CatalogScript[]> {
  const rows = value as CatalogScript[];
  const known = new Set(rows.map((row) => row.id));
  return initialBundle.every((id) => known.has(id)) ? rows : readCatalog(db, initialBundle);
}

/** The ids of every script in the catalog (TRADINGVIEW_SCRIPT_IDS included), in catalog order. */
export async function catalogScriptIds(db: Db, initialBundle: readonly string[]): Promise<string[]> {
  return (await readCatalog(db, initialBundle)).map((row) => row.id);
}

/** The names of these scripts, in the order given (an id not in the catalog stands for itself). */
export async function scriptNames(db: Db, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.select({ id: tradingviewScripts.id, name: tradingviewScripts.name }).from(tradingviewScripts).where(inArray(tradingviewScripts.id, [...ids]));
  const names = new Map(rows.map((row) => [row.id, row.name]));
  return ids.map((id) => names.get(id) ?? id);
}

export async function addScripts(db: Db, scripts: readonly CatalogScript[], now: Date): Promise<void> {
  if (scripts.length === 0) return;
  await db
    .insert(tradingviewScripts)
    .values(scripts.map((script) => ({ id: script.id, name: script.name, planTypes: [...script.plans], syncedAt: now, createdAt: now })))
    .onConflictDoNothing();
}

export async function renameScript(db: Db, id: string, name: string): Promise<void> {
  await db.update(tradingviewScripts).set({ name }).where(eq(tradingviewScripts.id, id));
}

export async function markListed(db: Db, ids: readonly string[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await db.update(tradingviewScripts).set({ syncedAt: now }).where(inArray(tradingviewScripts.id, [...ids]));
}

/** Sets the plans that grant a script; the plans it had before, or null when no such script. */
export async function setScriptPlans(db: Db, id: string, plans: readonly PlanType[]): Promise<PlanType[] | null> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ plans: tradingviewScripts.planTypes }).from(tradingviewScripts).where(eq(tradingviewScripts.id, id)).for('update');
    if (!before) return null;
    await tx.update(tradingviewScripts).set({ planTypes: [...plans] }).where(eq(tradingviewScripts.id, id));
    return before.plans;
  });
}
