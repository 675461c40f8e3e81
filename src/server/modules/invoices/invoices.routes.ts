// The member's invoices (Settings → Subscription): the list, and one invoice by id.
import { Hono } from 'hono';
import { invoiceDtoSchema, invoiceIdSchema, invoicesResponseSchema } from '@shared/api-contract';
import { describeOperation } from '../../http/openapi';
import { requireUser, type AuthVariables } from '../../http/session-user';
import type { InvoicesService } from './invoices.service';

export function invoicesRoutes({ invoices }: { invoices: InvoicesService }) {
  return new Hono<{ Variables: AuthVariables }>()
    .get('/invoices', describeOperation({ summary: "The member's invoices, every plan, newest first", auth: 'session', response: invoicesResponseSchema }), async (c) => {
      const user = requireUser(c);
      c.header('Cache-Control', 'no-store');
      return c.json({ invoices: await invoices.list(user.id) });
    })
    .get(
      '/invoices/:id',
      describeOperation({
        summary: 'One of the member\'s invoices (404 for any other id)',
        auth: 'session',
        parameters: [{ in: 'path', name: 'id', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9_]+$', maxLength: 100 } }],
        response: invoiceDtoSchema,
      }),
      async (c) => {
        const user = requireUser(c);
        const id = invoiceIdSchema.parse(c.req.param('id'));
        c.header('Cache-Control', 'no-store');
        return c.json(await invoices.get(user.id, id));
      },
    );
}
