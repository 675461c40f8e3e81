import { Hono } from 'hono';
import type { Db } from '../../db/client';
import { requireUser, type AuthVariables } from '../auth/session.middleware';
import { userHasPremiumAccess } from './access.repository';

export function accessRoutes({ db }: { db: Db }) {
  return new Hono<{ Variables: AuthVariables }>().get('/access', async (c) => {
    const user = requireUser(c);
    return c.json({ hasAccess: await userHasPremiumAccess(db, user.id) });
  });
}
