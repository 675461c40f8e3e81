import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database, type Db } from '../db/client';
import { queryRows } from '../db/query';
import { orders, tradingviewGrants, user } from '../db/schema';
import { adminQuery, runDatabaseName, withDatabase } from '../test-support/global-setup';
import { createTestDatabase } from '../test-support/test-database';
import { backup, BackupRefused, backupStamp, backupsIn, restore, type BackupTarget } from './backup-command';

// A shop backed up and restored on the engine of the pass: pg_dump / pg_restore on the Postgres
// server pass, PGlite's own dump of its data directory on the embedded pass.
const target = inject('testDatabase');
const dirs: string[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});
const tempDir = async (prefix: string) => {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

/** Members, their orders and their TradingView grants, as a shop that has sold holds them. */
async function fillShop(db: Db) {
  for (let i = 0; i < 5; i += 1) {
    const [member] = await db.insert(user).values({ name: `Member ${i}`, email: `member-${i}-${randomUUID()}@example.com` }).returning();
    await db.insert(orders).values({ userId: member!.id, planType: i % 2 ? 'monthly' : 'lifetime', amount: 3600 + i, currency: 'usd', status: 'paid' });
    await db.insert(tradingviewGrants).values({ userId: member!.id, username: `tv_member_${i}`, status: i === 4 ? 'failed' : 'granted', lastError: i === 4 ? 'throttled' : null });
  }
}

/** Everything the restore must bring back, row for row. */
async function shopOf(db: Db) {
  return {
    members: await queryRows(db, sql`SELECT id, name, email, created_at FROM "user" ORDER BY id`),
    orders: await queryRows(db, sql`SELECT id, user_id, plan_type, amount, currency, status, created_at FROM orders ORDER BY id`),
    grants: await queryRows(db, sql`SELECT id, user_id, username, desired, status, last_error, next_attempt_at FROM tradingview_grants ORDER BY id`),
    migrations: await queryRows(db, sql`SELECT name FROM schema_migrations ORDER BY name`),
  };
}

describe('npm run backup / npm run restore', () => {
  let source: BackupTarget;
  let shop: Awaited<ReturnType<typeof shopOf>>;
  let newTarget: () => Promise<{ target: BackupTarget; open: () => Promise<Database> }>;
  /** The backup the first two tests restore. */
  let file: string;

  beforeAll(async () => {
    if (target.kind === 'postgres') {
      const database = await createTestDatabase();
      cleanups.push(() => database.close());
      await fillShop(database.db);
      shop = await shopOf(database.db);
      const [{ name }] = (await queryRows<{ name: string }>(database.db, sql`SELECT current_database() AS name`)) as [{ name: string }];
      source = { kind: 'postgres', url: withDatabase(target.url, name) };
      newTarget = async () => {
        const created = runDatabaseName(target.template, 'restored');
        await adminQuery(target.url, `CREATE DATABASE ${created}`);
        const url = withDatabase(target.url, created);
        return { target: { kind: 'postgres', url }, open: () => openDatabase({ kind: 'postgres', url }) };
      };
    } else {
      // a data directory made from the run's migrated snapshot, closed as a stopped server leaves it
      const dataDir = await tempDir('candlewise-backup-source-');
      const { PGlite } = await import('@electric-sql/pglite');
      const { PGLITE_EXTENSIONS } = await import('../db/pglite-extensions');
      const pglite = await PGlite.create({ dataDir, loadDataDir: new Blob([await readFile(target.snapshotPath)]), extensions: PGLITE_EXTENSIONS });
      const database = await openDatabase({ kind: 'pglite', dataDir, pglite });
      await fillShop(database.db);
      shop = await shopOf(database.db);
      await database.close();
      source = { kind: 'pglite', dataDir };
      newTarget = async () => {
        const restored = join(await tempDir('candlewise-restored-'), 'data');
        return { target: { kind: 'pglite', dataDir: restored }, open: () => openDatabase({ kind: 'pglite', dataDir: restored }) };
      };
    }
    const dir = await tempDir('candlewise-backups-');
    ({ file } = await backup(source, { dir, keep: 3 }));
    expect(file.startsWith(join(dir, 'candlewise-'))).toBe(true);
  });

  it('restores into an empty database a shop with every member, order and grant', async () => {
    expect(shop.members).toHaveLength(5);
    const empty = await newTarget();
    await restore(empty.target, file);
    const restored = await empty.open();
    try {
      expect(await shopOf(restored.db)).toEqual(shop);
    } finally {
      await restored.close();
    }
  });

  it('refuses to restore into a database that holds a shop, and leaves it as it was', async () => {
    const refused = restore(source, file);
    await expect(refused).rejects.toThrow(BackupRefused);
    await expect(refused).rejects.toThrow(target.kind === 'postgres' ? /holds \d+ tables already/ : /holds a shop/);
    const after = await openDatabase(source.kind === 'postgres' ? source : { kind: 'pglite', dataDir: source.dataDir });
    try {
      expect(await shopOf(after.db)).toEqual(shop);
    } finally {
      await after.close();
    }
    const again = await newTarget();
    await expect(restore(again.target, `${file}.missing`)).rejects.toThrow(/no backup file/);
  });

  it('names each backup by its time and keeps the newest N', async () => {
    const dir = await tempDir('candlewise-backups-');
    // another file in the folder is left alone
    await writeFile(join(dir, 'notes.txt'), 'mine');
    const at = (day: number) => new Date(Date.UTC(2026, 0, day, 3, 0, 0));
    await backup(source, { dir, keep: 1, now: at(1) });
    const { deleted } = await backup(source, { dir, keep: 1, now: at(2) });
    const kept = await backupsIn(dir, source.kind);
    expect(deleted.map((path) => path.slice(dir.length + 1))).toEqual([`candlewise-${backupStamp(at(1))}${kept[0]!.slice(`candlewise-${backupStamp(at(2))}`.length)}`]);
    expect(kept).toHaveLength(1);
    expect(kept[0]!.startsWith(`candlewise-${backupStamp(at(2))}.`)).toBe(true);
    expect(backupStamp(at(2))).toBe('20260102T030000Z');
    expect((await readdir(dir)).sort()).toEqual([...kept, 'notes.txt'].sort());
  });
});
