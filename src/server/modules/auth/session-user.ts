// Who a request comes from, as every route reads it (put on the context by loadSession).

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
