import { Hono } from 'hono';
import { requireUser, type AuthVariables } from '../../http/session-user';

/** The spec's RPC: the SQL function user_has_premium_access decides, read with the session. */
export function accessRoutes() {
  return new Hono<{ Variables: AuthVariables }>().get('/access', (c) => {
    requireUser(c);
    return c.json({ hasAccess: c.get('hasAccess') });
  });
}
