import { Hono, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { describeOperation } from '../../http/openapi';
import type { AuthVariables } from '../../http/session-user';
import { listOutboxMails } from './outbox.repository';

/** `?to=` narrows the mailbox to one recipient: a busy demo shop soon has more than a page of mails. */
const mailboxQuerySchema = z.object({ to: z.string().trim().max(320, 'The recipient is at most 320 characters.').optional() });

/**
 * The sandbox mailbox: only mounted while the outbox is the mail adapter, never beside SMTP.
 * Reset links in it hand over accounts, so only operators read it unless the whole shop is a demo
 * (`readers`, the app's guard of sandbox pages: auth writes mails through this module, so it is handed over).
 */
export function mailboxRoutes({ db, readers }: { db: Db; readers: MiddlewareHandler<{ Variables: AuthVariables }> }) {
  return new Hono<{ Variables: AuthVariables }>().get('/sandbox/mailbox', describeOperation({ summary: 'The mails the sandbox outbox delivered', auth: 'operator', description: 'Open to anyone while the whole shop is a public demo.', ok: '{ mails: { id, to, subject, text, html, createdAt }[] }, the newest 50, for one recipient with ?to=' }), readers, async (c) => {
    // The delivered mails: a queued one appears once the worker has rendered and "sent" it.
    const { to } = mailboxQuerySchema.parse(c.req.query());
    const mails = await listOutboxMails(db, { status: ['sent'], to: to || undefined });
    return c.json({
      mails: mails.map((mail) => ({
        id: mail.id,
        to: mail.to,
        subject: mail.subject ?? '',
        text: mail.text ?? '',
        html: mail.html ?? '',
        createdAt: mail.createdAt.toISOString(),
      })),
    });
  });
}
