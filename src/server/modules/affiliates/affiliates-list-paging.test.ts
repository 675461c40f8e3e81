// The console's affiliates list at the size of a real program (issue 45): a page of 50 at a time,
// oldest first, counts over every affiliate, a page number that is not one refused with a 400,
// and the command line still printing every affiliate.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AFFILIATES_PAGE_SIZE, type AffiliateList } from '@shared/affiliates-contract';
import { runAffiliatesCommand } from '../../admin-cli/affiliates-command';
import { affiliates, user } from '../../db/schema';
import { consoleSuite, type ConsoleSuite } from '../../test-support/admin-test-kit';

let suite: ConsoleSuite;
consoleSuite((value) => (suite = value));

const MANY = 1_030;
const code = (index: number) => `SCALE${String(index).padStart(4, '0')}`;

/** MANY affiliates, the first made first; every hundredth suspended. */
async function seedAffiliates() {
  const db = suite.t.deps.database.db;
  const start = Date.parse('2026-01-01T00:00:00Z');
  const rows = Array.from({ length: MANY }, (_, index) => ({ id: randomUUID(), index }));
  // in batches: one statement's parameters stay well under Postgres's limit
  for (let from = 0; from < rows.length; from += 250) {
    const batch = rows.slice(from, from + 250);
    await db.insert(user).values(batch.map(({ id, index }) => ({ id, name: 'affiliate', email: `${code(index).toLowerCase()}@example.com` })));
    await db.insert(affiliates).values(
      batch.map(({ id, index }) => ({ userId: id, email: `${code(index).toLowerCase()}@example.com`, code: code(index), status: index % 100 === 0 ? ('suspended' as const) : ('active' as const), joinedBy: 'seed', createdAt: new Date(start + index * 60_000) })),
    );
  }
}

const list = async (query: string) => {
  const response = await suite.t.request(`/api/admin/affiliates${query}`, { cookie: suite.operator });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as AffiliateList;
};

describe('the affiliates list in pages (#45)', () => {
  it('walks 1,030 affiliates in pages of 50, oldest first, each once, with counts over all of them', async () => {
    await seedAffiliates();
    const first = await list('');
    expect(first).toMatchObject({ page: 1, pageSize: AFFILIATES_PAGE_SIZE, totals: { affiliates: MANY, suspended: 11, flagged: 0 } });
    expect(first.affiliates.map((item) => item.code).slice(0, 2)).toEqual([code(0), code(1)]);

    const seen: string[] = [];
    const pages = Math.ceil(MANY / AFFILIATES_PAGE_SIZE);
    for (let page = 1; page <= pages; page += 1) seen.push(...(await list(`?page=${page}`)).affiliates.map((item) => item.code));
    expect(seen).toEqual(Array.from({ length: MANY }, (_, index) => code(index)));
    expect((await list(`?page=${pages}`)).affiliates).toHaveLength(MANY % AFFILIATES_PAGE_SIZE);
    expect((await list(`?page=${pages + 1}`)).affiliates).toEqual([]);
  });

  it('pages a search too, counting only what matches', async () => {
    // SCALE10xx: 1000 to 1029
    const found = await list('?q=scale10&page=1');
    expect(found.totals).toMatchObject({ affiliates: 30, suspended: 1 });
    expect(found.affiliates.map((item) => item.code)).toEqual(Array.from({ length: 30 }, (_, index) => code(1000 + index)));
  });

  it.each(['0', '-1', 'abc', '1.5', '10001', ''])('refuses page=%j with a 400 that says why', async (page) => {
    const response = await suite.t.request(`/api/admin/affiliates?page=${page}`, { cookie: suite.operator });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/^The page is /);
  });

  it('prints every affiliate on the command line, not one page', async () => {
    const { output, exitCode } = await runAffiliatesCommand(suite.t.services.affiliates, 'cli', ['list', 'scale']);
    expect(exitCode).toBe(0);
    expect(output.match(/SCALE\d{4}/g)?.filter((found, index, all) => all.indexOf(found) === index)).toHaveLength(MANY);
  });
});
