import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { createAuthMiddleware, isAPIError } from 'better-auth/api';
import { setSessionCookie } from 'better-auth/cookies';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@shared/validation';
import { RESET_LINK_TTL_SECONDS } from '@shared/timing';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { account, rateLimit, session, user, verification } from '../../db/schema';
import type { Logger } from '../../logger';
import type { Mail, MailPort } from '../mail/mail.port';
import { passwordResetMail, verifyEmailMail } from '../mail/mail-templates';
import { findUserIdByEmail, recordSecurityEvent } from '../security/security.repository';

export { RESET_LINK_TTL_SECONDS };

/** Where the reset e-mail points: our own page reads the token (docs/decisions/004). */
export const resetPasswordUrl = (publicUrl: string, token: string) => `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`;

export type AuthDeps = { db: Db; config: Config; mail: MailPort; logger: Logger; secret: string };

// The users whose password a request has just reset, so that the after-hook can sign them in.
// Keyed by the request object that better-auth hands to both `onPasswordReset` and the hook.
const passwordResetUsers = new WeakMap<Request, string>();

/** better-auth on our Postgres: e-mail + password, database sessions in httpOnly cookies. */
export function createAuth({ db, config, mail, logger, secret }: AuthDeps) {
  const brand = config.site.brandName;

  // Mails leave in the background: a request must answer in the same time whether or not the
  // address has an account (and so whether or not a mail goes out), and a slow SMTP server must
  // not hold the page. Failures are logged; the person can ask again.
  const sendInBackground = (message: Mail, what: string) => {
    void mail
      .send(message)
      .then(() => logger.info({ to: message.to }, `${what} mail sent`))
      .catch((error: unknown) => logger.error({ err: error, to: message.to }, `could not send the ${what} mail`));
  };

  type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

  /**
   * A refused e-mail sign-in (wrong password or unknown e-mail: better-auth answers both with the
   * same 401) becomes an AUTH_FAILURE event, with the user id when the e-mail has an account.
   * Recorded here rather than around the HTTP route so that sign-ins made through auth.api (the
   * payment page's) count too. The answer to the caller is not touched.
   */
  async function recordFailedSignIn(ctx: HookContext) {
    const returned = ctx.context.returned;
    if (!isAPIError(returned) || returned.statusCode !== 401) return;
    const email = typeof ctx.body?.email === 'string' ? ctx.body.email.trim().toLowerCase() : null;
    if (!email) return;
    const headers = ctx.request?.headers ?? ctx.headers;
    const ipAddress = headers?.get('x-forwarded-for')?.split(',')[0]?.trim() || null;
    try {
      const userId = await findUserIdByEmail(db, email);
      await recordSecurityEvent(db, { userId, event: 'AUTH_FAILURE', details: { email }, ipAddress });
    } catch (error) {
      logger.warn({ err: error }, 'could not record a failed sign-in');
    }
  }

  /**
   * The reset page leads straight to the dashboard (spec §4 "Reset success goes to /dashboard
   * after 1 s"), so the person who just proved they own the mailbox is signed in here. The link
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

  return betterAuth({
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
    database: drizzleAdapter(db, { provider: 'pg', schema: { user, session, account, verification, rateLimit } }),
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
        sendInBackground(passwordResetMail(brand, recipient.email, resetPasswordUrl(config.publicUrl, token)), 'password reset');
      },
      onPasswordReset: async ({ user: resetUser }, request) => {
        if (request) passwordResetUsers.set(request, resetUser.id);
      },
    },
    emailVerification: config.auth.requireEmailVerification
      ? {
          sendOnSignUp: true,
          // an unconfirmed person who signs in gets a fresh link (the first may have expired)
          sendOnSignIn: true,
          autoSignInAfterVerification: true,
          sendVerificationEmail: async ({ user: recipient, url }) => {
            sendInBackground(verifyEmailMail(brand, recipient.email, url), 'e-mail confirmation');
          },
        }
      : undefined,
    session: { expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24 },
    rateLimit: {
      enabled: true,
      // in Postgres, so that every instance counts the same attempts
      storage: 'database',
      window: 60,
      max: 120,
      customRules: {
        '/sign-in/email': { window: 60, max: 10 },
        '/sign-up/email': { window: 60, max: 10 },
        '/request-password-reset': { window: 60, max: 5 },
        '/reset-password': { window: 60, max: 10 },
      },
    },
    hooks: {
      after: createAuthMiddleware(async (ctx) => {
        if (ctx.path === '/sign-in/email') await recordFailedSignIn(ctx);
        if (ctx.path === '/reset-password') await signInAfterReset(ctx);
      }),
    },
    advanced: {
      database: { generateId: 'uuid' },
      // Secure whenever the site is served over https, i.e. every real deployment (decision 004).
      useSecureCookies: config.publicUrl.startsWith('https://'),
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
      cookiePrefix: config.site.brandSlug,
      // better-auth skips its origin (CSRF) check under NODE_ENV=test; keep it on everywhere so
      // that tests exercise the same protection production has.
      disableOriginCheck: false,
      disableCSRFCheck: false,
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
