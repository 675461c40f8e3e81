import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { eq } from 'drizzle-orm';
import { asyncContextOnlyDuringCalls } from './async-context';
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';
import { twoFactor as twoFactorPlugin } from 'better-auth/plugins/two-factor';
import { setSessionCookie } from 'better-auth/cookies';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@shared/validation';
import { SERVER_ERROR_MESSAGES } from '@shared/error-messages';
import { SIGN_IN_FAILURES_PER_ACCOUNT } from '@shared/throttle';
import { RESET_LINK_TTL_SECONDS } from '@shared/timing';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { account, rateLimit, session, twoFactor, user, verification } from '../../db/schema';
import { CLIENT_ADDRESS_HEADER, clientAddressOf } from '../../http/client-address';
import type { Logger } from '../../logger';
import type { MailIntent } from '@shared/mail-intents';
import type { Mailer } from '../mail/mailer';
import { findUserIdByEmail, recordRepeatedSecurityEvent } from '../security/security.repository';
import { clearThrottle, consumeThrottle } from '../throttle/throttle.repository';
import { isNamedOperator } from './operator';
import { recordOperatorSignIn } from './operators.repository';

export { RESET_LINK_TTL_SECONDS };

/** The endpoints whose sessions are made only after a second factor was checked. */
const SECOND_FACTOR_PATHS = new Set(['/two-factor/verify-totp', '/two-factor/verify-backup-code', '/two-factor/verify-otp']);

/** Where the reset e-mail points: our own page reads the token (docs/decisions/004). */
const resetPasswordUrl = (publicUrl: string, token: string) => `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`;

export type AuthDeps = { db: Db; config: Config; mailer: Pick<Mailer, 'sendSoon'>; logger: Logger; secret: string; clock: () => Date };

// The users whose password a request has just reset, so that the after-hook can sign them in.
// Keyed by the request object that better-auth hands to both `onPasswordReset` and the hook.
const passwordResetUsers = new WeakMap<Request, string>();

/** better-auth on our Postgres: e-mail + password, database sessions in httpOnly cookies. */
export function createAuth({ db, config, mailer, logger, secret, clock }: AuthDeps) {
  const brand = config.site.brandName;

  // Mails go through the outbox in the background: a request must answer in the same time whether
  // or not the address has an account (and so whether or not a mail goes out), and a slow SMTP
  // server must not hold the page. The worker retries a failed send.
  const sendInBackground = (intent: MailIntent) => {
    void mailer.sendSoon(intent).catch((error: unknown) => logger.error({ err: error, to: intent.to, template: intent.template }, 'could not queue a mail'));
  };

  type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

  const signInEmailOf = (ctx: HookContext) => (typeof ctx.body?.email === 'string' ? ctx.body.email.trim().toLowerCase() : null);
  const accountThrottleKey = (email: string) => `sign-in:${email}`;

  /**
   * Password attempts per account, whatever address they come from (src/shared/throttle.ts):
   * each attempt is counted before the password is checked, so that a burst cannot slip through,
   * and a correct password clears the count (after-hook). Refused attempts check nothing.
   */
  async function limitAttemptsPerAccount(ctx: HookContext) {
    const email = signInEmailOf(ctx);
    if (!email) return;
    const decision = await consumeThrottle(db, accountThrottleKey(email), SIGN_IN_FAILURES_PER_ACCOUNT, clock());
    if (!decision.allowed) {
      throw new APIError('TOO_MANY_REQUESTS', { code: 'TOO_MANY_REQUESTS', message: SERVER_ERROR_MESSAGES.rate_limited });
    }
  }

  async function clearAttemptsAfterSuccess(ctx: HookContext) {
    const email = signInEmailOf(ctx);
    if (email && !isAPIError(ctx.context.returned)) await clearThrottle(db, accountThrottleKey(email));
  }

  /**
   * A refused e-mail sign-in (wrong password or unknown e-mail: better-auth answers both with the
   * same 401) becomes an AUTH_FAILURE event, with the user id when the e-mail has an account.
   * Recorded here rather than around the HTTP route so that sign-ins made through auth.api (the
   * payment page's) count too. The answer to the caller is not touched.
   */
  async function recordFailedSignIn(ctx: HookContext) {
    const returned = ctx.context.returned;
    if (!isAPIError(returned) || returned.statusCode !== 401) return;
    const email = signInEmailOf(ctx);
    if (!email) return;
    const headers = ctx.request?.headers ?? ctx.headers;
    const ipAddress = headers ? clientAddressOf(headers) : null;
    try {
      const userId = await findUserIdByEmail(db, email);
      // folded into one row per 15 minutes: a stranger's guesses must not flood the member's log
      await recordRepeatedSecurityEvent(db, { userId, event: 'AUTH_FAILURE', details: { email }, ipAddress });
    } catch (error) {
      logger.warn({ err: error }, 'could not record a failed sign-in');
    }
  }

  /**
   * The reset page leads to /dashboard after 1 s, so the person who just proved they own the
   * mailbox is signed in here. The link
   * also proves the address, so it counts as confirmed.
   */
  async function signInAfterReset(ctx: HookContext) {
    if (!ctx.request) return;
    const userId = passwordResetUsers.get(ctx.request);
    if (!userId) return;
    passwordResetUsers.delete(ctx.request);
    const internal = ctx.context.internalAdapter;
    let resetUser = await internal.findUserById(userId);
    if (!resetUser) return;
    if (!resetUser.emailVerified) resetUser = (await internal.updateUser(userId, { emailVerified: true })) ?? resetUser;
    const newSession = await internal.createSession(userId);
    await setSessionCookie(ctx, { session: newSession, user: resetUser });
  }

  /**
   * Every sign-in of a named operator (whatever proved it: password, second factor, a mailed link)
   * is a line in the audit log, so that an operator sees each time their power was taken up, and
   * a stranger's attempt with a squatted address shows too.
   */
  async function auditOperatorSignIn(userId: string, passedTwoFactor: boolean, path: string | undefined, ipAddress: string | null | undefined) {
    try {
      const [row] = await db.select({ email: user.email, emailVerified: user.emailVerified, twoFactorEnabled: user.twoFactorEnabled }).from(user).where(eq(user.id, userId)).limit(1);
      if (!row || !(await isNamedOperator({ config, db }, row.email))) return;
      // the twoFactor plugin drops this session for a code challenge; the sign-in is logged when the code passes
      if (path === '/sign-in/email' && row.twoFactorEnabled) return;
      await recordOperatorSignIn(db, { email: row.email, userId, details: { via: path ?? 'server', twoFactor: passedTwoFactor, emailVerified: row.emailVerified, ipAddress: ipAddress ?? null } });
    } catch (error) {
      logger.error({ err: error, userId }, 'could not record an operator sign-in');
    }
  }

  return asyncContextOnlyDuringCalls(betterAuth({
    appName: brand,
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret,
    trustedOrigins: config.trustedOrigins,
    telemetry: { enabled: false },
    // better-auth's messages join our structured log (and its level) instead of raw stderr
    logger: {
      level: 'warn',
      log: (level, message, ...args) => logger[level]({ component: 'better-auth', args: args.length ? args : undefined }, message),
    },
    // Expected refusals (wrong password, too many attempts) are answers, not faults: only
    // unexpected errors reach the error log, through our logger rather than better-auth's console.
    onAPIError: {
      onError: (error) => {
        if (isAPIError(error) && error.status !== 'INTERNAL_SERVER_ERROR') logger.debug({ component: 'better-auth', err: error.message }, 'auth request refused');
        else logger.error({ component: 'better-auth', err: error }, 'auth request failed');
      },
    },
    database: drizzleAdapter(db, { provider: 'pg', schema: { user, session, account, verification, rateLimit, twoFactor } }),
    plugins: [
      // TOTP with an authenticator app, and backup codes. Any account may enrol; operators must
      // where OPERATOR_REQUIRE_2FA holds (modules/auth/operator.ts).
      twoFactorPlugin({ issuer: brand }),
    ],
    databaseHooks: {
      session: {
        create: {
          // A session remembers whether the sign-in that made it passed a second factor; a
          // password reset or a mailed link also makes sessions, without one.
          before: async (newSession, ctx) => ({ data: { ...newSession, twoFactorVerified: SECOND_FACTOR_PATHS.has(ctx?.path ?? '') } }),
          after: async (created, ctx) => {
            await auditOperatorSignIn(String(created.userId), created.twoFactorVerified === true, ctx?.path, created.ipAddress);
          },
        },
      },
    },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      autoSignIn: true,
      disableSignUp: config.auth.registrationDisabled,
      requireEmailVerification: config.auth.requireEmailVerification,
      resetPasswordTokenExpiresIn: RESET_LINK_TTL_SECONDS,
      // A reset ends every existing session (a thief's included); the person who reset is
      // signed in again by the after-hook below.
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user: recipient, token }) => {
        sendInBackground({ template: 'password_reset', to: recipient.email, data: { url: resetPasswordUrl(config.publicUrl, token) }, dedupeKey: null });
      },
      onPasswordReset: async ({ user: resetUser }, request) => {
        if (request) passwordResetUsers.set(request, resetUser.id);
      },
    },
    // Always configured: a named operator confirms their address from the console even where sign-up
    // does not ask for it.
    emailVerification: {
      sendOnSignUp: config.auth.requireEmailVerification,
      // an unconfirmed person who signs in gets a fresh link (the first may have expired)
      sendOnSignIn: config.auth.requireEmailVerification,
      autoSignInAfterVerification: true,
      sendVerificationEmail: async ({ user: recipient, url }) => {
        sendInBackground({ template: 'verify_email', to: recipient.email, data: { url }, dedupeKey: null });
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
      additionalFields: { twoFactorVerified: { type: 'boolean', required: false, defaultValue: false, input: false } },
    },
    rateLimit: {
      enabled: true,
      // in Postgres, so that every instance counts the same attempts
      storage: 'database',
      window: 60,
      max: 120,
      customRules: {
        // Every page asks who is signed in: a family or an office behind one address, or a member
        // with many tabs, must never look signed out. The cookie is the secret here, nothing is
        // guessed, and skipping the limit spares every page view a write.
        '/get-session': false,
        '/sign-in/email': { window: 60, max: 10 },
        '/sign-up/email': { window: 60, max: 10 },
        '/request-password-reset': { window: 60, max: 5 },
        '/reset-password': { window: 60, max: 10 },
        '/send-verification-email': { window: 60, max: 3 },
        '/two-factor/*': { window: 60, max: 10 },
      },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path === '/sign-in/email') await limitAttemptsPerAccount(ctx);
      }),
      after: createAuthMiddleware(async (ctx) => {
        if (ctx.path === '/sign-in/email') {
          await recordFailedSignIn(ctx);
          await clearAttemptsAfterSuccess(ctx);
        }
        if (ctx.path === '/reset-password') await signInAfterReset(ctx);
      }),
    },
    advanced: {
      database: { generateId: 'uuid' },
      // Secure whenever the site is served over https, i.e. every real deployment (decision 004).
      useSecureCookies: config.publicUrl.startsWith('https://'),
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
      cookiePrefix: config.site.brandSlug,
      // The address the app resolved from the socket (and TRUST_PROXY), never a client's header:
      // better-auth's rate limits and session records see the same one as ours.
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
      // better-auth skips its origin (CSRF) check under NODE_ENV=test; keep it on everywhere so
      // that tests exercise the same protection production has.
      disableOriginCheck: false,
      disableCSRFCheck: false,
    },
  }));
}

export type Auth = ReturnType<typeof createAuth>;
