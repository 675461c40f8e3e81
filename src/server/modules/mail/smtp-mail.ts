import nodemailer from 'nodemailer';
import type { Mail, MailPort } from './mail.port';

const SMTP_TIMEOUT_MS = 10_000;
const SMTP_ATTEMPTS = 3;
const SMTP_RETRY_BASE_MS = 1_000;

type SmtpError = Error & { code?: string; responseCode?: number };

/**
 * Worth another try: the connection failed or the server answered with a temporary (4xx)
 * reply. A permanent 5xx refusal (bad address, rejected sender) will not get better.
 */
export function isTransientSmtpError(error: unknown): boolean {
  const { code, responseCode } = (error ?? {}) as SmtpError;
  if (typeof responseCode === 'number') return responseCode >= 400 && responseCode < 500;
  return code === 'ECONNECTION' || code === 'ETIMEDOUT' || code === 'ESOCKET' || code === 'EDNS' || code === 'ECONNRESET';
}

export type SmtpTransport = { sendMail: (message: Mail & { from: string }) => Promise<unknown> };

/**
 * Real mail through any SMTP server named by SMTP_URL (smtp:// or smtps://user:pass@host:port).
 * Each attempt times out after 10 s; temporary failures are tried up to three times. A rare
 * duplicate (the server took the mail but the answer was lost) is harmless for our mails.
 */
export function createSmtpMail(
  url: string,
  from: string,
  options: { transport?: SmtpTransport; sleep?: (ms: number) => Promise<void> } = {},
): MailPort {
  const transport =
    options.transport ??
    nodemailer.createTransport({
      url,
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
    });
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return {
    kind: 'smtp',
    async send(mail) {
      for (let attempt = 1; ; attempt += 1) {
        try {
          await transport.sendMail({ from, ...mail });
          return;
        } catch (error) {
          if (attempt >= SMTP_ATTEMPTS || !isTransientSmtpError(error)) throw error;
          await sleep(SMTP_RETRY_BASE_MS * 2 ** (attempt - 1));
        }
      }
    },
  };
}
