import { createMiddleware } from 'hono/factory';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { isStoredOperator } from './operators.repository';
import type { AuthVariables, SessionUser } from './session.middleware';
import { serverError } from '../../http/server-errors';

/** What deciding "operator or not" reads: ADMIN_EMAILS and the operators table. */
export type OperatorDirectory = { config: Pick<Config, 'adminEmails'>; db: Db };

/**
 * The one answer to "is this session an operator": an e-mail listed in ADMIN_EMAILS or stored in
 * the operators table (`npm run admin -- add`). Every check goes through here, never through
 * config.adminEmails directly.
 */
export async function isOperator(directory: OperatorDirectory, user: SessionUser | null): Promise<boolean> {
  if (user === null) return false;
  return directory.config.adminEmails.includes(user.email.toLowerCase()) || (await isStoredOperator(directory.db, user.email));
}

/**
 * Lets operators through, and everyone else only while `openToAll()` holds; otherwise 401 for
 * visitors and 403 for members. Runs after loadSession.
 */
export function requireOperator(directory: OperatorDirectory, openToAll: () => boolean = () => false) {
  return createMiddleware<{ Variables: AuthVariables }>(async (c, next) => {
    if (openToAll()) return next();
    const user = c.get('user');
    if (!user) throw serverError('operatorSignInRequired');
    if (!(await isOperator(directory, user))) throw serverError('operatorOnly');
    return next();
  });
}
