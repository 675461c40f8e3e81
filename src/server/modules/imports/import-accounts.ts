// The accounts of imported buyers: made by the server with better-auth's own adapter and no
// password, which the buyer sets from the mailed link. The link is better-auth's own reset token
// (the same /reset-password page, which signs them in and proves the address), given longer to live
// because the buyer did not ask for it.
import { randomBytes } from 'node:crypto';
import { resetPasswordUrl, type Auth } from '../auth/auth';
import { isUniqueViolation } from '../auth/password-accounts';

export type ImportAccounts = {
  /** The account of `email`, found or made now without a password; `created` when made now. */
  findOrCreate(email: string): Promise<{ userId: string; created: boolean }>;
  /** The address of an existing account, or null. */
  find(email: string): Promise<string | null>;
  /** A link that sets the account's password, valid `days` days. */
  setPasswordUrl(userId: string, days: number): Promise<string>;
};

export function createImportAccounts(deps: { auth: Auth; publicUrl: string; clock: () => Date }): ImportAccounts {
  const { auth } = deps;

  async function find(email: string): Promise<string | null> {
    const context = await auth.$context;
    return (await context.internalAdapter.findUserByEmail(email))?.user.id ?? null;
  }

  async function findOrCreate(email: string): Promise<{ userId: string; created: boolean }> {
    const existing = await find(email);
    if (existing) return { userId: existing, created: false };
    const context = await auth.$context;
    try {
      const created = await context.internalAdapter.createUser({ email, name: email.split('@')[0] ?? email, emailVerified: false }, { method: 'import' });
      if (!created) throw new Error('better-auth created no user');
      return { userId: created.id, created: true };
    } catch (error) {
      // the buyer signed up at this moment: their account it is
      if (!isUniqueViolation(error)) throw error;
      return findOrCreate(email);
    }
  }

  async function setPasswordUrl(userId: string, days: number): Promise<string> {
    const context = await auth.$context;
    const token = randomBytes(24).toString('base64url');
    await context.internalAdapter.createVerificationValue({
      value: userId,
      // better-auth's own reset identifier: its reset endpoint consumes the token once
      identifier: `reset-password:${token}`,
      expiresAt: new Date(deps.clock().getTime() + days * 24 * 60 * 60_000),
    });
    return resetPasswordUrl(deps.publicUrl, token);
  }

  return { find, findOrCreate, setPasswordUrl };
}
