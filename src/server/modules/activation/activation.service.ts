// After payment (the payment-success page by userStatus, verify-payment and
// activate-existing-subscription): turns a paid checkout session into a signed-in member with
// TradingView access. A paid session is claimed once, only by the account of the e-mail that
// paid (billing's claimCheckoutSession enforces both), and only by a caller who proves the
// purchase (the checkout's browser or the mailed link); the e-mail always comes from the session,
// never from the request.
import type { ActivateExistingSubscriptionResponse } from '@shared/api-contract';
import type { Logger } from '../../logger';
import type { Auth } from '../auth/auth';
import { createPasswordAccount, isUniqueViolation } from '../auth/password-accounts';
import type { SessionUser } from '../../http/session-user';
import type { BillingService } from '../billing/billing.service';
import { serverError } from '../../http/server-errors';

export type ActivationServiceDeps = {
  auth: Auth;
  logger: Logger;
  /** Billing: the paid session (fulfilled from the provider when its event has not arrived yet), accounts and claims. */
  billing: Pick<BillingService, 'loadPaidSession' | 'accountExists' | 'claimCheckoutSession'>;
  /** TradingView: checks the username exists, stores it on the member's subscriptions, schedules the grant. */
  setTradingViewUsername: (userId: string, username: string) => Promise<{ verifiedUsername: string }>;
  /** TradingView: recomputes what the member should hold (a claimed purchase extends access). */
  syncAccess: (userId: string) => Promise<void>;
  /** With confirmation required, a new account is not signed in until its address is confirmed. */
  requireEmailVerification: boolean;
};

export type VerifyPaymentResult = { email: string; signedIn: boolean; setCookies: string[] };

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export function createActivationService(deps: ActivationServiceDeps) {
  const { auth, logger, billing } = deps;

  /**
   * The id of the account of `email` when it is as verify-payment makes them (its address not
   * proven yet, no second factor) and `password` is its password; else null. An owner who has
   * proven the address, or added a second factor, signs in the ordinary way.
   */
  async function purchaseAccountWithPassword(email: string, password: string): Promise<string | null> {
    const context = await auth.$context;
    const found = await context.internalAdapter.findUserByEmail(email, { includeAccounts: true });
    const hash = found?.accounts.find((account) => account.providerId === 'credential')?.password;
    if (!found || !hash || found.user.emailVerified || (found.user as { twoFactorEnabled?: boolean | null }).twoFactorEnabled) return null;
    return (await context.password.verify({ hash, password })) ? found.user.id : null;
  }

  /**
   * The account that takes the purchase: a new one for `email` with `password` (works while public
   * sign-up is disabled; its address is not proven yet), or the one already there when `password`
   * is its password. That is the buyer's own retry: an earlier try made the account and died
   * before the claim (a restart mid-sale), or a second tab with the same password made it first.
   * Knowing the password and proving the purchase (the route's check) is what signing in and
   * linking it would take.
   */
  async function accountForPurchase(email: string, password: string): Promise<string> {
    if (!(await billing.accountExists(email))) {
      try {
        return await createPasswordAccount(auth, logger, { email, password, emailVerified: false });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
    }
    const existing = await purchaseAccountWithPassword(email, password);
    if (!existing) throw serverError('accountExistsForPurchase');
    return existing;
  }

  /** Signs the new account in through better-auth; the cookies go on our response. */
  async function signIn(email: string, password: string, headers: Headers): Promise<string[] | null> {
    if (deps.requireEmailVerification) return null;
    try {
      const result = await auth.api.signInEmail({ body: { email, password }, headers, returnHeaders: true });
      const cookies = result.headers.getSetCookie();
      return cookies.length > 0 ? cookies : null;
    } catch (error) {
      logger.warn({ err: error }, 'automatic sign-in after account creation failed');
      return null;
    }
  }

  return {
    /**
     * verify-payment: creates the account of the paid session's e-mail with the buyer's password,
     * links the purchase to it and signs the buyer in. Only while no account has that e-mail and
     * the session is unclaimed, or for the buyer's retry with the same password (idempotent: an
     * answer lost to a restart costs the buyer nothing).
     */
    async verifyPayment(input: { sessionId: string; password: string }, headers: Headers): Promise<VerifyPaymentResult> {
      const session = await billing.loadPaidSession(input.sessionId);
      if (!session.email) throw serverError('purchaseWithoutEmail');
      const email = session.email.trim().toLowerCase();
      if (session.claimedByUserId) {
        // claimed and then the answer lost: the claiming account's own password signs it in again
        if ((await purchaseAccountWithPassword(email, input.password)) !== session.claimedByUserId) throw serverError('sessionClaimed');
      } else {
        const userId = await accountForPurchase(email, input.password);
        const claim = await billing.claimCheckoutSession(session.id, userId);
        if (!claim.alreadyClaimed) logger.info({ userId, sessionId: session.id, planType: session.planType }, 'purchase claimed after payment');
      }

      const cookies = await signIn(email, input.password, headers);
      return { email, signedIn: cookies !== null, setCookies: cookies ?? [] };
    },

    /**
     * activate-existing-subscription: links a paid session to the signed-in owner of its e-mail
     * (idempotent for them) and, with a username, verifies and stores it and schedules the grant.
     * `proven`: the caller's browser started the checkout or carries the mailed link.
     */
    async activateExistingSubscription(
      user: SessionUser,
      input: { sessionId: string; tradingviewUsername?: string | undefined },
      proven: boolean,
    ): Promise<ActivateExistingSubscriptionResponse> {
      const session = await billing.loadPaidSession(input.sessionId);
      // A purchase already this account's is taken from no one: any of the account's browsers may
      // add the username (say, after confirming the e-mail on another device). Taking one is proven.
      if (!proven && session.claimedByUserId !== user.id) throw serverError('purchaseUnproven');
      if (!session.email) throw serverError('purchaseWithoutEmail');
      if (session.claimedByUserId && session.claimedByUserId !== user.id) throw serverError('sessionClaimed');
      if (!sameEmail(session.email, user.email)) throw serverError('emailMismatch');

      const claim = await billing.claimCheckoutSession(session.id, user.id);
      if (!claim.alreadyClaimed) logger.info({ userId: user.id, sessionId: session.id, planType: session.planType }, 'purchase linked to an existing account');

      if (input.tradingviewUsername) {
        await deps.setTradingViewUsername(user.id, input.tradingviewUsername);
      } else {
        // The claim copied the username on file onto the new purchase; the grant follows it.
        await deps.syncAccess(user.id);
      }
      return { success: true, signedIn: true };
    },
  };
}

export type ActivationService = ReturnType<typeof createActivationService>;
