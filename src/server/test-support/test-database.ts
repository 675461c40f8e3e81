import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import { openDatabase, PGLITE_SETTINGS, type Database } from '../db/client';
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
  // The shop's own settings, which also halve a restore's CPU: PGlite's default 128 MB of shared
  // buffers are set up anew at every start (0.8 s of 2.4 s a restore on the busy 2-core machine).
  const pglite = await PGlite.create({ loadDataDir: await snapshotOf(target.snapshotPath), extensions: PGLITE_EXTENSIONS, postgresqlconf: PGLITE_SETTINGS });
  return openDatabase({ kind: 'pglite', dataDir: null, pglite });
}

// The server suites share a worker's modules (isolate: false), so the 42 MB snapshot is read and
// copied into a Blob once a worker rather than once a suite; a Blob can be read any number of times.
const snapshots = new Map<string, Promise<Blob>>();
function snapshotOf(path: string): Promise<Blob> {
  let snapshot = snapshots.get(path);
  if (!snapshot) {
    snapshot = readFile(path).then((bytes) => new SnapshotBlob(bytes));
    snapshots.set(path, snapshot);
  }
  return snapshot;
}

/**
 * A restore reads the whole snapshot with arrayBuffer(), which Node's Blob answers by reading
 * itself back in pieces and joining them: twice the CPU of one copy of the bytes it was made from.
 */
class SnapshotBlob extends Blob {
  constructor(private readonly source: Uint8Array<ArrayBuffer>) {
    super([source]);
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    // a copy: the restore may do what it likes with what it is given
    return this.source.buffer.slice(this.source.byteOffset, this.source.byteOffset + this.source.byteLength);
  }
}
