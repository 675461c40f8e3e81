import { is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './client';
import { queryRows } from './query';
import * as schema from './schema';
import { createTestDatabase } from '../test-support/test-database';

// Migrations are written by hand and the Drizzle schema is edited to match: this keeps the two
// honest. It compares what the code is typed against with what the migrated database holds.

type Column = {
  table: string;
  column: string;
  type: string;
  notNull: boolean;
  hasDefault: boolean;
};
type Named = { table: string; name: string };

const tables = (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTable)).map((table) => getTableConfig(table));
const byTableAndName = (a: Named, b: Named): number => a.table.localeCompare(b.table) || a.name.localeCompare(b.name);

function schemaColumns(): Column[] {
  return tables
    .flatMap(({ name: table, columns }) =>
      columns.map((column) => ({
        table,
        column: column.name,
        type: column.getSQLType(),
        notNull: column.notNull,
        hasDefault: column.hasDefault,
      })),
    )
    .sort((a, b) => byTableAndName({ table: a.table, name: a.column }, { table: b.table, name: b.column }));
}

/** Indexes declared in the schema; unique ones (constraints or indexes) are listed apart. */
function schemaIndexes(): { indexes: Named[]; unique: Named[] } {
  const indexes: Named[] = [];
  const unique: Named[] = [];
  for (const { name: table, columns, indexes: declared, uniqueConstraints } of tables) {
    for (const index of declared)
      (index.config.unique ? unique : indexes).push({
        table,
        name: index.config.name!,
      });
    for (const constraint of uniqueConstraints) unique.push({ table, name: constraint.getName()! });
    for (const column of columns) if (column.isUnique) unique.push({ table, name: column.uniqueName! });
  }
  return {
    indexes: indexes.sort(byTableAndName),
    unique: unique.sort(byTableAndName),
  };
}

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

describe('the Drizzle schema', () => {
  it('has the tables and columns the migrations create: types, nullability, whether a default exists', async () => {
    const rows = await queryRows<Column>(
      database.db,
      sql`SELECT c.relname AS "table", a.attname AS "column", format_type(a.atttypid, a.atttypmod) AS "type",
                 a.attnotnull AS "notNull", (a.atthasdef OR a.attidentity <> '') AS "hasDefault"
          FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
          WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND c.relname <> 'schema_migrations'
            AND a.attnum > 0 AND NOT a.attisdropped
          ORDER BY 1, 2`,
    );
    expect([...rows].sort((a, b) => byTableAndName({ table: a.table, name: a.column }, { table: b.table, name: b.column }))).toEqual(schemaColumns());
  });

  it('has the indexes and unique constraints the migrations create', async () => {
    const rows = await queryRows<Named & { isUnique: boolean }>(
      database.db,
      sql`SELECT t.relname AS "table", i.relname AS "name", x.indisunique AS "isUnique"
          FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
          WHERE t.relnamespace = 'public'::regnamespace AND NOT x.indisprimary AND t.relname <> 'schema_migrations'`,
    );
    const pick = (unique: boolean): Named[] =>
      rows
        .filter((row) => row.isUnique === unique)
        .map(({ table, name }) => ({ table, name }))
        .sort(byTableAndName);
    const expected = schemaIndexes();
    expect(pick(false)).toEqual(expected.indexes);
    expect(pick(true)).toEqual(expected.unique);
  });
});
