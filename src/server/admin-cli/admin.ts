// `npm run admin -- <command>`: opens the configured database (migrating it first, as the server
// does) and manages the operators stored there. With the embedded database, stop the server first:
// PGlite's data directory is one process's at a time.
import { ConfigError, loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { migrate } from '../db/migrate';
import { runAdminCommand } from './admin-command';

try {
  const config = loadConfig();
  const database = await openDatabase(config.database.kind === 'postgres' ? config.database : { kind: 'pglite', dataDir: config.database.dataDir });
  try {
    await migrate(database.db);
    const result = await runAdminCommand({ db: database.db, config, clock: () => new Date() }, process.argv.slice(2));
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
