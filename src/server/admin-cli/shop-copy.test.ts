import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryRows } from '../db/query';
import { buy, signUp } from '../test-support/billing-test-kit';
import { cookieFrom, createTestApp, type TestApp } from '../test-support/test-app';
import { createTestDatabase } from '../test-support/test-database';
import { copyShop, ShopCopyRefused } from './shop-copy';

const PASSWORD = 'Sup3rSecret!';

/** Every table's rows as one comparable text: count and a digest of the rows in a fixed order. */
async function contentsOf(db: Db): Promise<Record<string, string>> {
  const tables = await queryRows<{ name: string }>(
    db,
    sql`SELECT relname AS name FROM pg_class WHERE relkind = 'r' AND relnamespace = current_schema()::regnamespace AND relname <> 'schema_migrations' ORDER BY relname`,
  );
  const contents: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = await queryRows<{ rows: number; digest: string }>(
      db,
      sql`SELECT count(*)::int AS rows, md5(coalesce(string_agg(to_jsonb(t)::text, '|' ORDER BY to_jsonb(t)::text), '')) AS digest FROM ${sql.identifier(name)} t`,
    );
    contents[name] = `${row!.rows} ${row!.digest}`;
  }
  return contents;
}

async function signIn(t: TestApp, email: string): Promise<string> {
  const response = await t.request('/api/auth/sign-in/email', { body: { email, password: PASSWORD } });
  expect(response.status).toBe(200);
  return cookieFrom(response);
}

async function hasAccess(t: TestApp, cookie: string): Promise<boolean> {
  return ((await (await t.request('/api/access', { cookie })).json()) as { hasAccess: boolean }).hasAccess;
}

describe('moving a shop to another database', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it('copies every row, and the moved shop signs its members in with their access and takes new purchases', async () => {
    const source = await createTestApp();
    const member = 'moving-member@example.com';
    await buy(source, member, { planType: 'monthly' }, await signUp(source, member, PASSWORD));
    expect(await hasAccess(source, await signIn(source, member))).toBe(true);

    const target = await createTestDatabase();
    const heard: string[] = [];
    const copied = await copyShop(source.deps.database.db, target.db, ({ table }) => heard.push(table));

    const before = await contentsOf(source.deps.database.db);
    expect(await contentsOf(target.db)).toEqual(before);
    expect(copied.map(({ table }) => table).sort()).toEqual(Object.keys(before).sort());
    expect(heard).toEqual(copied.map(({ table }) => table));
    expect(copied.find(({ table }) => table === 'user')?.rows).toBe(1);
    expect(copied.find(({ table }) => table === 'orders')?.rows).toBeGreaterThan(0);
    await source.close();

    const moved = await createTestApp({}, { database: target });
    apps.push(moved);
    expect(await hasAccess(moved, await signIn(moved, member))).toBe(true);
    // ids from the sequences do not collide with the copied rows'
    const next = 'after-the-move@example.com';
    await buy(moved, next, { planType: 'monthly' }, await signUp(moved, next, PASSWORD));
    expect(await hasAccess(moved, await signIn(moved, next))).toBe(true);
  });

  it('refuses a target that already holds a shop, and changes nothing in it', async () => {
    const running = await createTestApp();
    apps.push(running);
    await signUp(running, 'already-here@example.com', PASSWORD);
    const other = await createTestApp();
    apps.push(other);
    await signUp(other, 'would-be-mixed@example.com', PASSWORD);

    const before = await contentsOf(running.deps.database.db);
    await expect(copyShop(other.deps.database.db, running.deps.database.db)).rejects.toThrow(
      new ShopCopyRefused('The target database already holds a shop (its "user" table has rows): give an empty database.'),
    );
    expect(await contentsOf(running.deps.database.db)).toEqual(before);
  });
});
