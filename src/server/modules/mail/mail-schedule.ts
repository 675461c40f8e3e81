// The timed mails: the 24 h "finish setting up" reminder and the notice before a paused plan
// resumes. A pass only writes outbox intents with dedupe keys, so it is safe on any number of
// instances and at any frequency; the clock is injected. ("Access ends on {date}" and "access
// ended" follow the access changes the expiry watch records: access-mails.ts.)
import type { Db } from '../../db/client';
import { createBackgroundLoop } from '../../jobs/background-loop';
import type { Logger } from '../../logger';
import { FINISH_SETUP_LINK_TTL_MS } from '@shared/timing';
import { mailKeys, type MailIntent } from '@shared/mail-intents';
import { unclaimedPaidCheckouts } from '../provider-records/checkout-session-reads';
import { enqueueMail } from './outbox.repository';
import { pausesResumingSoon } from '../retention/retention.repository';

const HOUR_MS = 60 * 60 * 1000;
const REMINDER_AFTER_MS = 24 * HOUR_MS;
const RESUMING_NOTICE_MS = 3 * 24 * HOUR_MS;
const SCHEDULE_INTERVAL_MS = 10 * 60_000;

export type ScheduleSummary = { reminders: number; resuming: number };

/** One pass at `now`; answers how many new mails it wrote. */
export async function runMailSchedule(db: Db, now: Date): Promise<ScheduleSummary> {
  const summary: ScheduleSummary = { reminders: 0, resuming: 0 };
  for (const session of await unclaimedPaidCheckouts(db, now, REMINDER_AFTER_MS, FINISH_SETUP_LINK_TTL_MS)) {
    const data = { sessionId: session.id, planType: session.planType };
    if (await enqueueMail(db, { template: 'finish_setup_reminder', to: session.email, data, dedupeKey: mailKeys.finishSetupReminder(session.id) })) summary.reminders += 1;
  }
  // A member's pause (decision 052): one notice three days before the plan renews and charges again.
  for (const pause of await pausesResumingSoon(db, now, RESUMING_NOTICE_MS)) {
    if (!pause.resumesAt) continue;
    const intent: MailIntent = { template: 'pause_resuming', to: pause.email, data: { planType: pause.planType, resumesAt: pause.resumesAt.toISOString() }, dedupeKey: mailKeys.pauseResuming(pause.id) };
    if (await enqueueMail(db, intent)) summary.resuming += 1;
  }
  return summary;
}

export type MailSchedule = { start: () => void; stop: () => Promise<void> };

/** The schedule's loop for main.ts; wakes the mail worker when a pass wrote mails. */
export function createMailSchedule(deps: { db: Db; clock: () => Date; logger: Logger; mailer: { kick: () => void } }): MailSchedule {
  const loop = createBackgroundLoop({
    async pass() {
      const summary = await runMailSchedule(deps.db, deps.clock());
      if (summary.reminders + summary.resuming > 0) {
        deps.logger.info(summary, 'timed mails written');
        deps.mailer.kick();
      }
    },
    intervalMs: SCHEDULE_INTERVAL_MS,
    logger: deps.logger,
    label: 'mail schedule',
  });
  return { start: loop.start, stop: loop.stop };
}
