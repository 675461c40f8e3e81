import { desc } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { outbox } from '../../db/schema';
import type { Logger } from '../../logger';
import type { MailPort } from './mail.port';

/**
 * The sandbox mail adapter: mails are kept in the outbox table for the mailbox page, and each
 * link is logged so that a developer can follow it from the terminal.
 */
export function createOutboxMail(db: Db, logger: Logger): MailPort {
  return {
    kind: 'outbox',
    async send(mail) {
      await db.insert(outbox).values(mail);
      const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
      logger.info({ to: mail.to, subject: mail.subject, links }, 'mail stored in the sandbox outbox');
    },
  };
}

export async function listOutbox(db: Db, limit = 50) {
  return db.select().from(outbox).orderBy(desc(outbox.createdAt)).limit(limit);
}
