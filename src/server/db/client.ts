import { mkdir } from 'node:fs/promises';
import type { PGlite } from '@electric-sql/pglite';
import type { Pool } from 'pg';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { nameStatements, statementNames } from './statement-names';
import { countPgliteWrites, countPgWrites, writeCount, type WriteCount } from './write-count';

/**
 * The one database type both engines share, so repositories never know which runs. Without the
 * schema: nothing reads Drizzle's relational queries (`db.query`), which a schema would have every
 * transaction build anew, one builder a table (2 % of the server's CPU in a renewal wave).
 */
export type Db = PgDatabase<PgQueryResultHKT>;

export type Database = {
  db: Db;
  engine: 'pglite' | 'postgres';
  /** Moves whenever a statement that may change data completes (read caches watch it). */
  writes: WriteCount;
  /**
   * How many items a background job (the sandbox's renewals and event deliveries) works on at
   * once: each holds a connection for its transaction, and requests need the rest of the pool.
   */
  lanes: number;
  ping: () => Promise<void>;
  close: () => Promise<void>;
};

/**
 * PGlite's defaults (128 MB of shared buffers) are resident in the server's own process; the
 * shop's whole database is a few MB, so 16 MB holds it and the process keeps ~130 MB less.
 */
export const PGLITE_SETTINGS = ['shared_buffers=16MB', 'work_mem=1MB'];

/** Connections per instance unless DATABASE_POOL_SIZE says otherwise (mind the server's max_connections). */
export const DEFAULT_POOL_SIZE = 20;

/**
 * Two fifths of the pool, at most 8. A renewal wave is bound by round trips and commits, not by
 * CPU: 8 lanes on 20 connections handled twice the events a second of 4 lanes on 10
 * (npm run bench:scale, docs/benchmarks.md).
 */
export const lanesFor = (poolSize: number) => Math.max(1, Math.min(8, Math.floor((poolSize * 2) / 5)));

/**
 * Startup options, so they hold before a connection's first query (a pooler that refuses startup
 * options must be told to ignore them; the server's defaults are then slower, still correct).
 * - JIT compiling is for analytics: the console's reports over 100,000 members cross its cost
 *   threshold and then spend 0.6 s compiling a query that runs in less (npm run bench:scale).
 * - No parallel workers: a console page already runs its reads side by side (the overview six),
 *   so workers of their own only add processes and a tuple queue on the same cores. On a 2-core
 *   machine at 100,000 members the overview's members per plan took 309 ms with them and 64 ms
 *   without, its renewing subscriptions 217 and 100 ms (decision 069).
 */
const CONNECTION_OPTIONS = '-c jit=off -c max_parallel_workers_per_gather=0';

/** PGlite runs one statement at a time; a few lanes keep it fed between a lane's statements. */
const PGLITE_LANES = 4;

export type DatabaseTarget = { kind: 'pglite'; dataDir: string | null; pglite?: PGlite } | { kind: 'postgres'; url: string; poolSize?: number };

/** Each engine's driver loads only when it is the one opened: the other is memory for nothing. */
export async function openDatabase(target: DatabaseTarget, onIdleError: (error: Error) => void = () => undefined): Promise<Database> {
  if (target.kind === 'postgres') {
    const [{ default: pg }, { drizzle: drizzlePg }] = await Promise.all([import('pg'), import('drizzle-orm/node-postgres')]);
    const poolSize = target.poolSize ?? DEFAULT_POOL_SIZE;
    const pool = new pg.Pool({ connectionString: target.url, max: poolSize, connectionTimeoutMillis: 5_000, options: CONNECTION_OPTIONS });
    // An idle connection dropped by the server (restart, failover, DROP DATABASE) must not crash
    // the process; the pool replaces it on the next query.
    pool.on('error', onIdleError);
    const writes = writeCount();
    const names = statementNames();
    pool.on('connect', (connection) => {
      nameStatements(connection as unknown as Parameters<typeof nameStatements>[0], names);
      countPgWrites(connection as unknown as Parameters<typeof countPgWrites>[0], writes);
      // A connection in use has no listener of the pool's: its loss would be an unhandled 'error'
      // event, which ends the process. Its query fails instead (and see givesBackBrokenConnections).
      connection.on('error', () => undefined);
    });
    givesBackBrokenConnections(pool);
    const db = drizzlePg(pool) as unknown as Db;
    return { db, engine: 'postgres', writes, lanes: lanesFor(poolSize), ping: () => ping(db), close: () => pool.end() };
  }
  const [{ PGlite: Engine }, { drizzle: drizzlePglite }, { PGLITE_EXTENSIONS }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('./pglite-extensions'),
  ]);
  let client = target.pglite;
  if (!client) {
    if (target.dataDir) await mkdir(target.dataDir, { recursive: true });
    client = await Engine.create({ ...(target.dataDir ? { dataDir: target.dataDir } : {}), postgresqlconf: PGLITE_SETTINGS, extensions: PGLITE_EXTENSIONS });
  }
  const owned = client;
  const writes = writeCount();
  countPgliteWrites(owned, writes);
  const db = drizzlePglite(owned) as unknown as Db;
  return { db, engine: 'pglite', writes, lanes: PGLITE_LANES, ping: () => ping(db), close: () => owned.close() };
}

/**
 * A transaction's connection that breaks goes back to the pool (which drops it) at once. Drizzle
 * releases a transaction's connection only once its BEGIN has succeeded: a connection that died
 * while idle (a database restart) and was handed out before the pool noticed would otherwise stay
 * checked out for ever, one fewer in the pool after each restart until no request is served.
 */
function givesBackBrokenConnections(pool: Pool): void {
  const connect = pool.connect.bind(pool);
  // the callback form is pool.query's own, which gives back a broken connection itself
  pool.connect = ((callback?: Parameters<typeof connect>[0]) => {
    if (callback) return connect(callback);
    return connect().then((client) => {
      const release = client.release;
      let released = false;
      const releaseOnce = (error?: Error | boolean) => {
        if (released) return;
        released = true;
        client.removeListener('error', releaseOnce);
        release(error);
      };
      client.once('error', releaseOnce);
      client.release = releaseOnce;
      return client;
    });
  }) as typeof pool.connect;
}

async function ping(db: Db): Promise<void> {
  await db.execute(sql`SELECT 1`);
}
