import { Hono } from 'hono';
import type { ReadCache } from '@shared/read-cache';
import { z } from 'zod';
import { securityAlertsResponseSchema } from '@shared/api-contract';
import { safeText } from '@shared/validation';
import type { Db } from '../../db/client';
import { clientAddressOf } from '../../http/client-address';
import { readJson } from '../../http/errors';
import { describeOperation } from '../../http/openapi';
import { requireUser, type AuthVariables } from '../../http/session-user';
import { createSecurityService } from './security.service';

// Only the path travels from the client: the event type and the user are the server's to decide.
const unauthorizedAccessSchema = z.object({
  path: safeText()
    .max(500, 'path is too long')
    .regex(/^\/[^\s]*$/, 'path must start with /')
    .default('/dashboard'),
});

export function securityRoutes({ db, clock, reads }: { db: Db; clock: () => Date; reads: ReadCache }) {
  const service = createSecurityService({ db, clock });

  return new Hono<{ Variables: AuthVariables }>()
    .get('/security/alerts', describeOperation({ summary: 'Security score and alerts', auth: 'session', response: securityAlertsResponseSchema }), async (c) => {
      const user = requireUser(c);
      return c.json(await reads.read(`alerts:${user.id}`, () => service.alerts(user.id)), 200, { 'cache-control': 'private, no-store' });
    })
    .post('/security/events/unauthorized-access', describeOperation({ summary: 'Record a dashboard visit refused for lack of access', auth: 'session', body: unauthorizedAccessSchema, ok: '{ recorded }: false for a member with access, or for a repeat within a minute' }), async (c) => {
      const user = requireUser(c);
      const { path } = await readJson(c, unauthorizedAccessSchema);
      return c.json(await service.recordUnauthorizedAccess(user.id, { path, ipAddress: clientAddressOf(c.req.raw.headers) }));
    });
}
