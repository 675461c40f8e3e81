import { Hono } from 'hono';
import { accessResponseSchema } from '@shared/api-contract';
import { describeOperation } from '../../http/openapi';
import { requireUser, type AuthVariables } from '../../http/session-user';

/** The spec's RPC: the SQL function user_has_premium_access decides, read with the session. */
export function accessRoutes() {
  return new Hono<{ Variables: AuthVariables }>().get('/access', describeOperation({ summary: 'Whether the signed-in user has premium access', auth: 'session', response: accessResponseSchema }), (c) => {
    requireUser(c);
    return c.json({ hasAccess: c.get('hasAccess') });
  });
}
