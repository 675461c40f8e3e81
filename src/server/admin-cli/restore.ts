// `npm run restore -- <file>` (backup-command.ts): fills the configured database (DATABASE_URL,
// else DATA_DIR) from a backup; refuses a database that holds a shop. Then start the server.
import { ConfigError, loadConfig } from '../config';
import { BackupRefused, restore } from './backup-command';

try {
  const config = loadConfig();
  const [file, ...rest] = process.argv.slice(2);
  if (!file || rest.length > 0) throw new BackupRefused('usage: npm run restore -- backups/candlewise-20260101T030000Z.pgdump   (into an empty database)');
  const target = config.database.kind === 'postgres' ? { kind: 'postgres' as const, url: config.database.url } : { kind: 'pglite' as const, dataDir: config.database.dataDir };
  await restore(target, file);
  console.log(`Restored ${file}. Start the server: it applies any migration newer than the backup.`);
} catch (error) {
  if (!(error instanceof ConfigError || error instanceof BackupRefused)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
