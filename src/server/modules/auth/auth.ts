import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { account, rateLimit, session, user, verification } from '../../db/schema';
import type { Logger } from '../../logger';
import type { MailPort } from '../mail/mail.port';
import { passwordResetMail, verifyEmailMail } from '../mail/mail-templates';

/** Seconds a reset link stays valid (spec §9: 10 minutes). */
export const RESET_LINK_TTL_SECONDS = 10 * 60;

export type AuthDeps = { db: Db; config: Config; mail: MailPort; logger: Logger; secret: string };

/** better-auth on our Postgres: e-mail + password, database sessions in httpOnly cookies. */
export function createAuth({ db, config, mail, logger, secret }: AuthDeps) {
  const brand = config.site.brandName;
  return betterAuth({
    appName: brand,
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret,
    trustedOrigins: config.trustedOrigins,
    telemetry: { enabled: false },
    database: drizzleAdapter(db, { provider: 'pg', schema: { user, session, account, verification, rateLimit } }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      autoSignIn: true,
      disableSignUp: config.auth.registrationDisabled,
      requireEmailVerification: config.auth.requireEmailVerification,
      resetPasswordTokenExpiresIn: RESET_LINK_TTL_SECONDS,
      revokeSessionsOnPasswordReset: true,
      // Our own page reads the token; better-auth's redirect URL would add a hop.
      sendResetPassword: async ({ user: recipient, token }) => {
        const url = `${config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
        await mail.send(passwordResetMail(brand, recipient.email, url));
        logger.info({ to: recipient.email }, 'password reset mail sent');
      },
    },
    emailVerification: config.auth.requireEmailVerification
      ? {
          sendOnSignUp: true,
          autoSignInAfterVerification: true,
          sendVerificationEmail: async ({ user: recipient, url }) => {
            await mail.send(verifyEmailMail(brand, recipient.email, url));
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
    advanced: {
      database: { generateId: 'uuid' },
      useSecureCookies: config.publicUrl.startsWith('https://'),
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
      cookiePrefix: config.site.brandSlug,
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
