import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PlanType } from '@shared/plans';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database, type Db } from './client';
import { migrate, NO_TRANSACTION_MARKER } from './migrate';
import { PGLITE_EXTENSIONS } from './pglite-extensions';
import { queryRows } from './query';
import { createTestDatabase } from '../test-support/test-database';
import { adminQuery, runDatabaseName, withDatabase } from '../test-support/global-setup';
import { currentUsername, linkUsername, usernameHistory } from '../modules/tradingview/tradingview.repository';
import { user, userSubscriptions } from './schema';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

async function hasAccess(userId: string): Promise<boolean> {
  const [row] = await queryRows<{ access: boolean }>(database.db, sql`SELECT user_has_premium_access(${userId}::uuid) AS access`);
  return row!.access;
}

describe('migrations', () => {
  it('are recorded and not applied twice', async () => {
    expect(await migrate(database.db)).toEqual([]);
    const names = await queryRows<{ name: string }>(database.db, sql`SELECT name FROM schema_migrations ORDER BY name`);
    const files = (await readdir(fileURLToPath(new URL('./migrations/', import.meta.url)))).filter((name) => name.endsWith('.sql')).sort();
    expect(files.slice(0, 2)).toEqual(['0000_init.sql', '0001_access_function.sql']);
    expect(names.map((row) => row.name)).toEqual(files);
  });
});

describe('user_has_premium_access', () => {
  const day = 24 * 60 * 60 * 1000;
  it.each<{ case: string; planType: PlanType; isActive: boolean; expiresAt: Date | null; expected: boolean }>([
    { case: 'active monthly with future expiry', planType: 'monthly', isActive: true, expiresAt: new Date(Date.now() + day), expected: true },
    { case: 'active monthly without expiry', planType: 'monthly', isActive: true, expiresAt: null, expected: true },
    { case: 'active monthly expired', planType: 'monthly', isActive: true, expiresAt: new Date(Date.now() - day), expected: false },
    { case: 'inactive monthly with future expiry', planType: 'monthly', isActive: false, expiresAt: new Date(Date.now() + day), expected: false },
    { case: 'active lifetime even with a past expiry', planType: 'lifetime', isActive: true, expiresAt: new Date(Date.now() - day), expected: true },
    { case: 'inactive lifetime', planType: 'lifetime', isActive: false, expiresAt: null, expected: false },
  ])('$case → $expected', async ({ planType, isActive, expiresAt, expected }) => {
    const [member] = await database.db
      .insert(user)
      .values({ name: 'Member', email: `${crypto.randomUUID()}@example.com` })
      .returning();
    await database.db.insert(userSubscriptions).values({
      userId: member!.id,
      planType,
      status: 'active',
      isActive,
      expiresAt,
      provider: 'sandbox',
    });
    expect(await hasAccess(member!.id)).toBe(expected);
  });

  it('grants a one-time plan the catalogue adds as it grants lifetime, whatever the expiry (migration 0040)', async () => {
    const day2 = 24 * 60 * 60 * 1000;
    await database.db.execute(sql`INSERT INTO one_time_plans (slug) VALUES ('founder') ON CONFLICT DO NOTHING`);
    const access = async (planType: string, isActive: boolean) => {
      const [member] = await database.db.insert(user).values({ name: 'Member', email: `${crypto.randomUUID()}@example.com` }).returning();
      await database.db.insert(userSubscriptions).values({ userId: member!.id, planType, status: 'active', isActive, expiresAt: new Date(Date.now() - day2), provider: 'sandbox' });
      return hasAccess(member!.id);
    };
    expect(await access('founder', true)).toBe(true);
    expect(await access('founder', false)).toBe(false);
    // a recurring plan with a past expiry has none
    expect(await access('weekly', true)).toBe(false);
    const [until] = await queryRows<{ until: string | null }>(database.db, sql`SELECT subscription_access_until(true, 'founder', now(), now()) AS until`);
    expect(until!.until).toBeNull();
  });

  it('is false for a user without any subscription', async () => {
    const [member] = await database.db.insert(user).values({ name: 'Nobody', email: 'nobody@example.com' }).returning();
    expect(await hasAccess(member!.id)).toBe(false);
  });
});

const MIGRATIONS = fileURLToPath(new URL('./migrations/', import.meta.url));

/** A database with nothing in it, on the engine the suite runs on (the test template is migrated). */
async function emptyDatabase(): Promise<Database> {
  const target = inject('testDatabase');
  if (target.kind === 'pglite') return openDatabase({ kind: 'pglite', dataDir: null, pglite: await PGlite.create({ extensions: PGLITE_EXTENSIONS }) });
  const name = runDatabaseName(target.template, 'empty');
  await adminQuery(target.url, `CREATE DATABASE ${name}`);
  return openDatabase({ kind: 'postgres', url: withDatabase(target.url, name) });
}

/** Applies the migrations named before `first` as the runner does and records them, so migrate() goes on from there. */
async function migrateUpTo(db: Db, first: string): Promise<void> {
  const files = (await readdir(MIGRATIONS)).filter((name) => name.endsWith('.sql') && name < first).sort();
  await db.transaction(async (tx) => {
    await tx.execute(sql`CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    for (const name of files) {
      for (const statement of (await readFile(`${MIGRATIONS}${name}`, 'utf8')).split('--> statement-breakpoint')) {
        if (statement.trim()) await tx.execute(sql.raw(statement));
      }
      await tx.execute(sql`INSERT INTO schema_migrations (name) VALUES (${name})`);
    }
  });
}

describe('0010_tradingview_usernames', () => {
  let old: Database;
  const ids = { moved: randomUUID(), byUpdate: randomUUID(), none: randomUUID() };
  const at = (day: string) => `${day}T12:00:00.000Z`;

  // an empty database migrated step by step: over a minute on a busy 2-core machine (the limit bounds a hang)
  beforeAll(async () => {
    old = await emptyDatabase();
    await migrateUpTo(old.db, '0010_');
    for (const [key, id] of Object.entries(ids)) await old.db.execute(sql`INSERT INTO "user" (id, name, email) VALUES (${id}::uuid, 'member', ${`${key}@example.com`})`);
    const row = (userId: string | null, username: string | null, createdAt: string, updatedAt: string) =>
      old.db.execute(sql`INSERT INTO user_subscriptions (user_id, plan_type, status, provider, tradingview_username, created_at, updated_at)
        VALUES (${userId}::uuid, 'monthly', 'active', 'sandbox', ${username}, ${at(createdAt)}::timestamptz, ${at(updatedAt)}::timestamptz)`);
    // a name corrected once: the newer spelling of the current name wins, the old name is history
    await row(ids.moved, 'old_name', '2025-01-01', '2025-01-02');
    await row(ids.moved, 'new_name', '2025-01-15', '2025-01-20');
    await row(ids.moved, 'New_Name', '2025-02-01', '2025-03-01');
    // the most recently updated row decides, not the newest one
    await row(ids.byUpdate, 'created_later', '2025-05-01', '2025-05-01');
    await row(ids.byUpdate, 'updated_later', '2025-04-01', '2025-06-01');
    await row(ids.none, null, '2025-01-01', '2025-01-01');
    await row(null, 'unclaimed_buyer', '2025-01-01', '2025-01-01');
    expect((await migrate(old.db))[0]).toBe('0010_tradingview_usernames.sql');
  }, 180_000);
  afterAll(async () => {
    await old?.close();
  });

  it("makes the name of each member's most recently updated row current and keeps older names as history", async () => {
    expect(await currentUsername(old.db, ids.moved)).toBe('New_Name');
    expect(await usernameHistory(old.db, ids.moved)).toEqual([
      { username: 'New_Name', linkedAt: new Date(at('2025-01-15')), replacedAt: null },
      { username: 'old_name', linkedAt: new Date(at('2025-01-01')), replacedAt: new Date(at('2025-01-02')) },
    ]);
    expect(await currentUsername(old.db, ids.byUpdate)).toBe('updated_later');
    expect((await usernameHistory(old.db, ids.byUpdate)).map((entry) => [entry.username, entry.replacedAt === null])).toEqual([
      ['updated_later', true],
      ['created_later', false],
    ]);
    expect(await usernameHistory(old.db, ids.none)).toEqual([]);
    const all = await queryRows<{ username: string }>(old.db, sql`SELECT username FROM tradingview_usernames`);
    expect(all.map((entry) => entry.username)).not.toContain('unclaimed_buyer');
  });

  it('drops the column from user_subscriptions', async () => {
    const columns = await queryRows<{ name: string }>(
      old.db,
      sql`SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'user_subscriptions' AND column_name = 'tradingview_username'`,
    );
    expect(columns).toEqual([]);
  });

  it('allows one current name per member: a second one is refused, a change goes through linkUsername', async () => {
    await expect(old.db.execute(sql`INSERT INTO tradingview_usernames (user_id, username) VALUES (${ids.moved}::uuid, 'second_current')`)).rejects.toThrow();
    expect(await linkUsername(old.db, ids.moved, 'new_name', new Date())).toEqual({ changed: false, previous: 'New_Name' });
    expect(await linkUsername(old.db, ids.moved, 'third_name', new Date())).toEqual({ changed: true, previous: 'New_Name' });
    expect(await currentUsername(old.db, ids.moved)).toBe('third_name');
  });
});

describe('a migration that builds an index without locking the table (no-transaction file)', () => {
  let fresh: Database;
  const dir = mkdtempSync(join(tmpdir(), 'candlewise-migrations-'));
  const write = (name: string, text: string) => writeFileSync(join(dir, name), text);
  const indexes = (db: Db) =>
    queryRows<{ name: string; valid: boolean }>(db, sql`SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE i.indrelid = 'scale_items'::regclass AND NOT i.indisprimary ORDER BY name`);

  beforeAll(async () => {
    fresh = await emptyDatabase();
    write('0000_items.sql', `CREATE TABLE scale_items (id serial PRIMARY KEY, code text NOT NULL);\n--> statement-breakpoint\nINSERT INTO scale_items (code) VALUES ('a'), ('b'), ('b');`);
  });
  afterAll(async () => {
    await fresh?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs after the files before it and before those after it, is recorded, and rebuilds an index a crashed build left invalid', async () => {
    expect(await migrate(fresh.db, dir)).toEqual(['0000_items.sql']);
    // a unique build over duplicates fails half-way, as a killed one does: the index stays, INVALID
    await expect(fresh.db.execute(sql`CREATE UNIQUE INDEX CONCURRENTLY scale_items_code_uq ON scale_items (code)`)).rejects.toThrow();
    expect(await indexes(fresh.db)).toEqual([{ name: 'scale_items_code_uq', valid: false }]);
    write('0001_dedupe.sql', `DELETE FROM scale_items WHERE id = 3;`);
    write('0002_indexes.sql', `${NO_TRANSACTION_MARKER}\nCREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS scale_items_code_uq ON scale_items (code);\n--> statement-breakpoint\nCREATE INDEX CONCURRENTLY IF NOT EXISTS scale_items_lower_idx ON scale_items (lower(code));`);
    write('0003_after.sql', `INSERT INTO scale_items (code) VALUES ('c');`);
    expect(await migrate(fresh.db, dir)).toEqual(['0001_dedupe.sql', '0002_indexes.sql', '0003_after.sql']);
    expect(await indexes(fresh.db)).toEqual([
      { name: 'scale_items_code_uq', valid: true },
      { name: 'scale_items_lower_idx', valid: true },
    ]);
    await expect(fresh.db.execute(sql`INSERT INTO scale_items (code) VALUES ('a')`)).rejects.toThrow();
    expect(await migrate(fresh.db, dir)).toEqual([]);
    const recorded = await queryRows<{ name: string }>(fresh.db, sql`SELECT name FROM schema_migrations ORDER BY name`);
    expect(recorded.map(({ name }) => name)).toEqual(['0000_items.sql', '0001_dedupe.sql', '0002_indexes.sql', '0003_after.sql']);
  });
});

describe('several instances started at once (a rolling deploy, the replicas of a compose stack)', () => {
  const INSTANCES = 4;
  // every migration from an empty database: 11–15 s at load 9 on a 2-core machine, over 60 s at load
  // 24 (a CI run beside other work); a bound, not a measure, as main.test.ts's process tests have
  const WHOLE_MIGRATION_MS = 180_000;
  const opened: Database[] = [];
  let base: Database | null = null;
  afterAll(async () => {
    for (const database of opened) await database.close();
    await base?.close();
  });

  /** `count` connections to one database as separate instances have them (their own pool each on a server). */
  async function instancesOf(database: Database, count: number): Promise<Db[]> {
    const target = inject('testDatabase');
    if (target.kind === 'pglite') return Array.from({ length: count }, () => database.db);
    const [{ rows }] = [await database.db.execute(sql`SELECT current_database() AS name`)] as unknown as [{ rows: { name: string }[] }];
    const url = withDatabase(target.url, rows[0]!.name);
    const instances = await Promise.all(Array.from({ length: count }, () => openDatabase({ kind: 'postgres', url, poolSize: 4 })));
    opened.push(...instances);
    return instances.map((instance) => instance.db);
  }

  const concurrentIndexes = async () => {
    const names: string[] = [];
    for (const file of (await readdir(MIGRATIONS)).filter((name) => name.endsWith('.sql')).sort()) {
      const text = await readFile(join(MIGRATIONS, file), 'utf8');
      if (!text.trimStart().startsWith(NO_TRANSACTION_MARKER)) continue;
      for (const match of text.matchAll(/INDEX\s+CONCURRENTLY\s+IF\s+NOT\s+EXISTS\s+"?([a-z0-9_]+)"?/gi)) names.push(match[1]!);
    }
    return names;
  };

  async function expectAllUp(db: Db, results: PromiseSettledResult<string[]>[], expected: string[]) {
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    const applied = results.flatMap((result) => (result.status === 'fulfilled' ? result.value : []));
    // each file applied once, by one of them
    expect(applied.sort()).toEqual(expected);
    const files = (await readdir(MIGRATIONS)).filter((name) => name.endsWith('.sql')).sort();
    const recorded = await queryRows<{ name: string }>(db, sql`SELECT name FROM schema_migrations ORDER BY name`);
    expect(recorded.map((row) => row.name)).toEqual(files);
    const indexes = await concurrentIndexes();
    expect(indexes.length).toBeGreaterThan(0);
    const valid = await queryRows<{ name: string }>(
      db,
      sql`SELECT c.relname AS name FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid WHERE i.indisvalid AND c.relname IN ${sql.raw(`(${indexes.map((name) => `'${name}'`).join(', ')})`)}`,
    );
    expect(valid.map((row) => row.name).sort()).toEqual([...indexes].sort());
  }

  it('all come up on an empty database, each migration applied once', async () => {
    base = await emptyDatabase();
    const instances = await instancesOf(base, INSTANCES);
    const results = await Promise.allSettled(instances.map((db) => migrate(db)));
    const files = (await readdir(MIGRATIONS)).filter((name) => name.endsWith('.sql')).sort();
    await expectAllUp(base.db, results, files);
  }, WHOLE_MIGRATION_MS);

  it('all come up on an old database whose index builds are still to run', async () => {
    const old = await emptyDatabase();
    try {
      await migrateUpTo(old.db, '0021_');
      // an old shop has rows for the builds to index
      for (let i = 0; i < 50; i += 1) await old.db.execute(sql`INSERT INTO "user" (name, email) VALUES ('member', ${`old-${i}@example.com`})`);
      const instances = await instancesOf(old, INSTANCES);
      const results = await Promise.allSettled(instances.map((db) => migrate(db)));
      const files = (await readdir(MIGRATIONS)).filter((name) => name.endsWith('.sql') && name >= '0021_').sort();
      await expectAllUp(old.db, results, files);
    } finally {
      for (const database of opened.splice(0)) await database.close();
      await old.close();
    }
  }, WHOLE_MIGRATION_MS);
});
