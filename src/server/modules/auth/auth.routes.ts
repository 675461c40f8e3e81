import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { SERVER_ERROR_MESSAGES } from '@shared/error-messages';
import { PASSWORD_MAX_LENGTH, VALIDATION_MESSAGES, displayNameSchema, findUnsafeText, isSafeText, signUpPasswordSchema } from '@shared/validation';
import type { Config } from '../../config';
import { errorBody } from '../../http/errors';
import { describeOperation } from '../../http/openapi';
import type { ReadCache } from '@shared/read-cache';
import type { Auth } from './auth';

export type AuthRoutesDeps = { auth: Auth; config: Pick<Config, 'auth'>; reads: ReadCache };

type SessionAnswer = { status: number; body: string; cookies: string[] };

// better-auth answers `null` when the cookie names no live session
const isSignedIn = (answer: SessionAnswer) => answer.status === 200 && answer.body !== 'null';

/** The query part of a URL, `?` included, without parsing the whole URL (every page asks). */
const searchOf = (url: string) => {
  const at = url.indexOf('?');
  return at === -1 ? '' : url.slice(at);
};

async function readBody(request: Request): Promise<Record<string, unknown> | null> {
  const body: unknown = await request
    .clone()
    .json()
    .catch(() => null);
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : null;
}

const invalid = (message: string, path: string) => errorBody('validation_failed', `${path}: ${message}`, [{ path, message }]);

/**
 * better-auth's inputs get the same text rule as ours before better-auth sees them: no control
 * characters or broken Unicode in any string of the body, the query or the path (a NUL in a reset
 * token reached Postgres and answered 500), and an account name of bounded length (sign-up and
 * profile update; a 1 MB name was stored).
 */
const authInputRule = createMiddleware(async (c, next) => {
  let path: string;
  try {
    path = decodeURIComponent(c.req.path);
  } catch {
    return c.json(invalid(VALIDATION_MESSAGES.unsafeText, '(path)'), 400);
  }
  if (!isSafeText(path)) return c.json(invalid(VALIDATION_MESSAGES.unsafeText, '(path)'), 400);
  const unsafeQuery = Object.entries(c.req.queries()).find(([key, values]) => !isSafeText(key) || values.some((value) => !isSafeText(value)));
  if (unsafeQuery) return c.json(invalid(VALIDATION_MESSAGES.unsafeText, unsafeQuery[0]), 400);
  const body = c.req.method === 'POST' ? await readBody(c.req.raw) : null;
  const unsafe = findUnsafeText(body);
  if (unsafe !== null) return c.json(invalid(VALIDATION_MESSAGES.unsafeText, unsafe), 400);
  if (body && 'name' in body) {
    const name = displayNameSchema.safeParse(body.name);
    if (!name.success) return c.json(invalid(name.error.issues[0]?.message ?? SERVER_ERROR_MESSAGES.validation_failed, 'name'), 400);
  }
  await next();
});

/**
 * Mounts better-auth under /api/auth with the few rules it does not have itself:
 * - sign-up refuses while registration is disabled, and checks the shop's sign-up password rule
 *   (better-auth only knows lengths);
 * - GET /reset-token-status tells the reset page whether its link is still usable.
 */
export function authRoutes({ auth, config, reads }: AuthRoutesDeps) {
  const routes = new Hono();
  routes.use('*', authInputRule);

  routes.post('/sign-up/email', describeOperation({ summary: "Create an account with e-mail and password (better-auth's sign-up behind this shop's checks)", auth: 'none', errors: 'better-auth', ok: "better-auth's answer: the new user, signed in" }), async (c) => {
    if (config.auth.registrationDisabled) {
      return c.json(errorBody('registration_disabled', SERVER_ERROR_MESSAGES.registration_disabled), 403);
    }
    const request = c.req.raw;
    const body = await readBody(request);
    const password = signUpPasswordSchema.safeParse(body?.password);
    // A missing password is better-auth's to refuse; a weak one is ours.
    if (typeof body?.password === 'string' && !password.success) {
      const tooLong = body.password.length > PASSWORD_MAX_LENGTH;
      const message = password.error.issues[0]?.message ?? SERVER_ERROR_MESSAGES.weak_password;
      return c.json(errorBody(tooLong ? 'validation_failed' : 'weak_password', message), 400);
    }
    return auth.handler(request);
  });

  routes.get('/reset-token-status', describeOperation({ summary: 'Whether a password-reset link is still usable', auth: 'none', ok: '{ valid: boolean }' }), async (c) => {
    const token = c.req.query('token') ?? '';
    // better-auth's tokens are 24 characters; anything else is not worth a query
    if (!/^[A-Za-z0-9_-]{8,128}$/.test(token)) return c.json({ valid: false });
    const context = await auth.$context;
    const row = await context.internalAdapter.findVerificationValue(`reset-password:${token}`);
    c.header('Cache-Control', 'no-store');
    return c.json({ valid: Boolean(row && row.expiresAt > new Date()) });
  });

  // Every page asks who is signed in. better-auth's handler builds its whole router for each
  // request (2 ms of CPU, most of it garbage that swelled the heap under load); its endpoint,
  // built once, answers the same, as the router adds nothing on this path (no rate limit, as
  // '/get-session' is exempt; no callback URL to check; no plugin). The answer is kept like a
  // member's other reads (decision 021), under the whole cookie header and query: an answer
  // whose reading wrote (an expired session deleted, an old one extended with a new cookie) is
  // never kept, and any write here ends what was kept. Nor is an answer that found no session:
  // anyone can send a new junk cookie and query with every request, and each kept 14 KB.
  routes.get('/get-session', describeOperation({ summary: 'The signed-in user and session, or null', auth: 'none', errors: 'better-auth', ok: "better-auth's session answer; null without a live session" }), async (c) => {
    const query = c.req.query();
    const load = async (): Promise<SessionAnswer> => {
      const response = await auth.api.getSession({ headers: c.req.raw.headers, query, asResponse: true });
      return { status: response.status, body: await response.text(), cookies: response.headers.getSetCookie() };
    };
    const cookie = c.req.header('cookie');
    const { status, body, cookies } = cookie ? await reads.read(`get-session:${searchOf(c.req.url)}:${cookie}`, load, isSignedIn) : await load();
    const headers = new Headers({ 'content-type': 'application/json' });
    for (const value of cookies) headers.append('set-cookie', value);
    return new Response(body, { status, headers });
  });
  routes.on(['GET', 'POST'], '/*', (c) => auth.handler(c.req.raw));
  return routes;
}
