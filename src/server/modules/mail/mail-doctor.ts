// Mail, as `npm run doctor` checks it: the SMTP server answers and takes the login, and the sender.
import type { MailSettings } from '@shared/mail/settings';
import { ok, problem, sandbox, type Check } from '../../doctor-report';

const SMTP_CHECK_TIMEOUT_MS = 10_000;

/** 'Shop <mail@shop.com>' or 'mail@shop.com'. */
const SENDER = /^(?:[^<>]*<\s*)?[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+\s*>?$/;

function hostOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || (parsed.protocol === 'smtps:' ? '465' : '587')}`;
}

async function checkSmtp(url: string, timeoutMs: number): Promise<Check> {
  // loaded only by a shop that has SMTP to check: the server imports this module at start
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport({ url, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs });
  try {
    await transport.verify();
    return ok('Mail', `SMTP server ${hostOf(url)} answers and accepts the login`);
  } catch (error) {
    return problem('Mail', `SMTP server ${hostOf(url)} does not work: ${error instanceof Error ? error.message : String(error)}`, 'check SMTP_URL (smtp://user:password@host:587, or smtps:// for port 465) with your mail provider');
  } finally {
    transport.close();
  }
}

function checkSender(from: string): Check {
  if (SENDER.test(from)) return ok('Mail', `mails are sent from ${from}`);
  return problem('Mail', `the sender "${from}" is not an e-mail address`, 'set MAIL_FROM, e.g. "Your Shop <support@your.shop>", to an address your SMTP server may send from');
}

export async function checkMail(settings: MailSettings, options: { timeoutMs?: number } = {}): Promise<Check[]> {
  if (settings.kind === 'outbox') return [sandbox('Mail', 'no SMTP_URL: mails land in the outbox at /sandbox/mailbox')];
  return [await checkSmtp(settings.url, options.timeoutMs ?? SMTP_CHECK_TIMEOUT_MS), checkSender(settings.from)];
}
