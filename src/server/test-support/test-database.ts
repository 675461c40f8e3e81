import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import { openDatabase, PGLITE_SETTINGS, type Database } from '../db/client';
import { PGLITE_EXTENSIONS } from '../db/pglite-extensions';
import { adminQuery, inDatabase, runDatabaseName, withDatabase } from './global-setup';

/**
 * A migrated, empty database of its own for one suite: one that a suite before it in the same
 * worker used and closed, emptied, or else a restored PGlite snapshot, or a copy of the migrated
 * template on the Postgres server named by TEST_DATABASE_URL.
 * Call `close()` in afterAll, or the process never exits.
 */
export async function createTestDatabase(): Promise<Database> {
  const target = inject('testDatabase');
  if (target.kind === 'postgres') {
    const name = idle.postgres.pop() ?? (await copiedTemplate(target.url, target.template));
    const url = withDatabase(target.url, name);
    const database = await openDatabase({ kind: 'postgres', url });
    // closing the pool refuses a query that arrives later, as a lease does on PGlite
    return closedOnce(database, () => database.close().then(() => giveBackPostgres(target.url, name)));
  }
  const pglite = idle.pglite.pop() ?? (await restoredSnapshot(target.snapshotPath));
  const lease = leaseOf(pglite);
  const database = await openDatabase({ kind: 'pglite', dataDir: null, pglite: lease.client });
  return closedOnce(database, () => lease.end().then(() => giveBackPglite(pglite)));
}

/** `database` with `close` as its close, which gives the database back once however often it is called. */
function closedOnce(database: Database, close: () => Promise<void>): Database {
  let closing: Promise<void> | undefined;
  return { ...database, close: () => (closing ??= close()) };
}

// A PGlite restore costs about 0.5 s of CPU (1.2 s on a busy machine), emptying a used database
// a tenth of that; on the Postgres server emptying also costs less than a copy and a drop (decision
// 042). The server suites share a worker's modules (isolate: false), so a worker keeps the
// databases its suites closed and hands them to the next suites, emptied.
const idle = { pglite: [] as PGlite[], postgres: [] as string[] };
// a file that opens several databases at once gives them all back at its end
const MOST_IDLE = 2;

type Query = (text: string) => Promise<{ rows: Record<string, unknown>[] }>;

/**
 * How a database as migrated looks: the question that finds the tables a suite left rows in (all
 * but the migrations' own), and what a suite must not have changed for its database to be handed
 * on: the catalog's objects (a table, column, function or trigger made or dropped) and the
 * settings of the session, the database and its roles. Every database in a run is migrated
 * alike, so a worker reads it once.
 */
let migrated: Promise<{ tablesWithRows: string; shape: string; seeds: string[] }> | undefined;
const migratedShape = (query: Query) =>
  (migrated ??= (async () => {
    const [tablesWithRows, shape] = await Promise.all([tablesWithRowsQuery(query), shapeOf(query)]);
    return { tablesWithRows, shape, seeds: await seedsOf(query, tablesWithRows) };
  })());

async function tablesWithRowsQuery(query: Query): Promise<string> {
  const { rows } = await query(
    `SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_%' AND c.relname <> 'schema_migrations'`,
  );
  const probes = rows.map(({ name }) => `CASE WHEN EXISTS (SELECT 1 FROM ${String(name)}) THEN '${String(name).replaceAll("'", "''")}' END`);
  return `SELECT array_to_string(ARRAY[${probes.join(', ')}], ', ') AS tables,
    (SELECT string_agg(format('%I.%I', schemaname, sequencename), ', ') FROM pg_sequences WHERE last_value IS NOT NULL) AS sequences`;
}

/**
 * The rows the migrations themselves wrote (a seed's defaults the shop reads, e.g. the one-time
 * plans the access rule asks about), as statements that write them again after an emptying.
 */
async function seedsOf(query: Query, tablesWithRows: string): Promise<string[]> {
  const { rows } = await query(tablesWithRows);
  const tables = String((rows[0] as { tables: string | null }).tables ?? '');
  const seeds: string[] = [];
  for (const table of tables ? tables.split(', ') : []) {
    const { rows: seeded } = await query(`SELECT json_agg(t)::text AS rows FROM ${table} t`);
    const json = String((seeded[0] as { rows: string }).rows).replaceAll("'", "''");
    seeds.push(`INSERT INTO ${table} SELECT * FROM json_populate_recordset(NULL::${table}, '${json}'::json)`);
  }
  return seeds;
}

async function shapeOf(query: Query): Promise<string> {
  const { rows } = await query(
    `SELECT concat_ws(' ', (SELECT count(*) FROM pg_class), (SELECT count(*) FROM pg_attribute), (SELECT count(*) FROM pg_proc),
       (SELECT count(*) FROM pg_trigger), (SELECT count(*) FROM pg_db_role_setting),
       (SELECT string_agg(name || '=' || setting, ',' ORDER BY name) FROM pg_settings WHERE source = 'session')) AS shape`,
  );
  return String(rows[0]!.shape);
}

/**
 * Empties a closed suite's database for the next suite, or says it cannot be handed on. Only the
 * tables that hold rows: a TRUNCATE makes new files for a table and its indexes, which on the
 * Postgres server cost more than the copy of the template it replaces.
 */
async function emptied(query: Query): Promise<boolean> {
  const { tablesWithRows, shape, seeds } = await migratedShape(query);
  if (idle.pglite.length + idle.postgres.length >= MOST_IDLE || (await shapeOf(query)) !== shape) return false;
  const { rows } = await query(tablesWithRows);
  const { tables, sequences } = rows[0] as { tables: string; sequences: string | null };
  // CASCADE: a table with rows may be referenced by tables left empty
  if (tables) await query(`TRUNCATE ${tables} CASCADE`);
  // numbering starts again, also where the rows were deleted by the suite itself
  for (const sequence of sequences?.split(', ') ?? []) await query(`ALTER SEQUENCE ${sequence} RESTART`);
  for (const seed of seeds) await query(seed);
  return true;
}

async function restoredSnapshot(snapshotPath: string): Promise<PGlite> {
  // The shop's own settings, which also halve a restore's CPU: PGlite's default 128 MB of shared
  // buffers are set up anew at every start (0.8 s of 2.4 s a restore on the busy 2-core machine).
  const pglite = await PGlite.create({ loadDataDir: await snapshotOf(snapshotPath), extensions: PGLITE_EXTENSIONS, postgresqlconf: PGLITE_SETTINGS });
  await migratedShape((text) => pglite.query(text));
  return pglite;
}

async function giveBackPglite(pglite: PGlite): Promise<void> {
  if (await emptied((text) => pglite.query(text))) idle.pglite.push(pglite);
  else await pglite.close();
}

/** Named after the run's template, so that the run's end drops what its workers kept (global-setup.ts). */
async function copiedTemplate(serverUrl: string, template: string): Promise<string> {
  const name = runDatabaseName(template, 'copy');
  await adminQuery(serverUrl, `CREATE DATABASE ${name} TEMPLATE ${template}`);
  // the worker's first copy is as migrated: read its shape before a suite uses it
  if (!migrated) await inDatabase(withDatabase(serverUrl, name), (client) => migratedShape((text) => client.query(text)));
  return name;
}

/** A copy that could not be emptied is left for the run's end to drop (runDatabaseName). */
async function giveBackPostgres(serverUrl: string, name: string): Promise<void> {
  if (await inDatabase(withDatabase(serverUrl, name), (client) => emptied((text) => client.query(text)))) idle.postgres.push(name);
}

/**
 * The PGlite a suite's database talks to, until the suite closes it: a query that arrives later
 * (a job or a request the suite left running) is refused, as a closed database would refuse it,
 * instead of reaching the next suite's data.
 */
function leaseOf(pglite: PGlite): { client: PGlite; end: () => Promise<void> } {
  let ended = false;
  // the shop wraps the client's methods (it counts writes): those wrappers belong to this lease only
  const own = new Map<PropertyKey, unknown>();
  const client = new Proxy(pglite, {
    get(target, key) {
      if (own.has(key)) return own.get(key);
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function' || key === 'constructor') return value;
      return (...args: unknown[]) => {
        if (ended) throw new Error('PGlite is closed');
        return (value as (...args: unknown[]) => unknown).apply(target, args);
      };
    },
    set(_target, key, value) {
      own.set(key, value);
      return true;
    },
  });
  return {
    client,
    // a statement still running finishes first: PGlite runs one at a time
    end: async () => {
      ended = true;
      await pglite.query('SELECT 1');
    },
  };
}

// The 42 MB snapshot is read and copied into a Blob once a worker rather than once a restore; a
// Blob can be read any number of times.
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
