import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../db/client';
import { PGLITE_EXTENSIONS } from '../db/pglite-extensions';
import { adminQuery, withDatabase } from './global-setup';

/**
 * A migrated, empty database of its own for one suite: a restored PGlite snapshot by default,
 * or a copy of the migrated template on the Postgres server named by TEST_DATABASE_URL.
 * Call `close()` in afterAll, or the process never exits.
 */
export async function createTestDatabase(): Promise<Database> {
  const target = inject('testDatabase');
  if (target.kind === 'postgres') {
    const name = `cw_test_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    await adminQuery(target.url, `CREATE DATABASE ${name} TEMPLATE ${target.template}`);
    const database = await openDatabase({ kind: 'postgres', url: withDatabase(target.url, name) });
    return {
      ...database,
      close: async () => {
        await database.close();
        await adminQuery(target.url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      },
    };
  }
  const pglite = await PGlite.create({ loadDataDir: await snapshotOf(target.snapshotPath), extensions: PGLITE_EXTENSIONS });
  return openDatabase({ kind: 'pglite', dataDir: null, pglite });
}

// The server suites share a worker's modules (isolate: false), so the 42 MB snapshot is read and
// copied into a Blob once a worker rather than once a suite; a Blob can be read any number of times.
const snapshots = new Map<string, Promise<Blob>>();
function snapshotOf(path: string): Promise<Blob> {
  let snapshot = snapshots.get(path);
  if (!snapshot) {
    snapshot = readFile(path).then((bytes) => new Blob([bytes]));
    snapshots.set(path, snapshot);
  }
  return snapshot;
}
