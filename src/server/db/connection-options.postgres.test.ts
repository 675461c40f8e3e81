import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test-support/test-database';
import type { Database } from './client';
import { queryRows } from './query';

// The settings every connection of the shop's pool starts with (client.ts CONNECTION_OPTIONS).
let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

const setting = async (name: 'jit' | 'max_parallel_workers_per_gather') =>
  (await queryRows<{ value: string }>(database.db, sql`SELECT current_setting(${name}) AS value`))[0]?.value;

describe("the pool's connections on the Postgres server", () => {
  it('start with JIT compiling and parallel workers off, on every connection of the pool', async () => {
    // more reads at once than one connection: the pool opens several, each must have the settings
    const answers = await Promise.all(Array.from({ length: 4 }, async () => [await setting('jit'), await setting('max_parallel_workers_per_gather')]));
    expect(answers).toEqual(Array.from({ length: 4 }, () => ['off', '0']));
  });

  it('plans a grouped read of a whole table without workers, even where the planner would find them cheap', async () => {
    const plan = await database.db.transaction(async (tx) => {
      // costs that make a parallel plan the cheapest for any table: only the worker limit keeps it out
      await tx.execute(sql`SET LOCAL parallel_setup_cost = 0`);
      await tx.execute(sql`SET LOCAL parallel_tuple_cost = 0`);
      await tx.execute(sql`SET LOCAL min_parallel_table_scan_size = 0`);
      return queryRows<{ 'QUERY PLAN': string }>(tx, sql`EXPLAIN SELECT plan_type, count(*) FROM user_subscriptions GROUP BY plan_type`);
    });
    expect(plan.map((row) => row['QUERY PLAN']).join('\n')).not.toMatch(/Gather|Parallel/);
  });
});
