import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { eq } from 'drizzle-orm';
import { asyncContextOnlyDuringCalls } from './async-context';
import { APIError, createAuthMiddleware, getOAuthState, getSessionFromCtx, isAPIError } from 'better-auth/api';
import { genericOAuth, type GenericOAuthConfig } from 'better-auth/plugins/generic-oauth';
import { twoFactor as twoFactorPlugin } from 'better-auth/plugins/two-factor';
import { setSessionCookie } from 'better-auth/cookies';
import { hashPassword, verifyPassword } from 'better-auth/crypto';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@shared/validation';
import { DISCORD_OAUTH_SCOPES, DISCORD_PAGE_PATH, DISCORD_PROVIDER } from '@shared/discord-contract';
import { SERVER_ERROR_MESSAGES, type ErrorCode } from '@shared/error-messages';
import { SIGN_IN_FAILURES_PER_ACCOUNT } from '@shared/throttle';
import { RESET_LINK_TTL_SECONDS } from '@shared/timing';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { account, rateLimit, session, twoFactor, user, verification } from '../../db/schema';
import { CLIENT_ADDRESS_HEADER, clientAddressOf } from '../../http/client-address';
import { ApiError } from '../../http/errors';
import { serverError } from '../../http/server-errors';
import type { Logger } from '../../logger';
import type { MailIntent } from '@shared/mail-intents';
import type { Mailer } from '../mail/mailer';
import { findUserIdByEmail, recordRepeatedSecurityEvent } from '../security/security.repository';
import { clearThrottle, consumeThrottle } from '../throttle/throttle.repository';
import { isNamedOperator } from './operator';
import { recordOperatorSignIn } from './operators.repository';
import { verifyFreshOr, type VerifyPassword } from './fresh-passwords';

export { RESET_LINK_TTL_SECONDS };

/** The endpoints whose sessions are made only after a second factor was checked. */
const SECOND_FACTOR_PATHS = new Set(['/two-factor/verify-totp', '/two-factor/verify-backup-code', '/two-factor/verify-otp']);

/** Where a reset link points (the reset e-mail, the import's set-your-password mail): our own page reads the token (docs/decisions/004). */
export const resetPasswordUrl = (publicUrl: string, token: string) => `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`;

/**
 * Linking a member's Discord account: the Discord integration's side, as callbacks (auth never
 * imports the integration; the integration hands this over, see Integration.linking). Without it,
 * better-auth knows no Discord provider.
 */
export type AuthLinking = {
  /** The consent page, the code exchange and the account behind a token (sandbox or Discord). */
  oauth: {
    authorizeUrl: (input: { state: string; redirectUri: string; scopes: readonly string[] }) => string;
    exchangeCode: (input: { code: string; redirectUri: string }) => Promise<{ accessToken: string; refreshToken: string | null; expiresAt: Date | null; scopes: string[] }>;
    currentUser: (accessToken: string) => Promise<{ id: string; username: string }>;
  };
  /** Whether the member may connect Discord now (paid access). */
  mayLink: (userId: string) => Promise<boolean>;
  /**
   * Runs once better-auth has stored the account row of a link (create, or the same account linked
   * again). Throws an ApiError to refuse the link: the row is then removed and the member lands on
   * the Discord page with the error's code.
   */
  onLinked: (link: { userId: string; discordUserId: string; accessToken: string }) => Promise<void>;
};

export type AuthDeps = {
  db: Db;
  config: Config;
  mailer: Pick<Mailer, 'sendSoon'>;
  logger: Logger;
  secret: string;
  clock: () => Date;
  /** The integration whose accounts are linked through better-auth (Discord's), if any. */
  linking?: AuthLinking | undefined;
  /** The password hash and its check: better-auth's scrypt unless given (a test counts them). */
  passwordHashing?: PasswordHashing | undefined;
};

export type PasswordHashing = { hash: (password: string) => Promise<string>; verify: VerifyPassword };
const SCRYPT: PasswordHashing = { hash: hashPassword, verify: verifyPassword };

/** better-auth's endpoints that would sign in (or up) with a provider: Discord may only be linked. */
const SOCIAL_SIGN_IN_PATHS = new Set(['/sign-in/social', '/sign-in/oauth2']);
/** The provider's tokens stay the shop's (its bot adds the member with them); unlinking is ours (POST /api/discord/disconnect). */
const DISCORD_TOKEN_PATHS = new Set(['/unlink-account', '/get-access-token', '/refresh-token']);
/** What better-auth sets itself in the authorize URL; the port's other parameters (prompt) are kept. */
const OAUTH_RESERVED_PARAMS = new Set(['response_type', 'client_id', 'scope', 'state', 'redirect_uri', 'code_challenge', 'code_challenge_method', 'nonce']);

/**
 * Discord gives no e-mail with the identify scope alone, and better-auth wants one for a linked
 * profile: a placeholder under .invalid (RFC 2606), never stored on the member (no user info is
 * copied on a link) and never an address anyone can own.
 */
export const discordPlaceholderEmail = (discordUserId: string) => `${discordUserId}@discord.invalid`;

/**
 * Discord as a generic OAuth provider of better-auth, through the Discord port: the port's consent
 * page (the sandbox's or Discord's), its code exchange and its current user, so that the sandbox
 * links in-process and no test needs the network. Linking only: no sign-up, and sign-in is refused
 * by the hooks below.
 */
function discordProvider(linking: AuthLinking, publicUrl: string, logger: Logger): GenericOAuthConfig {
  // The port builds its consent page's address; better-auth sets state, redirect and scopes itself.
  const sample = new URL(linking.oauth.authorizeUrl({ state: 'state', redirectUri: `${publicUrl}/`, scopes: DISCORD_OAUTH_SCOPES }));
  return {
    providerId: DISCORD_PROVIDER,
    name: 'Discord',
    clientId: sample.searchParams.get('client_id') ?? '',
    authorizationUrl: `${sample.origin}${sample.pathname}`,
    authorizationUrlParams: Object.fromEntries([...sample.searchParams].filter(([name]) => !OAUTH_RESERVED_PARAMS.has(name))),
    scopes: [...DISCORD_OAUTH_SCOPES],
    // the port's code exchange sends no verifier; the state bound to the session is the protection
    pkce: false,
    disableSignUp: true,
    getToken: async ({ code, redirectURI }) => {
      const tokens = await linking.oauth.exchangeCode({ code, redirectUri: redirectURI });
      return {
        tokenType: 'Bearer',
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken ?? undefined,
        accessTokenExpiresAt: tokens.expiresAt ?? undefined,
        scopes: tokens.scopes,
      };
    },
    getUserInfo: async (tokens) => {
      if (!tokens.accessToken) return null;
      try {
        const discordUser = await linking.oauth.currentUser(tokens.accessToken);
        return { id: discordUser.id, name: discordUser.username, username: discordUser.username, email: discordPlaceholderEmail(discordUser.id), emailVerified: false };
      } catch (error) {
        // better-auth answers the member with unable_to_get_user_info
        logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'discord link: could not read the account');
        return null;
      }
    },
  };
}

// The users whose password a request has just reset, so that the after-hook can sign them in.
// Keyed by the request object that better-auth hands to both `onPasswordReset` and the hook.
const passwordResetUsers = new WeakMap<Request, string>();

/** better-auth on our Postgres: e-mail + password, database sessions in httpOnly cookies. */
export function createAuth({ db, config, mailer, logger, secret, clock, linking: discord, passwordHashing = SCRYPT }: AuthDeps) {
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

  const isDiscord = (value: unknown) => discord !== undefined && value === DISCORD_PROVIDER;
  const refuse = (code: ErrorCode | 'FORBIDDEN', message: string) => new APIError('FORBIDDEN', { code: code.toUpperCase(), message });
  const DISCORD_SIGN_IN_REFUSED = 'Discord cannot be used to sign in. Sign in with your e-mail and password, then connect Discord from the dashboard.';

  /**
   * Discord is linked to an account, never signed in with (a stranger must not get an account,
   * nor a member a second way in); only members with access connect it; its tokens and its
   * unlinking stay with the Discord module.
   */
  async function guardDiscord(ctx: HookContext) {
    if (SOCIAL_SIGN_IN_PATHS.has(ctx.path) && (isDiscord(ctx.body?.provider) || isDiscord(ctx.body?.providerId))) throw refuse('FORBIDDEN', DISCORD_SIGN_IN_REFUSED);
    if (DISCORD_TOKEN_PATHS.has(ctx.path) && isDiscord(ctx.body?.providerId)) throw refuse('FORBIDDEN', 'The Discord connection is managed on the Discord page of the dashboard.');
    if (ctx.path === '/link-social' && isDiscord(ctx.body?.provider)) {
      // without a session, link-social itself answers 401
      const current = await getSessionFromCtx(ctx);
      if (current && !(await discord!.mayLink(current.user.id))) throw refuse('discord_needs_access', SERVER_ERROR_MESSAGES.discord_needs_access);
    }
  }

  /** `target` (the link's error page, absolute or root-relative) with ?error=code. */
  function withError(target: string, code: string): string {
    const url = new URL(target, config.publicUrl);
    url.searchParams.set('error', code);
    return target.startsWith('/') ? `${url.pathname}${url.search}${url.hash}` : url.href;
  }

  type AccountRow = { id: string; userId: string; providerId: string; accountId: string; accessToken?: string | null | undefined };

  /**
   * After better-auth stored the Discord account row of a link (the OAuth callback), the Discord
   * module records the link and asks for the roles. A link it refuses (the account is another
   * member's, Discord did not answer) is undone and the member lands on the error page.
   */
  async function afterDiscordLink(row: AccountRow | null, ctx: HookContext | null, created: boolean) {
    if (!discord || !row || row.providerId !== DISCORD_PROVIDER || !ctx?.path?.startsWith('/callback/')) return;
    try {
      if (!row.accessToken) throw new Error('better-auth stored no access token');
      // checked again at the callback: access may have ended while the member was on Discord's page
      if (!(await discord.mayLink(String(row.userId)))) throw serverError('discordNeedsAccess');
      await discord.onLinked({ userId: String(row.userId), discordUserId: row.accountId, accessToken: row.accessToken });
    } catch (error) {
      const code: ErrorCode = error instanceof ApiError && error.code.startsWith('discord_') ? (error.code as ErrorCode) : 'discord_unavailable';
      if (!(error instanceof ApiError)) logger.error({ err: error, userId: row.userId }, 'discord link failed');
      // a new row goes; a relinked one keeps the link it already was
      if (created) await ctx.context.internalAdapter.deleteAccount(row.id);
      const state = await getOAuthState().catch(() => null);
      throw ctx.redirect(withError(state?.errorURL ?? DISCORD_PAGE_PATH, code));
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
      // Discord, linked to a member's account (never signed in with): modules/discord.
      genericOAuth({ config: discord ? [discordProvider(discord, config.publicUrl, logger)] : [] }),
    ],
    account: {
      accountLinking: {
        enabled: true,
        // A link is proven by the member's session and the provider's consent, not by an e-mail:
        // Discord gives none (identify), so the placeholder never matches the member's. Discord is
        // the only provider there is, so these apply to it alone.
        trustedProviders: discord ? [DISCORD_PROVIDER] : [],
        allowDifferentEmails: true,
        disableImplicitLinking: true,
        // the member's name and e-mail stay theirs
        updateUserInfoOnLink: false,
      },
    },
    databaseHooks: {
      account: {
        create: { after: (created, ctx) => afterDiscordLink(created, ctx, true) },
        update: { after: (updated, ctx) => afterDiscordLink(updated as AccountRow | null, ctx, false) },
      },
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
      // better-auth's scrypt, except the sign-in right after the server made the account (fresh-passwords.ts)
      password: { hash: passwordHashing.hash, verify: verifyFreshOr(passwordHashing.verify) },
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
        // each start of a Discord link stores an OAuth state
        '/link-social': { window: 60, max: 10 },
      },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path === '/sign-in/email') await limitAttemptsPerAccount(ctx);
        await guardDiscord(ctx);
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
