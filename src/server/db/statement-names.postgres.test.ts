import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test-support/test-database';
import type { Database, Db } from './client';
import { queryRows } from './query';
import { user } from './schema';
import { MAX_PARAMETERS, NAMED_FROM_USE } from './statement-names';

// On the Postgres server each connection prepares the shop's statements once (statement-names.ts).
let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

const preparedOnThisConnection = async (db: Db) =>
  (await queryRows<{ statement: string }>(db, sql`select statement from pg_prepared_statements where statement like '%from "user"%'`)).map((row) => row.statement);

describe('named statements on the Postgres server', () => {
  it('prepares a statement run again and again in a transaction once, and answers as before', async () => {
    await database.db.transaction(async (tx) => {
      const byEmail = (email: string) => tx.select({ id: user.id }).from(user).where(eq(user.email, email));
      for (let use = 1; use <= NAMED_FROM_USE + 1; use += 1) expect(await byEmail(`nobody-${use}@example.com`)).toEqual([]);
      const ids = Array.from({ length: MAX_PARAMETERS + 1 }, (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`);
      for (let use = 1; use <= NAMED_FROM_USE; use += 1) expect(await tx.select({ id: user.id }).from(user).where(inArray(user.id, ids))).toEqual([]);
      const prepared = await preparedOnThisConnection(tx);
      expect(prepared.filter((statement) => statement.includes('"email" = $1'))).toHaveLength(1);
      // a long list of ids is a new text for every length: left unnamed
      expect(prepared.filter((statement) => statement.includes(' in ('))).toHaveLength(0);
    });
  });
});
