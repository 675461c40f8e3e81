// The grant queue's "latest settled" list: granted and revoked rows merged newest first, the
// open ones left out, no more than asked for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { tradingviewGrants, user } from '../../db/schema';
import { createTestDatabase } from '../../test-support/test-database';
import { recentlySettledGrants } from './tradingview-console.repository';

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  const [owner] = await database.db.insert(user).values({ email: 'settled@example.com', name: 'settled' }).returning({ id: user.id });
  const at = (minute: number) => new Date(Date.UTC(2026, 5, 15, 12, minute));
  const rows: [string, string, number][] = [
    ['granted_old', 'granted', 1],
    ['revoked_newest', 'revoked', 9],
    ['pending_newer', 'pending', 8],
    ['granted_new', 'granted', 7],
    ['revoked_mid', 'revoked', 5],
    ['failed_new', 'failed', 6],
  ];
  await database.db.insert(tradingviewGrants).values(rows.map(([username, status, minute]) => ({ userId: owner!.id, username, status, updatedAt: at(minute) })));
});

afterAll(async () => {
  await database.close();
});

describe('recently settled grants', () => {
  it('lists granted and revoked rows together, newest first, up to the limit', async () => {
    expect((await recentlySettledGrants(database.db, 3)).map((row) => [row.username, row.email])).toEqual([
      ['revoked_newest', 'settled@example.com'],
      ['granted_new', 'settled@example.com'],
      ['revoked_mid', 'settled@example.com'],
    ]);
    expect((await recentlySettledGrants(database.db, 10)).map((row) => row.username)).toEqual(['revoked_newest', 'granted_new', 'revoked_mid', 'granted_old']);
  });
});
