// The mail module as a subscriber of access changes: the mails a change of plan or access calls
// for, whoever made the change (the member in the app, an operator, the provider's portal, or
// time: the expiry watch records `ending_soon` and `ended`). The mail integration's subscriber, last in the registry.
import type { AccessChange, AccessSubscriber } from '@shared/access-changes';
import { mailKeys, type MailIntent } from '@shared/mail-intents';
import type { Db } from '../../db/client';
import { emailOfUser } from './lifecycle-mail.repository';
import { enqueueMail } from './outbox.repository';

/** An end older than this when recorded is history, not news (the watch catching up after a long stop). */
const ENDED_NOTICE_WINDOW_MS = 3 * 24 * 60 * 60 * 1000;

/** The row and period end a change of a canceled plan or comp access names (older changes name none). */
const endingRow = (change: AccessChange) => (change.rowId && change.periodEnd && change.canceled ? { rowId: change.rowId, periodEnd: change.periodEnd } : null);

export function accessMails(deps: { db: Db; mailer: { kick: () => void } }): AccessSubscriber {
  async function send(change: AccessChange, intent: (to: string) => MailIntent): Promise<void> {
    const to = await emailOfUser(deps.db, change.userId);
    if (to && (await enqueueMail(deps.db, intent(to)))) deps.mailer.kick();
  }

  return {
    name: 'mail',
    /** "Plan changed", once per change (the dedupe key is the change's). */
    async onPlanChanged(change) {
      const from = change.previousPlanType;
      if (!from) return;
      await send(change, (to) => ({ template: 'plan_changed', to, data: { from, to: change.planType }, dedupeKey: mailKeys.planChanged(change.id) }));
    },
    /** "Your access ends on {date}" three days before a canceled plan or comp access ends: one notice per row and period end, whatever its wording. */
    async onAccessEnding(change) {
      const ending = endingRow(change);
      if (!ending) return;
      const endsAt = ending.periodEnd.toISOString();
      const dedupeKey = mailKeys.accessEnding(ending.rowId, ending.periodEnd);
      await send(change, (to) =>
        change.complimentary ? { template: 'comp_ending', to, data: { endsAt }, dedupeKey } : { template: 'access_ending', to, data: { planType: change.planType, endsAt }, dedupeKey },
      );
    },
    /**
     * "Your access has ended" when a canceled plan or comp access ran out and left the member
     * without access (a change, so a member another plan still serves hears nothing). Not for a
     * renewing plan whose renewal is late, nor for a refund, a dispute or a revoke (other kinds).
     */
    async onAccessEnded(change) {
      const ended = change.kind === 'ended' ? endingRow(change) : null;
      if (!ended || ended.periodEnd.getTime() <= change.occurredAt.getTime() - ENDED_NOTICE_WINDOW_MS) return;
      const dedupeKey = mailKeys.accessEnded(ended.rowId, ended.periodEnd);
      await send(change, (to) =>
        change.complimentary
          ? { template: 'comp_ended', to, data: { endedAt: ended.periodEnd.toISOString() }, dedupeKey }
          : { template: 'access_ended', to, data: { planType: change.planType }, dedupeKey },
      );
    },
  };
}
