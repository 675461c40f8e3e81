import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context } from 'hono';
import { SERVER_ERROR_MESSAGES } from '@shared/error-messages';
import { PASSWORD_MAX_LENGTH, signUpPasswordSchema } from '@shared/validation';
import type { Config } from '../../config';
import { errorBody } from '../../http/errors';
import type { Auth } from './auth';

export type AuthRoutesDeps = { auth: Auth; config: Pick<Config, 'auth'> };

const forwardedFor = (headers: Headers) => headers.get('x-forwarded-for')?.split(',')[0]?.trim() || null;

/**
 * better-auth keys its rate limits by the x-forwarded-for address. Behind a proxy that header is
 * set; when the server faces clients directly it is missing and every visitor would share one
 * bucket (ten sign-ins a minute for the whole shop), so the socket's address is filled in.
 */
export function withClientAddress(request: Request, socketAddress: string | undefined): Request {
  if (forwardedFor(request.headers) || !socketAddress) return request;
  const headers = new Headers(request.headers);
  headers.set('x-forwarded-for', socketAddress);
  return new Request(request, { headers });
}

function socketAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined; // in-process requests (tests) have no socket
  }
}

const authRequest = (c: Context) => withClientAddress(c.req.raw, socketAddress(c));

async function readBody(request: Request): Promise<Record<string, unknown> | null> {
  const body: unknown = await request
    .clone()
    .json()
    .catch(() => null);
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : null;
}

/**
 * Mounts better-auth under /api/auth with the few rules it does not have itself:
 * - sign-up refuses while registration is disabled, and checks the sign-up password rule of
 *   spec §5 (better-auth only knows lengths);
 * - GET /reset-token-status tells the reset page whether its link is still usable.
 */
export function authRoutes({ auth, config }: AuthRoutesDeps) {
  const routes = new Hono();

  routes.post('/sign-up/email', async (c) => {
    if (config.auth.registrationDisabled) {
      return c.json(errorBody('registration_disabled', SERVER_ERROR_MESSAGES.registration_disabled), 403);
    }
    const request = authRequest(c);
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

  routes.get('/reset-token-status', async (c) => {
    const token = c.req.query('token') ?? '';
    // better-auth's tokens are 24 characters; anything else is not worth a query
    if (!/^[A-Za-z0-9_-]{8,128}$/.test(token)) return c.json({ valid: false });
    const context = await auth.$context;
    const row = await context.internalAdapter.findVerificationValue(`reset-password:${token}`);
    c.header('Cache-Control', 'no-store');
    return c.json({ valid: Boolean(row && row.expiresAt > new Date()) });
  });

  routes.on(['GET', 'POST'], '/*', (c) => auth.handler(authRequest(c)));
  return routes;
}
