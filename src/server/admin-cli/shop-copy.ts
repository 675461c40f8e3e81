// Copies a whole shop from one database into another of the same schema: the embedded PGlite into
// a Postgres server, for a vendor who has outgrown it (docs/deploying.md, "When to move from
// PGlite to Postgres"). The target is migrated first and must hold no shop yet. Everything else
// happens in one transaction on the target, so a failure anywhere leaves it as it was and the
// source is only
// read: the tables in foreign-key order, in batches of rows as JSON (no value goes through
// JavaScript's types), with the tables' own triggers held off (the rows already carry what
// they compute), the sequences set to where the source's stand, and every table's rows counted
// on both sides before the commit.
import { sql } from 'drizzle-orm';
import { dependencyOrder } from '@shared/dependency-order';
import type { Db } from '../db/client';
import { migrate } from '../db/migrate';
import { queryRows } from '../db/query';

/** Rows a statement carries: big enough that a million rows is ~500 round trips, small enough for memory. */
const BATCH_ROWS = 2_000;
/** The migration runner's own bookkeeping: the target's migrate() wrote it already. */
const BOOKKEEPING = 'schema_migrations';
/** Tables whose rows mean the target already runs a shop: copying over it would mix two shops. */
const SHOP_TABLES = ['user', 'orders', 'checkout_sessions'];

export type CopiedTable = { table: string; rows: number };

export class ShopCopyRefused extends Error {}

/** What these statements need of a database or a transaction on it. */
type Queries = Pick<Db, 'execute'>;

const table = (name: string) => sql.identifier(name);
/** A relation's name as regclass takes it from a parameter. */
const quotedName = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function tablesOf(db: Queries): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    db,
    sql`SELECT relname AS name FROM pg_class WHERE relkind = 'r' AND relnamespace = current_schema()::regnamespace AND relname <> ${BOOKKEEPING} ORDER BY relname`,
  );
  return rows.map((row) => row.name);
}

async function foreignKeysOf(db: Queries): Promise<[string, string][]> {
  const rows = await queryRows<{ dependent: string; dependency: string }>(
    db,
    sql`SELECT child.relname AS dependent, parent.relname AS dependency
        FROM pg_constraint con JOIN pg_class child ON child.oid = con.conrelid JOIN pg_class parent ON parent.oid = con.confrelid
        WHERE con.contype = 'f' AND con.connamespace = current_schema()::regnamespace`,
  );
  return rows.map((row) => [row.dependent, row.dependency]);
}

/** The columns an INSERT may name: not generated ones, which the target computes again. */
async function insertableColumns(db: Queries, name: string): Promise<string[]> {
  const rows = await queryRows<{ column: string }>(
    db,
    sql`SELECT attname AS column FROM pg_attribute
        WHERE attrelid = ${quotedName(name)}::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
        ORDER BY attnum`,
  );
  return rows.map((row) => row.column);
}

async function countRows(db: Queries, name: string): Promise<number> {
  const [row] = await queryRows<{ rows: number }>(db, sql`SELECT count(*)::int AS rows FROM ${table(name)}`);
  return row?.rows ?? 0;
}

async function sequencesOf(db: Queries): Promise<{ name: string; value: string; called: boolean }[]> {
  const names = await queryRows<{ name: string }>(db, sql`SELECT relname AS name FROM pg_class WHERE relkind = 'S' AND relnamespace = current_schema()::regnamespace`);
  const states = [];
  for (const { name } of names) {
    const [state] = await queryRows<{ value: string; called: boolean }>(db, sql`SELECT last_value::text AS value, is_called AS called FROM ${table(name)}`);
    if (state) states.push({ name, ...state });
  }
  return states;
}

/** Copies one table's rows in batches, walking the source by its rows' physical addresses (no sort, no offset). */
async function copyTable(source: Queries, target: Queries, name: string): Promise<void> {
  const columns = sql.join((await insertableColumns(target, name)).map((column) => sql.identifier(column)), sql`, `);
  let after = '(0,0)';
  for (;;) {
    const [batch] = await queryRows<{ last: string | null; rows: string | null }>(
      source,
      sql`WITH batch AS (SELECT ctid AS copy_tid, t.* FROM ${table(name)} t WHERE ctid > ${after}::tid ORDER BY ctid LIMIT ${BATCH_ROWS})
          SELECT max(copy_tid)::text AS last, json_agg(to_jsonb(batch) - 'copy_tid')::text AS rows FROM batch`,
    );
    if (!batch?.last || !batch.rows) return;
    await target.execute(
      sql`INSERT INTO ${table(name)} (${columns}) OVERRIDING SYSTEM VALUE SELECT ${columns} FROM json_populate_recordset(NULL::${table(name)}, ${batch.rows}::json)`,
    );
    after = batch.last;
  }
}

/**
 * Migrates `target`, then copies every row of `source` into it (see the top of this file).
 * Refuses a target that already holds a shop, and a source whose migrations the target's code
 * does not have. `progress` hears each table as it is done.
 */
export async function copyShop(source: Db, target: Db, progress: (copied: CopiedTable) => void = () => undefined): Promise<CopiedTable[]> {
  await migrate(target);
  const [sourceMigrations, targetMigrations] = await Promise.all(
    [source, target].map(async (db) => new Set((await queryRows<{ name: string }>(db, sql`SELECT name FROM schema_migrations`)).map((row) => row.name))),
  );
  const unknown = [...sourceMigrations!].filter((name) => !targetMigrations!.has(name));
  if (unknown.length > 0) throw new ShopCopyRefused(`The shop's database has migrations this version does not know (${unknown.join(', ')}): update first.`);
  for (const name of SHOP_TABLES) {
    if ((await countRows(target, name)) > 0) throw new ShopCopyRefused(`The target database already holds a shop (its "${name}" table has rows): give an empty database.`);
  }

  const tables = dependencyOrder(await tablesOf(source), await foreignKeysOf(source));
  const sequences = await sequencesOf(source);
  return target.transaction(async (tx) => {
    // rows a migration put in the target (defaults) give way to the shop's own
    await tx.execute(sql`TRUNCATE ${sql.join(tables.map(table), sql`, `)}`);
    for (const name of tables) await tx.execute(sql`ALTER TABLE ${table(name)} DISABLE TRIGGER USER`);
    const copied: CopiedTable[] = [];
    for (const name of tables) {
      await copyTable(source, tx, name);
      const [expected, rows] = [await countRows(source, name), await countRows(tx, name)];
      if (rows !== expected) throw new Error(`table ${name}: ${expected} rows in the source, ${rows} copied: nothing was kept`);
      copied.push({ table: name, rows });
      progress({ table: name, rows });
    }
    for (const name of tables) await tx.execute(sql`ALTER TABLE ${table(name)} ENABLE TRIGGER USER`);
    for (const sequence of sequences) await tx.execute(sql`SELECT setval(${quotedName(sequence.name)}::regclass, ${sequence.value}::bigint, ${sequence.called})`);
    return copied;
  });
}
