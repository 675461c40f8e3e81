import { createMiddleware } from 'hono/factory';
import type { Config } from '../../config';
import { ApiError } from '../../http/errors';
import type { AuthVariables, SessionUser } from './session.middleware';

/**
 * The one answer to "is this session an operator": today an e-mail listed in ADMIN_EMAILS. Async
 * because operators will also be kept in the database (the operator console); every check goes
 * through here, never through config.adminEmails directly.
 */
export async function isOperator(config: Pick<Config, 'adminEmails'>, user: SessionUser | null): Promise<boolean> {
  return user !== null && config.adminEmails.includes(user.email.toLowerCase());
}

/**
 * Lets operators through, and everyone else only while `openToAll()` holds; otherwise 401 for
 * visitors and 403 for members. Runs after loadSession.
 */
export function requireOperator(config: Pick<Config, 'adminEmails'>, openToAll: () => boolean = () => false) {
  return createMiddleware<{ Variables: AuthVariables }>(async (c, next) => {
    if (openToAll()) return next();
    const user = c.get('user');
    if (!user) throw new ApiError(401, 'unauthorized', 'Please sign in as an operator to continue.');
    if (!(await isOperator(config, user))) throw new ApiError(403, 'forbidden', 'Only operators may open this page.');
    return next();
  });
}
