import { Hono } from 'hono';
import type { Db } from '../../db/client';
import { listOutbox } from './outbox-mail';

/** The sandbox mailbox: only mounted while the outbox is the mail adapter, never beside SMTP. */
export function mailboxRoutes({ db }: { db: Db }) {
  return new Hono().get('/sandbox/mailbox', async (c) => {
    const mails = await listOutbox(db);
    return c.json({
      mails: mails.map((mail) => ({ id: mail.id, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, createdAt: mail.createdAt.toISOString() })),
    });
  });
}
