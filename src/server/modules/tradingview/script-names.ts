// Scripts are named, never shown by their PUB; ids: a fresh catalog starts from TRADINGVIEW_SCRIPT_IDS
// with each script named by its id, until TradingView's own list names it.
import type { Db } from '../../db/client';
import { readCatalog, renameScript } from './script-catalog.repository';
import type { TradingViewPort } from './tradingview.port';

/**
 * Names the catalog's scripts that only have their id for a name with the names TradingView lists
 * (the sandbox's catalogue, or the live vendor's scripts). Changes nothing else (no plan, no
 * access), so it needs no operator; with nothing to name it costs no call. Returns how many it named.
 */
export async function nameUnnamedScripts(db: Db, port: Pick<TradingViewPort, 'listScripts'>, initialBundle: readonly string[]): Promise<number> {
  const unnamed = (await readCatalog(db, initialBundle)).filter((row) => row.name === row.id);
  if (unnamed.length === 0) return 0;
  const listed = new Map((await port.listScripts()).map((script) => [script.id, script.name.trim()]));
  let named = 0;
  for (const row of unnamed) {
    const name = listed.get(row.id);
    if (!name || name === row.id) continue;
    await renameScript(db, row.id, name);
    named += 1;
  }
  return named;
}
