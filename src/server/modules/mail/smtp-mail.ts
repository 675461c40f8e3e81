import nodemailer from 'nodemailer';
import type { MailPort } from './mail.port';

const SMTP_TIMEOUT_MS = 10_000;

/** Real mail through any SMTP server named by SMTP_URL (smtp:// or smtps://user:pass@host:port). */
export function createSmtpMail(url: string, from: string): MailPort {
  const transport = nodemailer.createTransport(url, {
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
