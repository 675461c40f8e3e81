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
    if (await runFileAlone(db, next, texts.get(next)!)) applied.push(next);
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
 * Runs a file outside any transaction, whole, on a session holding the build lock (taken with a
 * try and polled for), and records it there; true when this call ran it, false when another
 * instance had. The lock spans the file: its statements one at a time each under the lock let two
 * instances interleave a DROP TRIGGER IF EXISTS / CREATE TRIGGER pair, and the second CREATE failed
 * ("already exists"). Index builds run one at a time across instances this way too: two that both
 * found an index missing and built it at once deadlocked (40P01), each waiting for the other's
 * transaction; a blocking pg_advisory_lock would as well, the build in progress waiting for every
 * transaction older than its snapshot, the waiting lock statement among them. Between polls a
 * waiting instance holds no snapshot.
 */
async function runFileAlone(db: Db, name: string, text: string): Promise<boolean> {
  for (;;) {
    let ran = false;
    const locked = await underBuildLock(db, async (session) => {
      const done = (await session.query('SELECT 1 FROM schema_migrations WHERE name = $1', [name])) as { rows: unknown[] };
      if (done.rows.length > 0) return;
      for (const statement of statementsOf(text)) {
        const index = CONCURRENT_INDEX.exec(statement)?.[1];
        if (index) await buildIndex(db, session, statement, index);
        else await session.query(statement);
      }
      await session.query('INSERT INTO schema_migrations (name) VALUES ($1) ON CONFLICT DO NOTHING', [name]);
      ran = true;
    });
    if (locked) return ran;
    await new Promise((done) => setTimeout(done, BUILD_POLL_MS));
  }
}

/**
 * A CREATE INDEX CONCURRENTLY IF NOT EXISTS until the index is valid: a build running elsewhere (by
 * hand) is waited for; an invalid index (a build that crashed or was cancelled, which IF NOT EXISTS
 * would take for done) is dropped and built again.
 */
async function buildIndex(db: Db, session: Session, statement: string, name: string): Promise<void> {
  for (;;) {
    const state = await indexState(db, name);
    if (state === 'valid') return;
    if (state === 'building') {
      await new Promise((done) => setTimeout(done, BUILD_POLL_MS));
      continue;
    }
    if (state === 'invalid') await session.query(`DROP INDEX CONCURRENTLY IF EXISTS "${name}"`);
    await session.query(statement);
  }
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
