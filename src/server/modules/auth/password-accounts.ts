// Accounts made or taken over by the server itself (after payment, by an operator invitation),
// with better-auth's own adapter and hashing, so that they sign in like any other.
import type { Logger } from '../../logger';
import type { Auth } from './auth';
import { rememberFreshPassword } from './fresh-passwords';

// Postgres unique_violation, as pg and PGlite report it (possibly wrapped by drizzle or better-auth)
export function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth += 1) {
    if (typeof current === 'object' && (current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * A new account for `email` with `password` (works while public sign-up is disabled). Throws
 * better-auth's unique violation when the e-mail is taken meanwhile (see isUniqueViolation).
 */
export async function createPasswordAccount(auth: Auth, logger: Logger, input: { email: string; password: string; emailVerified: boolean }): Promise<string> {
  const context = await auth.$context;
  const hash = await context.password.hash(input.password);
  const created = await context.internalAdapter.createUser(
    { email: input.email, name: input.email.split('@')[0] ?? input.email, emailVerified: input.emailVerified },
    { method: 'email-password' },
  );
  if (!created) throw new Error('better-auth created no user');
  try {
    await context.internalAdapter.linkAccount({ userId: created.id, providerId: 'credential', accountId: created.id, password: hash });
    // verify-payment signs the buyer in next: that check need not hash the password again
    rememberFreshPassword(hash, input.password);
  } catch (error) {
    // An account without a password could never be used: remove it so the person can try again.
    await context.internalAdapter.deleteUser(created.id).catch((cleanup: unknown) => logger.error({ err: cleanup, userId: created.id }, 'could not remove a half-created account'));
    throw error;
  }
  return created.id;
}

/**
 * The account of `email` now belongs to whoever proved it: a new password, the address proven,
 * every other session ended. An account that had not proven its address was possibly made by a
 * stranger, so its second factor goes too (the stranger's authenticator must not lock the owner out).
 */
export async function takeOverAccount(auth: Auth, input: { userId: string; password: string; wasVerified: boolean; hasPassword: boolean }): Promise<void> {
  const context = await auth.$context;
  const hash = await context.password.hash(input.password);
  if (input.hasPassword) await context.internalAdapter.updatePassword(input.userId, hash);
  else await context.internalAdapter.linkAccount({ userId: input.userId, providerId: 'credential', accountId: input.userId, password: hash });
  await context.internalAdapter.deleteUserSessions(input.userId);
  if (!input.wasVerified) await context.adapter.deleteMany({ model: 'twoFactor', where: [{ field: 'userId', value: input.userId }] });
  await context.internalAdapter.updateUser(input.userId, input.wasVerified ? { emailVerified: true } : { emailVerified: true, twoFactorEnabled: false });
}
