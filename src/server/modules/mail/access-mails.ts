// The mail module as a subscriber of access changes: the mails a change of plan or access calls
// for, whoever made the change (the member in the app, an operator, the provider's portal).
import type { AccessSubscriber } from '@shared/access-changes';
import { mailKeys } from '@shared/mail-intents';
import type { Db } from '../../db/client';
import { emailOfUser } from './lifecycle-mail.repository';
import { enqueueMail } from './outbox.repository';

export function accessMails(deps: { db: Db; mailer: { kick: () => void } }): AccessSubscriber {
  return {
    name: 'mail',
    /** "Plan changed", once per change (the dedupe key is the change's). */
    async onPlanChanged(change) {
      const to = await emailOfUser(deps.db, change.userId);
      if (!to || !change.previousPlanType) return;
      const queued = await enqueueMail(deps.db, { template: 'plan_changed', to, data: { from: change.previousPlanType, to: change.planType }, dedupeKey: mailKeys.planChanged(change.id) });
      if (queued) deps.mailer.kick();
    },
  };
}
