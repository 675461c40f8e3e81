import type { SQL } from 'drizzle-orm';
import type { Db } from './client';

/**
 * Rows of a raw SQL query. Both drivers (pg and PGlite) answer `{ rows }`, but the engine-neutral
 * Db type cannot know it, hence the one cast here instead of one in every caller.
 */
export async function queryRows<T>(db: Pick<Db, 'execute'>, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** A timestamp as a raw query or a JSON value gives it (a string; a Date on some drivers), or null. */
export const dateOrNull = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));
