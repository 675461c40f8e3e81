import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { signUp } from '../test-support/billing-test-kit';
import { createTestApp, type TestApp } from '../test-support/test-app';
import { createTestDatabase } from '../test-support/test-database';
import { MOVE_USAGE, runMoveCommand } from './move-command';

const EMBEDDED = { database: { kind: 'pglite' as const, dataDir: '/var/lib/shop' } };
const URL_WITH_PASSWORD = 'postgres://shop:s3cret@db.internal:5432/shop';

describe('npm run move-to-postgres', () => {
  let shop: TestApp;
  const opened: Database[] = [];
  const openTarget = async () => {
    const database = await createTestDatabase();
    opened.push(database);
    return database;
  };
  beforeAll(async () => {
    shop = await createTestApp();
    await signUp(shop, 'moving@example.com');
  });
  afterAll(async () => {
    await shop.close();
  });

  const run = (args: string[], config = EMBEDDED, lines: string[] = []) =>
    runMoveCommand({ config, source: shop.deps.database, openTarget, print: (line) => lines.push(line) }, args);

  it('copies the shop, says what it copied, and never prints the password', async () => {
    const lines: string[] = [];
    const result = await run([URL_WITH_PASSWORD], EMBEDDED, lines);
    expect(result.exitCode).toBe(0);
    expect(result.output).toMatch(/^Done: \d+ tables, \d+ rows\. Start the server with DATABASE_URL=postgres:\/\/shop:\*\*\*@db\.internal:5432\/shop /);
    expect(lines[0]).toBe('Copying the shop into postgres://shop:***@db.internal:5432/shop …');
    expect(lines).toContain('  user: 1 rows');
    expect([result.output, ...lines].join('\n')).not.toContain('s3cret');
    // the target was closed after the copy (a closed database refuses queries)
    await expect(opened.at(-1)!.db.execute('SELECT 1')).rejects.toThrow();
  });

  it('refuses a target that already holds a shop with exit code 1', async () => {
    const busy = await createTestDatabase();
    const runningShop = await createTestApp({}, { database: busy });
    await signUp(runningShop, 'already-there@example.com');
    const result = await runMoveCommand({ config: EMBEDDED, source: shop.deps.database, openTarget: async () => ({ ...busy, close: async () => undefined }), print: () => undefined }, [URL_WITH_PASSWORD]);
    expect(result).toEqual({ exitCode: 1, output: 'The target database already holds a shop (its "user" table has rows): give an empty database.' });
    // the running shop's database is its own to close
    await runningShop.close();
  });

  it('says there is nothing to move when the shop already runs on Postgres', async () => {
    const result = await run([URL_WITH_PASSWORD], { database: { kind: 'postgres' as const, url: URL_WITH_PASSWORD } } as never);
    expect(result).toEqual({ exitCode: 2, output: 'This shop already runs on Postgres (DATABASE_URL is set): there is nothing to move.' });
  });

  it.each([[[]], [['not a url']], [['mysql://db/shop']], [[URL_WITH_PASSWORD, 'extra']]])('prints the usage for %j', async (args) => {
    expect(await run(args)).toEqual({ exitCode: 2, output: MOVE_USAGE });
  });
});
