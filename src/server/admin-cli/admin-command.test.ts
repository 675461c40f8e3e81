import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { operatorAuditLog, operatorInvitations } from '../db/schema';
import { isNamedOperator } from '../modules/auth/operator';
import { createTestDatabase } from '../test-support/test-database';
import { ADMIN_USAGE, CLI_OPERATOR, runAdminCommand } from './admin-command';

let database: Database;
const config = { adminEmails: ['env-operator@example.com'], publicUrl: 'https://shop.example.com' };
const now = new Date('2026-11-24T12:00:00Z');
const run = (...args: string[]) => runAdminCommand({ db: database.db, config, clock: () => now }, args);
const named = (email: string) => isNamedOperator({ config, db: database.db }, email);
const INVITATION_LINE = /^To open the console, they set their password with this one-time link \(valid 24 h\):\nhttps:\/\/shop\.example\.com\/operator-invitation\?token=[\w-]{43}$/;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

describe('npm run admin', () => {
  it('names an operator and prints a one-time invitation link valid 24 h, each time it is run', async () => {
    expect(await named('new-op@example.com')).toBe(false);
    const first = await run('add', ' New-Op@Example.com ');
    expect(first.exitCode).toBe(0);
    const [line, ...invitation] = first.output.split(' To open');
    expect(line).toBe('new-op@example.com is now an operator.');
    expect(`To open${invitation.join(' To open')}`).toMatch(INVITATION_LINE);
    expect(await named('NEW-OP@example.com')).toBe(true);

    const again = await run('add', 'new-op@example.com');
    expect(again.output.startsWith('new-op@example.com was already an operator. To open')).toBe(true);
    const rows = await database.db.select().from(operatorInvitations);
    expect(rows.map((row) => [row.email, row.invitedBy, row.expiresAt.getTime() - now.getTime(), row.usedAt])).toEqual([
      ['new-op@example.com', CLI_OPERATOR, 24 * 3_600_000, null],
      ['new-op@example.com', CLI_OPERATOR, 24 * 3_600_000, null],
    ]);
    // only the token's hash is kept: the printed link is the one copy
    const token = /token=([\w-]+)/.exec(again.output)![1]!;
    expect(rows.some((row) => row.tokenHash === token)).toBe(false);
  });

  it('lists ADMIN_EMAILS and the stored operators', async () => {
    const { output, exitCode } = await run('list');
    expect(exitCode).toBe(0);
    expect(output.split('\n')).toEqual(['env-operator@example.com  (ADMIN_EMAILS)', expect.stringMatching(/^new-op@example\.com {2}\(added \d{4}-\d{2}-\d{2} by command-line\)$/)]);
  });

  it('removes a stored operator; one named by ADMIN_EMAILS stays one', async () => {
    expect(await run('remove', 'new-op@example.com')).toEqual({ output: 'new-op@example.com is no longer a stored operator.', exitCode: 0 });
    expect(await named('new-op@example.com')).toBe(false);
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
