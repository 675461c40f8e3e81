import nodemailer from 'nodemailer';
import type { Mail, MailPort } from './mail.port';

const SMTP_TIMEOUT_MS = 10_000;

export type SmtpTransport = { sendMail: (message: Mail & { from: string }) => Promise<unknown> };

/**
 * Real mail through any SMTP server named by SMTP_URL (smtp:// or smtps://user:pass@host:port).
 * One attempt per call, each stage timing out after 10 s: the outbox worker owns the retries and
 * their back-off. A rare duplicate (the server took the mail but the answer was lost) is harmless.
 */
export function createSmtpMail(url: string, from: string, options: { transport?: SmtpTransport } = {}): MailPort {
  const transport =
    options.transport ??
    nodemailer.createTransport({
      url,
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
    });
  return {
    kind: 'smtp',
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
  };
}
