import type { Logger } from '../../logger';
import type { MailPort } from './mail.port';

/**
 * The sandbox sender: the outbox row itself is the delivered mail (the mailbox page shows it once
 * the worker marks it sent). In development each link is also logged so that a developer can
 * follow it from the terminal; nowhere else, because a reset link in a log hands over the account.
 */
export function createOutboxMail(logger: Logger, { logLinks }: { logLinks: boolean }): MailPort {
  return {
    kind: 'outbox',
    async send(mail) {
      const links = logLinks ? (mail.text.match(/https?:\/\/\S+/g) ?? []) : undefined;
      logger.info({ to: mail.to, subject: mail.subject, links }, 'mail delivered to the sandbox outbox');
    },
  };
}
