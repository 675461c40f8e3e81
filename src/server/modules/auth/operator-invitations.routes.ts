// The invitation page's two calls. No session is needed: holding the link is the proof.
import { Hono } from 'hono';
import { csrf } from 'hono/csrf';
import {
  operatorInvitationAcceptSchema,
  operatorInvitationAcceptedSchema,
  operatorInvitationSchema,
  type OperatorInvitationAccepted,
  type OperatorInvitationView,
} from '@shared/admin-contract';
import { readJson } from '../../http/errors';
import { describeOperation } from '../../http/openapi';
import type { OperatorInvitations } from './operator-invitations';

const NO_STORE = { 'cache-control': 'no-store' };

export function operatorInvitationRoutes(deps: { invitations: OperatorInvitations; trustedOrigins: string[] }) {
  const { invitations } = deps;
  return (
    new Hono()
      // accepting signs someone in: never from another site's form
      .use('/accept', csrf({ origin: deps.trustedOrigins }))
      .get('/:token', describeOperation({ summary: 'Whose one-time operator invitation this is (404 when used, expired or unknown)', auth: 'none', response: operatorInvitationSchema }), async (c) => {
        const { email, accountExists, expiresAt } = await invitations.describe(c.req.param('token'));
        return c.json({ email, accountExists, expiresAt: expiresAt.toISOString() } satisfies OperatorInvitationView, 200, NO_STORE);
      })
      .post('/accept', describeOperation({ summary: "Use an operator invitation once: set the address's password, prove it, sign in", auth: 'none', body: operatorInvitationAcceptSchema, response: operatorInvitationAcceptedSchema }), async (c) => {
        const input = await readJson(c, operatorInvitationAcceptSchema);
        const result = await invitations.accept(input, c.req.raw.headers);
        for (const cookie of result.setCookies) c.header('set-cookie', cookie, { append: true });
        return c.json({ email: result.email, signedIn: result.signedIn } satisfies OperatorInvitationAccepted, 200, NO_STORE);
      })
  );
}
