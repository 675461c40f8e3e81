import { createMiddleware } from 'hono/factory';
import { operatorStanding, type OperatorStanding } from '@shared/operator-standing';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { isStoredOperator } from './operators.repository';
import type { AuthVariables, SessionUser } from '../../http/session-user';
import { serverError } from '../../http/server-errors';

/** What deciding "operator or not" reads: ADMIN_EMAILS, the operators table, the two-factor rule and the time. */
export type OperatorDirectory = { config: Pick<Config, 'adminEmails' | 'operatorRequireTwoFactor'>; db: Db; clock: () => Date };

/** Whether ADMIN_EMAILS or the operators table names this address (naming alone grants nothing). */
export async function isNamedOperator(directory: { config: Pick<Config, 'adminEmails'>; db: Db }, email: string): Promise<boolean> {
  return directory.config.adminEmails.includes(email.trim().toLowerCase()) || (await isStoredOperator(directory.db, email));
}

/**
 * The one answer to "what may this session do in the console" (src/shared/operator-standing.ts):
 * named, with a proven e-mail, and through a recent sign-in that passed two-factor where the
 * account has it or the shop requires it. Every check goes through here.
 */
export async function operatorStandingOf(directory: OperatorDirectory, user: SessionUser): Promise<OperatorStanding> {
  return operatorStanding({
    named: await isNamedOperator(directory, user.email),
    emailVerified: user.emailVerified,
    twoFactorRequired: directory.config.operatorRequireTwoFactor,
    twoFactorEnabled: user.twoFactorEnabled,
    signedInAt: user.signIn.at,
    signInPassedTwoFactor: user.signIn.passedTwoFactor,
    now: directory.clock(),
  });
}

export async function isOperator(directory: OperatorDirectory, user: SessionUser | null): Promise<boolean> {
  return user !== null && (await operatorStandingOf(directory, user)) === 'operator';
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
