import { Hono } from 'hono';
import { outboxIsPublic, type Config } from '../../config';
import type { Db } from '../../db/client';
import { requireOperator, type OperatorDirectory } from '../auth/operator';
import { describeOperation } from '../../http/openapi';
import type { AuthVariables } from '../../http/session-user';
import { listOutboxMails } from '../mail/outbox.repository';

/**
 * The sandbox mailbox: only mounted while the outbox is the mail adapter, never beside SMTP.
 * Reset links in it hand over accounts, so only operators read it unless the whole shop is a demo.
 */
export function mailboxRoutes({ db, config, directory }: { db: Db; config: Config; directory: OperatorDirectory }) {
  return new Hono<{ Variables: AuthVariables }>().get('/sandbox/mailbox', describeOperation({ summary: 'The mails the sandbox outbox delivered', auth: 'operator', description: 'Open to anyone while the whole shop is a public demo.', ok: '{ mails: { id, to, subject, text, html, createdAt }[] }' }), requireOperator(directory, () => outboxIsPublic(config)), async (c) => {
    // The delivered mails: a queued one appears once the worker has rendered and "sent" it.
    const mails = await listOutboxMails(db, { status: ['sent'] });
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
