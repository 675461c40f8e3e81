import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { PROJECT_ROOT } from '../project-root';
import type { Db } from './client';
import { queryRows } from './query';

const MIGRATIONS_DIR = join(PROJECT_ROOT, 'src/server/db/migrations');
// Any constant shared by every instance: the lock makes concurrent starts apply migrations once.
const MIGRATION_LOCK_KEY = 7_346_201;
const STATEMENT_BREAK = '--> statement-breakpoint';
/**
 * A file that starts with this line runs outside the transaction, one statement at a time: what
 * Postgres refuses inside one, CREATE INDEX CONCURRENTLY, which builds an index on a live table
 * without blocking its writes. Such a file must be safe to run again (IF NOT EXISTS).
 */
export const NO_TRANSACTION_MARKER = '-- migrate: no-transaction';
// after any comment lines (the marker is one)
const CONCURRENT_INDEX = /^(?:\s*--[^\n]*\n)*\s*CREATE\s+(?:UNIQUE\s+)?INDEX\s+CONCURRENTLY\s+IF\s+NOT\s+EXISTS\s+"?([a-z0-9_]+)"?/i;
const BUILD_POLL_MS = 500;

const statementsOf = (text: string) => text.split(STATEMENT_BREAK).filter((statement) => statement.trim());
const outsideTransaction = (text: string) => text.trimStart().startsWith(NO_TRANSACTION_MARKER);

/**
 * Applies the SQL files of `dir` that have not run yet, in name order. Files run in one
 * transaction under an advisory lock, so several instances starting at once on one Postgres are
 * safe; a file marked NO_TRANSACTION_MARKER runs alone after those before it, outside any
 * transaction (the lock would make its index build wait for itself), and is recorded once done.
 * Returns the names applied by this call.
 */
export async function migrate(db: Db, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = (await readdir(dir)).filter((name) => name.endsWith('.sql')).sort();
  const texts = new Map(await Promise.all(files.map(async (name) => [name, await readFile(join(dir, name), 'utf8')] as const)));
  const applied: string[] = [];
  for (;;) {
    const { done, next } = await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
      await tx.execute(sql`CREATE TABLE IF NOT EXISTS schema_migrations (
        name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
      const recorded = new Set((await queryRows<{ name: string }>(tx, sql`SELECT name FROM schema_migrations`)).map((row) => row.name));
      const pending = files.filter((name) => !recorded.has(name));
      const ran: string[] = [];
      for (const name of pending) {
        const text = texts.get(name)!;
        if (outsideTransaction(text)) return { done: ran, next: name };
        for (const statement of statementsOf(text)) await tx.execute(sql.raw(statement));
        await tx.execute(sql`INSERT INTO schema_migrations (name) VALUES (${name})`);
        ran.push(name);
      }
      return { done: ran, next: null };
    });
    applied.push(...done);
    if (next === null) return applied;
    for (const statement of statementsOf(texts.get(next)!)) {
      const index = CONCURRENT_INDEX.exec(statement)?.[1];
      if (index) await buildIndex(db, statement, index);
      else await runAlone(db, statement);
    }
    const recorded = await queryRows<{ name: string }>(db, sql`INSERT INTO schema_migrations (name) VALUES (${next}) ON CONFLICT DO NOTHING RETURNING name`);
    if (recorded.length > 0) applied.push(next);
  }
}

type IndexState = 'missing' | 'valid' | 'building' | 'invalid';

async function indexState(db: Db, name: string): Promise<IndexState> {
  const [row] = await queryRows<{ valid: boolean; building: boolean }>(
    db,
    sql`SELECT i.indisvalid AS valid, EXISTS (SELECT 1 FROM pg_stat_progress_create_index p WHERE p.index_relid = c.oid) AS building
        FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid
        WHERE c.relname = ${name} AND c.relnamespace = current_schema()::regnamespace`,
  );
  if (!row) return 'missing';
  return row.valid ? 'valid' : row.building ? 'building' : 'invalid';
}

/** One connection of its own: a session-level advisory lock is held by a connection, not by a pool. */
type Session = { query: (text: string, params?: unknown[]) => Promise<unknown>; release: (broken?: boolean) => void };
type PoolLike = { connect: () => Promise<{ query: Session['query']; release: (error?: boolean) => void }> };

async function openSession(db: Db): Promise<Session> {
  const client = (db as unknown as { $client: PoolLike | { query: Session['query'] } }).$client;
  if ('connect' in client && typeof client.connect === 'function') {
    const connection = await client.connect();
    return { query: (text, params) => connection.query(text, params), release: (broken) => connection.release(broken) };
  }
  // the embedded engine is one session already
  const single = client as { query: Session['query'] };
  return { query: (text, params) => single.query(text, params), release: () => undefined };
}

/** Any constant apart from MIGRATION_LOCK_KEY: the lock of one instance's index build. */
const INDEX_BUILD_LOCK_KEY = 7_346_202;

/**
 * Runs a CREATE INDEX CONCURRENTLY IF NOT EXISTS until the index is valid: a build another
 * instance is running is waited for; an invalid index (a build that crashed or was cancelled,
 * which IF NOT EXISTS would take for done) is dropped and built again.
 *
 * Builds run one at a time across instances, under a session lock taken with a try and polled
 * for: two instances that both found the index missing and built it at once deadlocked (40P01),
 * each build waiting for the other's transaction. A blocking pg_advisory_lock would deadlock as
 * well: the build in progress waits for every transaction older than its snapshot, the waiting
 * lock statement among them. Between polls a waiting instance holds no snapshot.
 */
async function buildIndex(db: Db, statement: string, name: string): Promise<void> {
  for (;;) {
    const state = await indexState(db, name);
    if (state === 'valid') return;
    if (state === 'building' || !(await buildAlone(db, statement, name))) await new Promise((done) => setTimeout(done, BUILD_POLL_MS));
  }
}

/**
 * Any other statement of such a file (CREATE OR REPLACE FUNCTION…) under the same lock: instances
 * that run one at once fail with "tuple concurrently updated".
 */
async function runAlone(db: Db, statement: string): Promise<void> {
  while (!(await underBuildLock(db, (session) => session.query(statement)))) await new Promise((done) => setTimeout(done, BUILD_POLL_MS));
}

/** Builds the index under the build lock; false when another instance holds it. */
function buildAlone(db: Db, statement: string, name: string): Promise<boolean> {
  return underBuildLock(db, async (session) => {
    // looked at again under the lock: another instance may have built it since
    const state = await indexState(db, name);
    if (state === 'valid') return;
    if (state === 'invalid') await session.query(`DROP INDEX CONCURRENTLY IF EXISTS "${name}"`);
    await session.query(statement);
  });
}

/** `work` on a session holding the build lock, taken with a try; false when another instance holds it. */
async function underBuildLock(db: Db, work: (session: Session) => Promise<unknown>): Promise<boolean> {
  const session = await openSession(db);
  let locked = false;
  try {
    const result = (await session.query('SELECT pg_try_advisory_lock($1) AS locked', [INDEX_BUILD_LOCK_KEY])) as { rows: { locked: boolean }[] };
    locked = result.rows[0]?.locked === true;
    if (!locked) return false;
    await work(session);
    return true;
  } finally {
    // a connection that could not give the lock back is dropped, which gives it back
    const unlocked = !locked || (await session.query('SELECT pg_advisory_unlock($1)', [INDEX_BUILD_LOCK_KEY]).then(() => true, () => false));
    session.release(!unlocked);
  }
}
