// What every command-line tool of the shop does around its work: read the configuration, open the
// configured database and migrate it as the server does, close it after; a configuration error is
// printed as the readable list config.ts makes, with exit code 1.
import { ConfigError, loadConfig, type Config } from '../config';
import { openDatabase, type Database } from '../db/client';
import { migrate } from '../db/migrate';

export async function runWithDatabase(work: (config: Config, database: Database) => Promise<{ output: string; exitCode: number }>): Promise<void> {
  try {
    const config = loadConfig();
    const database = await openDatabase(config.database.kind === 'postgres' ? config.database : { kind: 'pglite', dataDir: config.database.dataDir });
    try {
      await migrate(database.db);
      const result = await work(config, database);
      console.log(result.output);
      process.exitCode = result.exitCode;
    } finally {
      await database.close();
    }
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  }
}
