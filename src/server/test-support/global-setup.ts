import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client';
import { migrate } from '../db/migrate';
import { PGLITE_EXTENSIONS } from '../db/pglite-extensions';

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: { kind: 'pglite'; snapshotPath: string } | { kind: 'postgres'; url: string; template: string };
  }
}

/** Connections the run's end drops databases on at once (the server allows 100 in all). */
const DROPS_AT_ONCE = 16;

/**
 * Migrates once per run: a PGlite snapshot that every suite restores (a fresh PGlite takes ~5 s),
 * or, with TEST_DATABASE_URL, a template database that every suite copies.
 */
export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const template = `cw_template_${randomUUID().slice(0, 8)}`;
    await adminQuery(serverUrl, `CREATE DATABASE ${template}`);
    const database = await openDatabase({ kind: 'postgres', url: withDatabase(serverUrl, template) });
    await migrate(database.db);
    await database.close();
    project.provide('testDatabase', { kind: 'postgres', url: serverUrl, template });
    return async () => {
      // every copy and scratch database of the run (runDatabaseName) and the template, at once: a
      // drop waits for a checkpoint, and one after another they kept a busy machine's pass open
      // for up to 100 s after its last test; drops waiting together share their checkpoints
      const { rows } = await inDatabase(serverUrl, (client) =>
        client.query<{ name: string }>(`SELECT datname AS name FROM pg_database WHERE starts_with(datname, $1)`, [`${template}_`]),
      );
      const names = [...rows.map((row) => row.name), template];
      for (let first = 0; first < names.length; first += DROPS_AT_ONCE) {
        await Promise.all(names.slice(first, first + DROPS_AT_ONCE).map((name) => adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)));
      }
    };
  }
  const client = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  const database = await openDatabase({ kind: 'pglite', dataDir: null, pglite: client });
  await migrate(database.db);
  const dump = await client.dumpDataDir('none');
  await client.close();
  const dir = await mkdtemp(join(tmpdir(), 'candlewise-db-'));
  const snapshotPath = join(dir, 'snapshot.tar');
  await writeFile(snapshotPath, Buffer.from(await dump.arrayBuffer()));
  project.provide('testDatabase', { kind: 'pglite', snapshotPath });
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}

export async function adminQuery(serverUrl: string, text: string): Promise<void> {
  await inDatabase(serverUrl, (client) => client.query(text));
}

/**
 * The name of a database a test makes on the server, dropped with the run's copies when the run
 * ends: a suite leaves it there, since DROP DATABASE waits for a checkpoint, and on a busy machine,
 * the other workers copying templates, one outlasted its suite's 60 s hook limit on CI.
 */
export function runDatabaseName(template: string, purpose: string): string {
  return `${template}_${purpose}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
}

/** `work` on one connection to the database at `url`, closed afterwards. */
export async function inDatabase<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
