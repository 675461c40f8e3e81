// `npm run backup` and `npm run restore <file>`: a consistent copy of the shop's database in one
// file, and the shop filled back from one (decision 051).
// - Postgres (DATABASE_URL): pg_dump's custom format, taken from one snapshot while the shop runs;
//   pg_restore fills an empty database from it. pg_dump and pg_restore come from the Postgres
//   client package, at least the server's major version.
// - The embedded database (DATA_DIR): PGlite's own dump of its data directory (a gzipped tar),
//   taken with the server stopped (the directory is one process's at a time); a restore makes the
//   data directory again from it.
// Files are named candlewise-<UTC timestamp>.<kind>, so their names sort by time; a backup keeps
// the newest `keep` of its kind in the folder and deletes the older ones.
import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import pg from 'pg';

export type BackupTarget = { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string };

const PREFIX = 'candlewise-';
const EXTENSION = { postgres: '.pgdump', pglite: '.pglite.tar.gz' } as const;

export class BackupRefused extends Error {}

/** 2026-11-28T22:07:44.123Z → 20261128T220744Z */
export const backupStamp = (at: Date) => at.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');

/** The backups of `kind` in `dir`, oldest first. */
export async function backupsIn(dir: string, kind: BackupTarget['kind']): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((name) => name.startsWith(PREFIX) && name.endsWith(EXTENSION[kind])).sort();
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) =>
      fail(error.code === 'ENOENT' ? new BackupRefused(`${command} is not installed: install the Postgres client (e.g. apt-get install postgresql-client), at least your server's major version`) : error),
    );
    child.on('close', (code) => (code === 0 ? done() : fail(new Error(`${command} failed (exit ${code}): ${errors.trim()}`))));
  });
}

/**
 * Writes one backup of `target` into `dir` and deletes the oldest beyond `keep`. The file appears
 * under its name only once complete (written beside it, then renamed). Returns its path and the
 * paths deleted.
 */
export async function backup(target: BackupTarget, options: { dir: string; keep: number; now?: Date }): Promise<{ file: string; deleted: string[] }> {
  if (!Number.isInteger(options.keep) || options.keep < 1) throw new BackupRefused('keep must be a whole number of at least 1');
  const dir = resolve(options.dir);
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${PREFIX}${backupStamp(options.now ?? new Date())}${EXTENSION[target.kind]}`);
  const partial = `${file}.partial`;
  try {
    if (target.kind === 'postgres') {
      // one snapshot for the whole dump: a consistent shop while orders keep coming
      await run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${partial}`, `--dbname=${target.url}`]);
    } else {
      await writeFile(partial, Buffer.from(await (await dumpPglite(target.dataDir)).arrayBuffer()));
    }
    await rename(partial, file);
  } finally {
    await rm(partial, { force: true });
  }
  const all = await backupsIn(dir, target.kind);
  const deleted = all.slice(0, Math.max(0, all.length - options.keep)).map((name) => join(dir, name));
  for (const old of deleted) await rm(old, { force: true });
  return { file, deleted };
}

async function openPglite(options: { dataDir: string; loadDataDir?: Blob }) {
  const [{ PGlite }, { PGLITE_EXTENSIONS }, { PGLITE_SETTINGS }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('../db/pglite-extensions'),
    import('../db/client'),
  ]);
  return PGlite.create({ ...options, postgresqlconf: PGLITE_SETTINGS, extensions: PGLITE_EXTENSIONS });
}

async function dumpPglite(dataDir: string): Promise<Blob> {
  const exists = await stat(join(dataDir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
  if (!exists) throw new BackupRefused(`there is no database in ${resolve(dataDir)} (DATA_DIR) to back up`);
  const database = await openPglite({ dataDir });
  try {
    // a checkpoint first, so that the copied files hold every committed change
    await database.exec('CHECKPOINT');
    return await database.dumpDataDir('gzip');
  } finally {
    await database.close();
  }
}

/** Whether the database at `url` holds any table of its own (a shop, or anything else). */
async function postgresTables(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>(
      `SELECT count(*) AS count FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'`,
    );
    return Number(rows[0]?.count ?? 0);
  } finally {
    await client.end();
  }
}

/**
 * Fills the empty database of `target` from `file`; refuses one that holds a shop (or anything:
 * a restore never mixes two shops). Start the server on it afterwards: it applies any migration
 * newer than the backup.
 */
export async function restore(target: BackupTarget, file: string): Promise<void> {
  const path = resolve(file);
  const found = await stat(path).catch(() => null);
  if (!found?.isFile()) throw new BackupRefused(`no backup file at ${path}`);
  if (target.kind === 'postgres') {
    if (!path.endsWith(EXTENSION.postgres)) throw new BackupRefused(`${path} is not a Postgres backup (${EXTENSION.postgres}); DATABASE_URL names a Postgres database`);
    const tables = await postgresTables(target.url);
    if (tables > 0) throw new BackupRefused(`the database holds ${tables} tables already: restore into an empty database (createdb a new one and point DATABASE_URL at it)`);
    await run('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${target.url}`, path]);
    return;
  }
  if (!path.endsWith(EXTENSION.pglite)) throw new BackupRefused(`${path} is not a backup of the embedded database (${EXTENSION.pglite}); set DATABASE_URL to restore a Postgres backup`);
  const dataDir = resolve(target.dataDir);
  const inside = await readdir(dataDir).catch(() => [] as string[]);
  if (inside.length > 0) throw new BackupRefused(`${dataDir} (DATA_DIR) is not empty: it holds a shop. Restore into a new DATA_DIR, or move this one away first`);
  await mkdir(dataDir, { recursive: true });
  const database = await openPglite({ dataDir, loadDataDir: new Blob([await readFile(path)]) });
  await database.close();
}
