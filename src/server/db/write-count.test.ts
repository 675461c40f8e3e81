import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test-support/test-database';
import type { Database } from './client';
import { user } from './schema';
import { mayWrite } from './write-count';

describe('mayWrite', () => {
  it.each(['select 1', '  SELECT * FROM "user"', '(select 1) union all (select 2)', 'show server_version'])('reads: %s', (statement) => {
    expect(mayWrite(statement)).toBe(false);
  });
  it.each(['insert into t values (1)', 'UPDATE t SET a = 1', 'delete from t', 'begin', 'COMMIT', 'with x as (delete from t returning *) select * from x', 'selective_function()'])(
    'may write: %s',
    (statement) => {
      expect(mayWrite(statement)).toBe(true);
    },
  );
});

describe('the database write count', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  const ID = '6f1d3c2a-0000-4000-8000-00000000c0de';
  const row = { id: ID, name: 'writer', email: 'write-count@example.com' };

  it('stays put while the app reads', async () => {
    const before = database.writes.count;
    await database.db.select().from(user).limit(1);
    await database.db.execute(sql`select count(*) from "user"`);
    expect(database.writes.count).toBe(before);
  });

  it('moves once a write has completed, and when a transaction ends', async () => {
    const before = database.writes.count;
    const written = database.db.insert(user).values(row);
    expect(database.writes.count).toBe(before); // sent, not completed
    await written;
    const afterInsert = database.writes.count;
    expect(afterInsert).toBeGreaterThan(before);
    await database.db.transaction(async (tx) => {
      await tx.update(user).set({ name: 'renamed' }).where(sql`${user.id} = ${ID}`);
    });
    expect(database.writes.count).toBeGreaterThan(afterInsert);
  });

  it('moves when a write fails too', async () => {
    const before = database.writes.count;
    await expect(database.db.insert(user).values(row)).rejects.toThrow();
    expect(database.writes.count).toBeGreaterThan(before);
  });
});
