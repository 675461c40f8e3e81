// Becoming an operator takes proof, not a name: `npm run admin -- add` prints a one-time link
// (proof of control of the server), an operator's invitation from the console mails it (proof
// of the mailbox). Whoever opens it sets the account's password, which proves the address.
import { createHash, randomBytes } from 'node:crypto';
import { OPERATOR_INVITATION_HOURS } from '@shared/operator-standing';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { serverError } from '../../http/server-errors';
import type { Logger } from '../../logger';
import type { Mailer } from '../mail/mailer';
import type { Auth } from './auth';
import { findUsableInvitation, insertInvitation, useInvitation } from './operator-invitations.repository';
import { addOperator } from './operators.repository';
import { createPasswordAccount, isUniqueViolation, takeOverAccount } from './password-accounts';

export type OperatorInvitationsDeps = {
  db: Db;
  auth: Auth;
  config: Pick<Config, 'publicUrl' | 'adminEmails'>;
  clock: () => Date;
  logger: Logger;
  mailer: Pick<Mailer, 'sendSoon'>;
};

const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');
/** Anything else is not a token we made: not worth a query. */
const looksLikeToken = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

/**
 * Names `email` an operator (beside ADMIN_EMAILS) and makes a one-time link valid
 * OPERATOR_INVITATION_HOURS. `newlyNamed` is false when it already was one.
 */
export async function inviteOperator(
  deps: { db: Db; config: Pick<Config, 'publicUrl' | 'adminEmails'>; clock: () => Date },
  input: { email: string; invitedBy: string },
): Promise<{ email: string; url: string; expiresAt: Date; newlyNamed: boolean }> {
  const email = input.email.trim().toLowerCase();
  const newlyNamed = !deps.config.adminEmails.includes(email) && (await addOperator(deps.db, email, input.invitedBy));
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(deps.clock().getTime() + OPERATOR_INVITATION_HOURS * 3_600_000);
  await insertInvitation(deps.db, { email, tokenHash: hashOf(token), invitedBy: input.invitedBy, expiresAt });
  return { email, url: `${deps.config.publicUrl}/operator-invitation?token=${token}`, expiresAt, newlyNamed };
}

export function createOperatorInvitations(deps: OperatorInvitationsDeps) {
  const { db, auth, config, clock, logger } = deps;

  async function accountOf(email: string) {
    const context = await auth.$context;
    return context.internalAdapter.findUserByEmail(email, { includeAccounts: true });
  }

  /**
   * The account of `email`, made now or taken over, with this password and a proven address;
   * whether it keeps a second factor (only an account that had proven its address does).
   */
  async function giveAccount(email: string, password: string): Promise<boolean> {
    const existing = await accountOf(email);
    if (!existing) {
      try {
        await createPasswordAccount(auth, logger, { email, password, emailVerified: true });
        return false;
      } catch (error) {
        // someone signed up with the address meanwhile: the invitation's holder takes it over
        if (!isUniqueViolation(error)) throw error;
        return giveAccount(email, password);
      }
    }
    const wasVerified = existing.user.emailVerified;
    await takeOverAccount(auth, {
      userId: existing.user.id,
      password,
      wasVerified,
      hasPassword: existing.accounts.some((account) => account.providerId === 'credential'),
    });
    return wasVerified && (existing.user as { twoFactorEnabled?: boolean | null }).twoFactorEnabled === true;
  }

  /** Signs the account in through better-auth unless it has a second factor (the sign-in page asks for it then). */
  async function signIn(email: string, password: string, twoFactorEnabled: boolean, headers: Headers): Promise<string[]> {
    if (twoFactorEnabled) return [];
    try {
      const result = await auth.api.signInEmail({ body: { email, password }, headers, returnHeaders: true });
      return result.headers.getSetCookie();
    } catch (error) {
      logger.warn({ err: error }, 'sign-in after accepting an operator invitation failed');
      return [];
    }
  }

  return {
    /** An operator's invitation from the console: the link goes to the invited mailbox. */
    async invite(input: { email: string; invitedBy: string }): Promise<{ url: string; expiresAt: Date }> {
      const invitation = await inviteOperator({ db, config, clock }, input);
      await deps.mailer.sendSoon({ template: 'operator_invitation', to: invitation.email, data: { url: invitation.url, invitedBy: input.invitedBy }, dedupeKey: null });
      return invitation;
    },

    /** What the invitation page shows: whose invitation it is and whether that account exists. */
    async describe(token: string): Promise<{ email: string; accountExists: boolean; expiresAt: Date }> {
      const invitation = looksLikeToken(token) ? await findUsableInvitation(db, hashOf(token), clock()) : null;
      if (!invitation) throw serverError('invitationUnusable');
      return { email: invitation.email, accountExists: (await accountOf(invitation.email)) !== null, expiresAt: invitation.expiresAt };
    },

    /**
     * Uses the invitation once: the account of its e-mail (made now, or taken over) gets this
     * password and a proven address, and is signed in.
     */
    async accept(input: { token: string; password: string }, headers: Headers): Promise<{ email: string; signedIn: boolean; setCookies: string[] }> {
      const invitation = looksLikeToken(input.token) ? await useInvitation(db, hashOf(input.token), clock()) : null;
      if (!invitation) throw serverError('invitationUnusable');
      const { email } = invitation;
      const twoFactorEnabled = await giveAccount(email, input.password);
      logger.info({ email, invitedBy: invitation.invitedBy }, 'operator invitation accepted');
      const setCookies = await signIn(email, input.password, twoFactorEnabled, headers);
      return { email, signedIn: setCookies.length > 0, setCookies };
    },
  };
}

export type OperatorInvitations = ReturnType<typeof createOperatorInvitations>;
