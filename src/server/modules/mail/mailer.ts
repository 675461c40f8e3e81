// The outbox worker: renders due mail intents and hands them to the sender (SMTP, or in the
// sandbox the mailbox itself), with retries and exponential back-off. Rows are claimed with
// FOR UPDATE SKIP LOCKED and leased, so any number of instances send each mail once; a crash
// mid-send leaves the row to be claimed again when its lease lapses.
import type { Db } from '../../db/client';
import { createBackgroundLoop } from '../../jobs/background-loop';
import type { Logger } from '../../logger';
import type { MailIntent, MailIntentData, MailTemplate } from '@shared/mail-intents';
import type { MailPort } from './mail.port';
import type { MailContext, RenderedMail } from './mail-templates';
import { claimDueMails, enqueueMail, markMailFailed, markMailSent, type OutboxRow } from './outbox.repository';

/** Tries before a mail is given up (about 17 hours of back-off in all). */
export const MAIL_MAX_ATTEMPTS = 10;
const RETRY_BASE_MS = 30_000;
const RETRY_MAX_MS = 4 * 60 * 60 * 1000;
/**
 * Longer than one send can take (the SMTP adapter times out after 10 s in each of its three
 * stages), short enough that mails a killed instance held go out within a minute elsewhere.
 * Each mail is claimed just before its own send, so a slow batch never outlives its lease.
 */
export const MAIL_LEASE_MS = 45_000;

/** 30 s, 1 min, 2 min, … capped at 4 h: the wait after the `attempts`-th failed try. */
export const mailRetryDelayMs = (attempts: number) => Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1), RETRY_MAX_MS);

/** A 5xx SMTP answer (bad address, refused sender) will not get better by waiting. */
const isPermanent = (error: unknown) => {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};

export type MailerSummary = { sent: number; failed: number };

export type Mailer = {
  /** Writes a mail outside any event transaction and tries it at once in the background (auth mails). */
  sendSoon: (intent: MailIntent) => Promise<void>;
  /** One pass over the due mails. */
  runOnce: () => Promise<MailerSummary>;
  render: (row: Pick<OutboxRow, 'template' | 'data' | 'createdAt'>) => Promise<RenderedMail>;
  start: () => void;
  stop: () => Promise<void>;
  /** Asks a started loop for a pass now (after a commit that wrote mails). */
  kick: () => void;
};

export function createMailer(options: { db: Db; sender: MailPort; context: MailContext; logger: Logger; clock: () => Date; intervalMs?: number }): Mailer {
  const { db, sender, context, logger, clock } = options;
  const intervalMs = options.intervalMs ?? 2_000;

  // The templates (React and its server renderer) load with the first mail to send, not at start.
  const render = async (row: Pick<OutboxRow, 'template' | 'data' | 'createdAt'>) =>
    (await import('./mail-templates')).renderMail(row.template, row.data as MailIntentData[MailTemplate], context, row.createdAt);

  async function deliver(row: OutboxRow): Promise<boolean> {
    let rendered: RenderedMail | null = null;
    try {
      rendered = await render(row);
      await sender.send({ to: row.to, ...rendered });
      await markMailSent(db, row.id, rendered, clock());
      logger.info({ mailId: row.id, template: row.template, to: row.to, attempts: row.attempts }, 'mail sent');
      return true;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const giveUp = isPermanent(error) || row.attempts >= MAIL_MAX_ATTEMPTS;
      const retryAt = giveUp ? null : new Date(clock().getTime() + mailRetryDelayMs(row.attempts));
      await markMailFailed(db, row.id, message, retryAt, rendered);
      logger.warn({ mailId: row.id, template: row.template, to: row.to, attempts: row.attempts, retryAt, err: message }, giveUp ? 'mail given up' : 'mail failed; will retry');
      return false;
    }
  }

  async function runOnce(): Promise<MailerSummary> {
    const summary: MailerSummary = { sent: 0, failed: 0 };
    for (;;) {
      const [row] = await claimDueMails(db, clock(), MAIL_LEASE_MS, 1);
      if (!row) return summary;
      if (await deliver(row)) summary.sent += 1;
      else summary.failed += 1;
    }
  }

  // runOnce drains the due mails itself, so a pass never asks for another one at once.
  const loop = createBackgroundLoop({ pass: () => runOnce().then(() => false), intervalMs, logger, label: 'mail worker' });

  return {
    async sendSoon(intent) {
      await enqueueMail(db, intent);
      // The loop would send it within its interval; a reset link should not wait that long.
      void runOnce().catch((error: unknown) => logger.error({ err: error }, 'immediate mail send failed; the worker retries'));
    },
    runOnce,
    render,
    start: loop.start,
    stop: loop.stop,
    kick: loop.kick,
  };
}
