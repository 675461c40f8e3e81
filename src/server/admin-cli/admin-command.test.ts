import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { operatorAuditLog } from '../db/schema';
import { isOperator } from '../modules/auth/operator';
import { createTestDatabase } from '../test-support/test-database';
import { ADMIN_USAGE, CLI_OPERATOR, runAdminCommand } from './admin-command';

let database: Database;
const config = { adminEmails: ['env-operator@example.com'] };
const run = (...args: string[]) => runAdminCommand({ db: database.db, config }, args);
const person = (email: string) => ({ id: '00000000-0000-4000-8000-000000000001', email, name: 'x', createdAt: new Date(0) });

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

describe('npm run admin', () => {
  it('adds an operator, who is then an operator, and says so once', async () => {
    const directory = { config, db: database.db };
    expect(await isOperator(directory, person('new-op@example.com'))).toBe(false);
    expect(await run('add', ' New-Op@Example.com ')).toEqual({ output: 'new-op@example.com is now an operator.', exitCode: 0 });
    expect(await isOperator(directory, person('NEW-OP@example.com'))).toBe(true);
    expect(await run('add', 'new-op@example.com')).toEqual({ output: 'new-op@example.com was already an operator.', exitCode: 0 });
  });

  it('lists ADMIN_EMAILS and the stored operators', async () => {
    const { output, exitCode } = await run('list');
    expect(exitCode).toBe(0);
    expect(output.split('\n')).toEqual(['env-operator@example.com  (ADMIN_EMAILS)', expect.stringMatching(/^new-op@example\.com {2}\(added \d{4}-\d{2}-\d{2} by command-line\)$/)]);
  });

  it('removes a stored operator; one named by ADMIN_EMAILS stays one', async () => {
    expect(await run('remove', 'new-op@example.com')).toEqual({ output: 'new-op@example.com is no longer a stored operator.', exitCode: 0 });
    expect(await isOperator({ config, db: database.db }, person('new-op@example.com'))).toBe(false);
    expect(await run('remove', 'env-operator@example.com')).toEqual({
      output: 'env-operator@example.com was not a stored operator. It stays an operator while ADMIN_EMAILS names it.',
      exitCode: 1,
    });
  });

  it('writes adds and removes to the audit log', async () => {
    const entries = await database.db.select().from(operatorAuditLog);
    expect(entries.map((entry) => [entry.operatorEmail, entry.action, entry.details])).toEqual([
      [CLI_OPERATOR, 'add_operator', { email: 'new-op@example.com' }],
      [CLI_OPERATOR, 'remove_operator', { email: 'new-op@example.com' }],
    ]);
  });

  it.each([[[]], [['add']], [['grant', 'x@example.com']], [['add', 'a@example.com', 'b@example.com']], [['list', 'extra']]])('prints the usage for %j', async (args) => {
    expect(await run(...args)).toEqual({ output: ADMIN_USAGE, exitCode: 2 });
  });

  it('refuses what is not an e-mail address', async () => {
    expect(await run('add', 'not-an-email')).toEqual({ output: 'Not an e-mail address: not-an-email', exitCode: 2 });
  });
});
