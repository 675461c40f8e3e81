// /sandbox/receipts/:id: the sandbox's invoice pages, mounted only while payments run in the
// sandbox. Like Stripe's hosted invoice pages, the unguessable invoice id is the key to the page.
import { Hono } from 'hono';
import { invoiceIdSchema } from '@shared/api-contract';
import type { Db } from '../../db/client';
import { renderReceipt, type ReceiptContext } from './sandbox-receipt';
import { readReceipt } from './sandbox-tax';
import { serverError } from '../../http/server-errors';

export function sandboxReceiptRoutes({ db, ...ctx }: { db: Db } & ReceiptContext) {
  return new Hono().get('/:id', async (c) => {
    const parsed = invoiceIdSchema.safeParse(c.req.param('id'));
    const receipt = parsed.success ? await readReceipt(db, parsed.data) : null;
    if (!receipt) throw serverError('sandboxInvoiceMissing');
    c.header('Cache-Control', 'no-store');
    return c.html(renderReceipt(receipt, ctx));
  });
}
