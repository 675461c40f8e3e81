// `npm run admin -- add|remove|list`: operators kept in the database, beside ADMIN_EMAILS.
import { z } from 'zod';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { recordOperatorAction } from '../modules/admin/audit.repository';
import { addOperator, listOperators, removeOperator } from '../modules/auth/operators.repository';

export const ADMIN_USAGE = 'usage: npm run admin -- add <email> | remove <email> | list';

/** Who the audit log names for changes made on the command line. */
export const CLI_OPERATOR = 'command-line';

export type CommandResult = { output: string; exitCode: number };

const emailSchema = z.email();

export async function runAdminCommand(deps: { db: Db; config: Pick<Config, 'adminEmails'> }, args: readonly string[]): Promise<CommandResult> {
  const [command, email, ...rest] = args;
  if (command === 'list' && email === undefined) {
    const stored = await listOperators(deps.db);
    const lines = [
      ...deps.config.adminEmails.map((address) => `${address}  (ADMIN_EMAILS)`),
      ...stored.map((row) => `${row.email}  (added ${row.createdAt.toISOString().slice(0, 10)} by ${row.addedBy})`),
    ];
    return { output: lines.length ? lines.join('\n') : 'No operators: set ADMIN_EMAILS or run npm run admin -- add <email>.', exitCode: 0 };
  }
  if ((command !== 'add' && command !== 'remove') || email === undefined || rest.length > 0) return { output: ADMIN_USAGE, exitCode: 2 };
  const parsed = emailSchema.safeParse(email.trim());
  if (!parsed.success) return { output: `Not an e-mail address: ${email}`, exitCode: 2 };
  const address = parsed.data.toLowerCase();

  if (command === 'add') {
    const added = await addOperator(deps.db, address, CLI_OPERATOR);
    if (added) await recordOperatorAction(deps.db, { operator: CLI_OPERATOR, action: 'add_operator', details: { email: address } });
    return { output: added ? `${address} is now an operator.` : `${address} was already an operator.`, exitCode: 0 };
  }
  const removed = await removeOperator(deps.db, address);
  if (removed) await recordOperatorAction(deps.db, { operator: CLI_OPERATOR, action: 'remove_operator', details: { email: address } });
  const named = deps.config.adminEmails.includes(address) ? ' It stays an operator while ADMIN_EMAILS names it.' : '';
  return { output: (removed ? `${address} is no longer a stored operator.` : `${address} was not a stored operator.`) + named, exitCode: removed ? 0 : 1 };
}
