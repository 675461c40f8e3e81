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
      else await db.execute(sql.raw(statement));
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

/**
 * Runs a CREATE INDEX CONCURRENTLY IF NOT EXISTS until the index is valid: a build another
 * instance is running is waited for; an invalid index (a build that crashed or was cancelled,
 * which IF NOT EXISTS would take for done) is dropped and built again.
 */
async function buildIndex(db: Db, statement: string, name: string): Promise<void> {
  for (;;) {
    const state = await indexState(db, name);
    if (state === 'valid') return;
    if (state === 'building') await new Promise((done) => setTimeout(done, BUILD_POLL_MS));
    else {
      if (state === 'invalid') await db.execute(sql.raw(`DROP INDEX CONCURRENTLY IF EXISTS "${name}"`));
      await db.execute(sql.raw(statement));
    }
  }
}
