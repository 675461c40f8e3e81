// `npm run backup [-- --dir <folder>] [--keep <n>]` (backup-command.ts): one backup of the
// configured database (DATABASE_URL, else the embedded one under DATA_DIR: stop the server first)
// into the folder (./backups), keeping the newest n (14).
import { ConfigError, loadConfig } from '../config';
import { backup, BackupRefused } from './backup-command';

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

try {
  const config = loadConfig();
  const args = process.argv.slice(2);
  const dir = option(args, '--dir') ?? './backups';
  const keep = Number(option(args, '--keep') ?? 14);
  const target = config.database.kind === 'postgres' ? { kind: 'postgres' as const, url: config.database.url } : { kind: 'pglite' as const, dataDir: config.database.dataDir };
  const { file, deleted } = await backup(target, { dir, keep });
  console.log(`Backup written: ${file}`);
  for (const old of deleted) console.log(`Deleted the older backup ${old} (keeping ${keep})`);
} catch (error) {
  if (!(error instanceof ConfigError || error instanceof BackupRefused)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
