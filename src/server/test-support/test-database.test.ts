import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { queryRows } from '../db/query';
import { createTestDatabase } from './test-database';

// A worker hands a closed suite's database to the next suite: what the first left must not reach the second.
describe('a test database handed to the next suite', () => {
  const open: Database[] = [];
  const opened = async () => {
    const database = await createTestDatabase();
    open.push(database);
    return database;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((database) => database.close()));
  });

  it('is empty, its numbering starts again and the migrations are still recorded', async () => {
    const first = await opened();
    await first.db.execute(sql`INSERT INTO "user" (id, name, email, email_verified) VALUES (gen_random_uuid(), 'A', 'a@example.com', true)`);
    await first.db.execute(sql`INSERT INTO access_changes (user_id, kind, plan_type, has_access) SELECT id, 'granted', 'monthly', true FROM "user"`);
    await first.close();

    const next = await opened();
    const rows = await queryRows<{ users: number; changes: number; migrations: number }>(
      next.db,
      sql`SELECT (SELECT count(*)::int FROM "user") AS users, (SELECT count(*)::int FROM access_changes) AS changes, (SELECT count(*)::int FROM schema_migrations) AS migrations`,
    );
    expect(rows[0]).toMatchObject({ users: 0, changes: 0 });
    expect(rows[0]!.migrations).toBeGreaterThan(20);
    await next.db.execute(sql`INSERT INTO "user" (id, name, email, email_verified) VALUES (gen_random_uuid(), 'B', 'b@example.com', true)`);
    const ids = await queryRows<{ id: string }>(next.db, sql`INSERT INTO access_changes (user_id, kind, plan_type, has_access) SELECT id, 'granted', 'monthly', true FROM "user" RETURNING id::text`);
    expect(ids[0]!.id).toBe('1');
  });

  it('refuses the queries of the suite that closed it', async () => {
    const first = await opened();
    await first.close();
    await expect(first.db.execute(sql`SELECT 1`)).rejects.toThrow();
    const next = await opened();
    await expect(next.db.execute(sql`SELECT 1`)).resolves.toBeDefined();
  });

  it('does not hand on a table a suite made', async () => {
    const first = await opened();
    await first.db.execute(sql`CREATE TABLE left_behind (id int)`);
    await first.close();
    const next = await opened();
    const rows = await queryRows<{ found: string | null }>(next.db, sql`SELECT to_regclass('left_behind')::text AS found`);
    expect(rows[0]!.found).toBeNull();
  });
});
