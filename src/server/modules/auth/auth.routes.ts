import { Hono } from 'hono';
import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import { findUserIdByEmail, recordSecurityEvent } from '../security/security.repository';
import type { Auth } from './auth';

const clientIp = (headers: Headers) => headers.get('x-forwarded-for')?.split(',')[0]?.trim() ?? null;

/**
 * Mounts better-auth under /api/auth. A failed e-mail sign-in is recorded as an AUTH_FAILURE
 * event (with the user id when the e-mail has an account); the caller's answer is better-auth's
 * own, identical for known and unknown e-mails.
 */
export function authRoutes({ auth, db, logger }: { auth: Auth; db: Db; logger: Logger }) {
  const routes = new Hono();
  routes.on(['GET', 'POST'], '/*', async (c) => {
    const request = c.req.raw;
    if (request.method === 'POST' && c.req.path.endsWith('/sign-in/email')) {
      const body = (await request.clone().json().catch(() => null)) as { email?: unknown } | null;
      const response = await auth.handler(request);
      if (response.status === 401 && typeof body?.email === 'string') {
        const email = body.email.trim().toLowerCase();
        await findUserIdByEmail(db, email)
          .then((userId) => recordSecurityEvent(db, { userId, event: 'AUTH_FAILURE', details: { email }, ipAddress: clientIp(request.headers) }))
          .catch((error: unknown) => logger.warn({ err: error }, 'could not record a failed sign-in'));
      }
      return response;
    }
    return auth.handler(request);
  });
  return routes;
}
