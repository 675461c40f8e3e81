import { createMiddleware } from 'hono/factory';
import { ApiError } from '../../http/errors';
import type { Auth } from './auth';

export type SessionUser = { id: string; email: string; name: string; createdAt: Date };
export type AuthVariables = { user: SessionUser | null };

/** Puts the signed-in user (or null) on the context for every API route. */
export function loadSession(auth: Auth) {
  return createMiddleware<{ Variables: AuthVariables }>(async (c, next) => {
    const result = await auth.api.getSession({ headers: c.req.raw.headers });
    c.set('user', result ? { id: result.user.id, email: result.user.email, name: result.user.name, createdAt: result.user.createdAt } : null);
    await next();
  });
}

/** The signed-in user, or a 401 in the API's error shape. */
export function requireUser(c: { get: (key: 'user') => SessionUser | null }): SessionUser {
  const user = c.get('user');
  if (!user) throw new ApiError(401, 'unauthorized', 'Please sign in to continue.');
  return user;
}
