import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { PROJECT_ROOT } from '../project-root';
import type { Db } from './client';
import { queryRows } from './query';

const MIGRATIONS_DIR = join(PROJECT_ROOT, 'src/server/db/migrations');
// Any constant shared by every instance: the lock makes concurrent starts apply migrations once.
const MIGRATION_LOCK_KEY = 7_346_201;

/**
 * Applies the SQL files of migrations/ that have not run yet, in name order, in one transaction
 * under an advisory lock, so several instances starting at once on one Postgres are safe.
 * (drizzle-kit writes the files; drizzle's own migrator takes no lock, hence this runner.)
 */
export async function migrate(db: Db): Promise<string[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql')).sort();
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    await tx.execute(sql`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const applied = await queryRows<{ name: string }>(tx, sql`SELECT name FROM schema_migrations`);
    const done = new Set(applied.map((row) => row.name));
    const pending = files.filter((name) => !done.has(name));
    for (const name of pending) {
      const text = await readFile(join(MIGRATIONS_DIR, name), 'utf8');
      for (const statement of text.split('--> statement-breakpoint')) {
        if (statement.trim()) await tx.execute(sql.raw(statement));
      }
      await tx.execute(sql`INSERT INTO schema_migrations (name) VALUES (${name})`);
    }
    return pending;
  });
}
