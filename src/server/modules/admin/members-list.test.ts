// The member list's standing filters are sets the database finds as a whole (decision 037): each
// must list exactly the members the list shows with that standing, and count them; and the
// member page's orders are the member's own and those of checkouts the member claimed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBER_STATUSES, type MemberStatus } from '@shared/admin-contract';
import type { Database, Db } from '../../db/client';
import { checkoutSessions, orders, user, userSubscriptions } from '../../db/schema';
import { createTestDatabase } from '../../test-support/test-database';
import { ordersOf, searchMembers } from './members.repository';

const NOW = new Date('2026-06-15T12:00:00Z');
const inDays = (days: number) => new Date(NOW.getTime() + days * 86_400_000);

type Row = { provider?: string; status?: string; isActive?: boolean; expiresAt?: Date | null; planType?: 'monthly' | 'lifetime' };

/** Each member's rows, named by the standing the list shows for them. */
const MEMBERS: Record<string, { standing: MemberStatus; rows: Row[] }> = {
  paying: { standing: 'active', rows: [{}] },
  lifetime: { standing: 'active', rows: [{ planType: 'lifetime', expiresAt: null }] },
  'failing renewal': { standing: 'past_due', rows: [{ status: 'past_due', expiresAt: inDays(2) }] },
  'failing renewal beside comp': { standing: 'past_due', rows: [{ provider: 'comp' }, { status: 'past_due', expiresAt: inDays(2) }] },
  'failing renewal, ended': { standing: 'churned', rows: [{ status: 'past_due', expiresAt: inDays(-2) }] },
  comped: { standing: 'comp', rows: [{ provider: 'comp' }] },
  'comped, paid before': { standing: 'comp', rows: [{ provider: 'comp' }, { status: 'canceled', isActive: false }] },
  'paying and comped': { standing: 'active', rows: [{ provider: 'comp' }, {}] },
  'failing renewal beside paying': { standing: 'past_due', rows: [{}, { status: 'past_due', expiresAt: inDays(2) }] },
  'paying twice': { standing: 'active', rows: [{}, { planType: 'lifetime', expiresAt: null }] },
  'lapsed, paying again': { standing: 'active', rows: [{ expiresAt: inDays(-30) }, {}] },
  'comp beside an ended failing renewal': { standing: 'comp', rows: [{ status: 'past_due', expiresAt: inDays(-2) }, { provider: 'comp' }] },
  'comp ended': { standing: 'churned', rows: [{ provider: 'comp', expiresAt: inDays(-1) }] },
  'failing renewal switched off': { standing: 'churned', rows: [{ status: 'past_due', isActive: false }] },
  lapsed: { standing: 'churned', rows: [{ expiresAt: inDays(-1) }] },
  refunded: { standing: 'churned', rows: [{ status: 'canceled', isActive: false }] },
  'never subscribed': { standing: 'none', rows: [] },
};

let database: Database;
const ids = new Map<string, string>();

async function addMember(db: Db, name: string, index: number, rows: Row[]): Promise<void> {
  const [created] = await db
    .insert(user)
    .values({ email: `${name.replace(/\W+/g, '-')}@example.com`, name, createdAt: inDays(-100 + index), updatedAt: NOW })
    .returning({ id: user.id });
  ids.set(name, created!.id);
  for (const [position, row] of rows.entries()) {
    await db.insert(userSubscriptions).values({
      userId: created!.id,
      planType: row.planType ?? 'monthly',
      provider: row.provider ?? 'sandbox',
      status: row.status ?? 'active',
      isActive: row.isActive ?? true,
      expiresAt: row.expiresAt === undefined ? inDays(20) : row.expiresAt,
      createdAt: inDays(-90 + index + position),
    });
  }
}

beforeAll(async () => {
  database = await createTestDatabase();
  for (const [index, [name, { rows }]] of Object.entries(MEMBERS).entries()) await addMember(database.db, name, index, rows);
  // a paid subscription no member has claimed yet gives no one a standing
  await database.db.insert(userSubscriptions).values({ userId: null, planType: 'monthly', provider: 'sandbox', status: 'past_due', expiresAt: inDays(20) });
});
afterAll(async () => {
  await database.close();
});

describe('the member list filtered by standing', () => {
  it.each(MEMBER_STATUSES.map((status) => [status]))('lists and counts exactly the members shown as %s', async (status) => {
    const expected = Object.entries(MEMBERS)
      .filter(([, member]) => member.standing === status)
      .map(([name]) => ids.get(name));
    const { rows, total } = await searchMembers(database.db, { page: 1, status }, 25, NOW);
    expect(rows.map((row) => row.id).sort()).toEqual(expected.sort());
    expect(rows.every((row) => row.status === status)).toBe(true);
    expect(total).toBe(expected.length);
  });

  it('pages a standing newest account first, with the total of every page', async () => {
    const first = await searchMembers(database.db, { page: 1, status: 'churned' }, 3, NOW);
    const second = await searchMembers(database.db, { page: 2, status: 'churned' }, 3, NOW);
    expect([...first.rows, ...second.rows].map((row) => row.id)).toEqual(
      ['refunded', 'lapsed', 'failing renewal switched off', 'comp ended', 'failing renewal, ended'].map((name) => ids.get(name)),
    );
    expect([first.total, second.total]).toEqual([5, 5]);
  });

  // a standing alone is counted from the subscription rows, within a search from the members found
  it.each(MEMBER_STATUSES.map((status) => [status]))('counts the %s members it lists across its pages, alone as within a search', async (status) => {
    const pages = async (query: { status: MemberStatus; q?: string }) => {
      const listed: { ids: string[]; totals: number[] } = { ids: [], totals: [] };
      for (let page = 1; ; page += 1) {
        const { rows, total } = await searchMembers(database.db, { ...query, page }, 2, NOW);
        if (rows.length === 0) return listed;
        listed.ids.push(...rows.map((row) => row.id));
        listed.totals.push(total);
      }
    };
    const alone = await pages({ status });
    expect(new Set(alone.ids).size).toBe(Object.values(MEMBERS).filter((member) => member.standing === status).length);
    expect(alone.totals.every((total) => total === alone.ids.length)).toBe(true);
    expect(await pages({ status, q: '@example.com' })).toEqual(alone);
  });

  it('combines the standing with a search', async () => {
    const { rows, total } = await searchMembers(database.db, { page: 1, status: 'comp', q: 'COMPED' }, 25, NOW);
    expect(rows.map((row) => row.id).sort()).toEqual([ids.get('comped'), ids.get('comped, paid before')].sort());
    expect(total).toBe(2);
  });
});

describe("the member page's orders", () => {
  it("are the member's own and those of checkouts the member claimed, newest first", async () => {
    const db = database.db;
    const member = ids.get('paying')!;
    const other = ids.get('lapsed')!;
    const session = async (id: string, claimedBy: string | null) =>
      db.insert(checkoutSessions).values({ id, provider: 'sandbox', planType: 'monthly', status: 'complete', paymentStatus: 'paid', claimedByUserId: claimedBy });
    const order = async (sessionId: string, userId: string | null, days: number) =>
      db.insert(orders).values({ userId, checkoutSessionId: sessionId, planType: 'monthly', amount: 3600, currency: 'usd', status: 'paid', createdAt: inDays(days) });
    await session('cs_own', null);
    await order('cs_own', member, -3);
    await session('cs_claimed', member);
    await order('cs_claimed', null, -1);
    await session('cs_other', other);
    await order('cs_other', other, -2);
    expect((await ordersOf(db, member)).map((row) => row.checkoutSessionId)).toEqual(['cs_claimed', 'cs_own']);
  });
});
