import type { Mail, MailPort } from './mail.port';

const SMTP_TIMEOUT_MS = 10_000;

export type SmtpTransport = { sendMail: (message: Mail & { from: string }) => Promise<unknown> };

/**
 * Real mail through any SMTP server named by SMTP_URL (smtp:// or smtps://user:pass@host:port).
 * One attempt per call, each stage timing out after 10 s: the outbox worker owns the retries and
 * their back-off. A rare duplicate (the server took the mail but the answer was lost) is harmless.
 */
export function createSmtpMail(url: string, from: string, options: { transport?: SmtpTransport } = {}): MailPort {
  // nodemailer loads with the first mail to send, not at start
  let transport: Promise<SmtpTransport> | undefined = options.transport && Promise.resolve(options.transport);
  const smtp = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({ url, connectionTimeout: SMTP_TIMEOUT_MS, greetingTimeout: SMTP_TIMEOUT_MS, socketTimeout: SMTP_TIMEOUT_MS }),
    ));
  return {
    kind: 'smtp',
    async send(mail) {
      await (await smtp()).sendMail({ from, ...mail });
    },
  };
}
