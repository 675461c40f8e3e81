import { Hono } from 'hono';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { readJson } from '../../http/errors';
import { requireUser, type AuthVariables } from '../auth/session.middleware';
import { createSecurityService } from './security.service';

// Only the path travels from the client: the event type and the user are the server's to decide.
const unauthorizedAccessSchema = z.object({
  path: z
    .string()
    .max(500, 'path is too long')
    .regex(/^\/[^\s]*$/, 'path must start with /')
    .default('/dashboard'),
});

const clientIp = (headers: Headers) => headers.get('x-forwarded-for')?.split(',')[0]?.trim() || null;

export function securityRoutes({ db, clock }: { db: Db; clock: () => Date }) {
  const service = createSecurityService({ db, clock });

  return new Hono<{ Variables: AuthVariables }>()
    .get('/security/alerts', async (c) => {
      const user = requireUser(c);
      return c.json(await service.alerts(user.id), 200, { 'cache-control': 'private, no-store' });
    })
    .post('/security/events/unauthorized-access', async (c) => {
      const user = requireUser(c);
      const { path } = await readJson(c, unauthorizedAccessSchema);
      return c.json(await service.recordUnauthorizedAccess(user.id, { path, ipAddress: clientIp(c.req.raw.headers) }));
    });
}
