// Who a request comes from, as every route reads it: the auth module's loadSession puts it on the
// context; routes of every module read it through requireUser and requireMember.
import { serverError } from './server-errors';

export type SessionUser = {
  id: string;
  email: string;
  name: string;
  createdAt: Date;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
  /** This session's sign-in: when, and whether it passed a second factor (operators, modules/auth/operator.ts). */
  signIn: { at: Date; passedTwoFactor: boolean };
};
export type AuthVariables = {
  user: SessionUser | null;
  /** The SQL access rule (user_has_premium_access) for this user, read with the session. */
  hasAccess: boolean;
};

/** The signed-in user, or a 401 in the API's error shape. */
export function requireUser(c: { get: (key: 'user') => SessionUser | null }): SessionUser {
  const user = c.get('user');
  if (!user) throw serverError('signInRequired');
  return user;
}

/** The signed-in member with access: 401 without a session, 403 without access. */
export function requireMember(c: { get: <K extends keyof AuthVariables>(key: K) => AuthVariables[K] }): SessionUser {
  const user = requireUser(c);
  if (!c.get('hasAccess')) throw serverError('accessRequired');
  return user;
}
