import { useState } from 'react';
import type { MemberDetail } from '@shared/admin-contract';
import type { MemberAction } from '@shared/member-actions';
import { FREE_DAYS_MAX, FREE_DAYS_MIN, type PausedAccess } from '@shared/support-actions';
import { Input, Label } from '@client/components/ui/input';
import { useAddFreeDays } from './api/add-free-days';
import { useBanMember } from './api/ban-member';
import { usePauseCollection } from './api/pause-collection';
import { useResumeCollection } from './api/resume-collection';
import { ConfirmAction } from '@client/components/console/confirm-action';

const FIELD = 'h-9 w-full rounded-lg border border-border bg-transparent px-2 text-sm';

/**
 * The member page's support actions: free days, a pause of collection (or its resumption while
 * paused) and a ban. Each is confirmed in a dialog; one that does not apply (a lifetime plan, no
 * renewing plan, a ban already) is disabled with the reason, and the server refuses it too.
 */
export function SupportActions({ member, blocks }: { member: MemberDetail; blocks: Record<MemberAction, string | null> }) {
  const id = member.account.id;
  const freeDays = useAddFreeDays();
  const pause = usePauseCollection();
  const resume = useResumeCollection();
  const ban = useBanMember();
  const [days, setDays] = useState('7');
  const [access, setAccess] = useState<PausedAccess>('keep');
  const [refund, setRefund] = useState(false);
  const [reason, setReason] = useState('');
  const paused = member.subscriptions.some((row) => row.collectionPaused);

  return (
    <>
      <ConfirmAction
        label="Add free days"
        title="Add free days"
        description="The plan's paid time ends later and its next charge moves with it; nothing is charged for the days. Lifetime plans never end, so they take none."
        confirmLabel="Add days"
        blocked={blocks.freeDays}
        run={() => freeDays.mutateAsync({ memberId: id, days: Number(days) })}
      >
        <div className="space-y-1">
          <Label htmlFor="admin-free-days">Free days</Label>
          <Input id="admin-free-days" type="number" min={FREE_DAYS_MIN} max={FREE_DAYS_MAX} step={1} value={days} onChange={(event) => setDays(event.target.value)} required />
        </div>
      </ConfirmAction>
      {paused ? (
        <ConfirmAction
          label="Resume collection"
          title="Resume collection"
          description="The plan renews and charges again as before; access stopped by the pause comes back now."
          confirmLabel="Resume"
          blocked={blocks.collection}
          run={() => resume.mutateAsync(id)}
        />
      ) : (
        <ConfirmAction
          label="Pause collection"
          title="Pause collection"
          description="Nothing is charged until you resume: the renewals of the paused time are voided."
          confirmLabel="Pause"
          blocked={blocks.collection}
          run={() => pause.mutateAsync({ memberId: id, access })}
        >
          <div className="space-y-1">
            <Label htmlFor="admin-pause-access">Access while paused</Label>
            <select id="admin-pause-access" className={FIELD} value={access} onChange={(event) => setAccess(event.target.value as PausedAccess)}>
              <option value="keep">Keep access</option>
              <option value="stop">Stop access until resumed</option>
            </select>
          </div>
        </ConfirmAction>
      )}
      <ConfirmAction
        label="Ban member"
        variant="danger"
        title="Ban this member"
        description="Access ends now on the site, TradingView and Discord; every subscription is canceled at the payment provider so no renewal charges or brings access back; the account and its e-mail can no longer buy."
        confirmLabel="Ban member"
        blocked={blocks.ban}
        run={() => ban.mutateAsync({ memberId: id, refundLastPayment: refund, ...(reason.trim() ? { reason: reason.trim() } : {}) })}
      >
        <div className="space-y-3">
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={refund} onChange={(event) => setRefund(event.target.checked)} />
            Refund the last payment
          </label>
          <div className="space-y-1">
            <Label htmlFor="admin-ban-reason">Reason (kept in the audit log)</Label>
            <Input id="admin-ban-reason" value={reason} maxLength={500} onChange={(event) => setReason(event.target.value)} />
          </div>
        </div>
      </ConfirmAction>
    </>
  );
}
