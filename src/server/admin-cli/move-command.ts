// `npm run move-to-postgres -- <postgres-url>`: the shop on the embedded database (DATA_DIR) copied
// into an empty Postgres database, which the server then runs on with DATABASE_URL set.
import type { Config } from '../config';
import type { Database } from '../db/client';
import { copyShop, ShopCopyRefused } from './shop-copy';
import type { CommandResult } from './admin-command';

export const MOVE_USAGE = 'usage: npm run move-to-postgres -- postgres://user:password@host:5432/database   (stop the server first)';

export type MoveCommandDeps = {
  config: Pick<Config, 'database'>;
  /** The shop's own database, migrated. */
  source: Database;
  openTarget: (url: string) => Promise<Database>;
  print: (line: string) => void;
};

/** The address without its password, for what the command prints. */
function withoutPassword(url: URL): string {
  const shown = new URL(url);
  if (shown.password) shown.password = '***';
  return shown.toString();
}

export async function runMoveCommand(deps: MoveCommandDeps, args: readonly string[]): Promise<CommandResult> {
  if (deps.config.database.kind === 'postgres') return { output: 'This shop already runs on Postgres (DATABASE_URL is set): there is nothing to move.', exitCode: 2 };
  const [address, ...rest] = args;
  const url = address && rest.length === 0 && URL.canParse(address) ? new URL(address) : null;
  if (!url || !['postgres:', 'postgresql:'].includes(url.protocol)) return { output: MOVE_USAGE, exitCode: 2 };

  const target = await deps.openTarget(url.toString());
  try {
    deps.print(`Copying the shop into ${withoutPassword(url)} …`);
    const copied = await copyShop(deps.source.db, target.db, ({ table, rows }) => rows > 0 && deps.print(`  ${table}: ${rows} rows`));
    const rows = copied.reduce((sum, table) => sum + table.rows, 0);
    return {
      output: `Done: ${copied.length} tables, ${rows} rows. Start the server with DATABASE_URL=${withoutPassword(url)} (the embedded database under DATA_DIR is unchanged; keep it until the shop runs well on Postgres).`,
      exitCode: 0,
    };
  } catch (error) {
    if (error instanceof ShopCopyRefused) return { output: error.message, exitCode: 1 };
    throw error;
  } finally {
    await target.close();
  }
}
