import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { PlanType } from '@shared/plans';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './client';
import { migrate } from './migrate';
import { queryRows } from './query';
import { createTestDatabase } from '../test-support/test-database';
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

  it('is false for a user without any subscription', async () => {
    const [member] = await database.db.insert(user).values({ name: 'Nobody', email: 'nobody@example.com' }).returning();
    expect(await hasAccess(member!.id)).toBe(false);
  });
});
