import type { Context } from 'hono';
import { Hono } from 'hono';
import type { ReadCache } from '@shared/read-cache';
import { csrf } from 'hono/csrf';
import { z } from 'zod';
import { tradingviewActivateRequestSchema, tradingviewActivateResponseSchema } from '@shared/api-contract';
import { tradingviewStatusResponseSchema } from '@shared/tradingview-grants';
import { readJson } from '../../http/errors';
import { describeOperation } from '../../http/openapi';
import { requireUser, type AuthVariables } from '../../http/session-user';
import type { TradingViewService } from './tradingview.service';
import { serverError } from '../../http/server-errors';

/** The body's username, trimmed and checked by the shared schema; the message is the schema's own. */
async function readUsername(c: Context): Promise<string> {
  try {
    return (await readJson(c, tradingviewActivateRequestSchema)).tv_username;
  } catch (error) {
    if (error instanceof z.ZodError) {
      const issue = error.issues[0];
      throw serverError('invalidBody', issue?.message, error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
    }
    throw error;
  }
}

export function tradingViewRoutes({ service, trustedOrigins, reads }: { service: TradingViewService; trustedOrigins: string[]; reads: ReadCache }) {
  return (
    new Hono<{ Variables: AuthVariables }>()
      // A cross-site form post must not change a member's username (and so hand their access away).
      .use('/tradingview/*', csrf({ origin: trustedOrigins }))
      .post('/tradingview/activate', describeOperation({ summary: 'Verify and store the TradingView username, schedule the grant', auth: 'session', body: tradingviewActivateRequestSchema, response: tradingviewActivateResponseSchema }), async (c) => {
        const user = requireUser(c);
        const { verifiedUsername } = await service.setUsername(user.id, await readUsername(c));
        return c.json({ success: true as const, verifiedUsername });
      })
      .put('/tradingview/username', describeOperation({ summary: 'Correct the TradingView username (revokes the old grant, grants the new)', auth: 'session', body: tradingviewActivateRequestSchema, response: tradingviewActivateResponseSchema }), async (c) => {
        const user = requireUser(c);
        const { verifiedUsername } = await service.setUsername(user.id, await readUsername(c));
        return c.json({ success: true as const, verifiedUsername });
      })
      .get('/tradingview/status', describeOperation({ summary: "The member's TradingView username and grant status", auth: 'session', response: tradingviewStatusResponseSchema }), async (c) => {
        const user = requireUser(c);
        return c.json(await reads.read(`tradingview-status:${user.id}`, () => service.status(user.id)));
      })
  );
}
