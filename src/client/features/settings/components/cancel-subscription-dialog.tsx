// Settings → Subscription → Cancel subscription: the member picks a reason (with a note), sees
// the operator's offer for it (a discount, or a pause of up to N months) and takes it, or cancels
// at the period's end. The server decides what is offered and refuses anything else.
import { useId, useState } from 'react';
import { CANCELLATION_REASON_LABELS, CANCELLATION_REASONS, describeOffer, REASON_TEXT_MAX, type CancellationReason } from '@shared/retention';
import { formatDisplayDate } from '@shared/subscription-view';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent } from '@client/components/ui/dialog';
import { Spinner } from '@client/components/ui/spinner';
import { ApiRequestError } from '@client/lib/api/api-client';
import { notifySuccess } from '@client/lib/notify';
import { useCancellationOptions, useChooseCancellation } from '../api/cancellation';
import { useRefreshSubscription } from '../api/refresh-subscription';

export const CANCEL_DIALOG_TEXTS = {
  open: 'Cancel subscription',
  title: 'Why are you leaving?',
  next: 'Continue',
  decline: 'Cancel at period end',
  keep: 'Keep my plan',
} as const;

export function CancelSubscription() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="ghost" className="w-full text-muted" onClick={() => setOpen(true)}>
        {CANCEL_DIALOG_TEXTS.open}
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        {open ? <CancelFlow onClose={() => setOpen(false)} /> : null}
      </Dialog>
    </>
  );
}

function CancelFlow({ onClose }: { onClose: () => void }) {
  const id = useId();
  const options = useCancellationOptions(true);
  const refresh = useRefreshSubscription();
  const choose = useChooseCancellation(() => refresh().catch(() => undefined));
  const [reason, setReason] = useState<CancellationReason | null>(null);
  const [text, setText] = useState('');
  const [step, setStep] = useState<'reason' | 'offer'>('reason');
  const [months, setMonths] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  if (options.isPending) {
    return (
      <DialogContent title={CANCEL_DIALOG_TEXTS.title}>
        <Spinner label="Loading..." />
      </DialogContent>
    );
  }
  if (options.isError || !options.data) {
    return (
      <DialogContent title={CANCEL_DIALOG_TEXTS.title}>
        <p role="alert" className="text-sm text-danger">Your plan could not be read. Please try again.</p>
      </DialogContent>
    );
  }
  const data = options.data;
  if (data.blocked) {
    return (
      <DialogContent title="Cancel subscription">
        <p role="status" className="text-sm">{data.blocked}</p>
        {data.pause ? <p className="mt-2 text-sm text-muted">Paused: nothing is charged until {formatDisplayDate(new Date(data.pause.resumesAt))}.</p> : null}
        <div className="mt-5 flex justify-end">
          <Button variant="secondary" onClick={onClose}>Close</Button>
        </div>
      </DialogContent>
    );
  }
  const offer = reason ? data.offers[reason] : null;
  const periodEnd = data.subscription?.currentPeriodEnd ? formatDisplayDate(new Date(data.subscription.currentPeriodEnd)) : null;

  async function submit(choice: 'declined' | 'discount' | 'pause') {
    if (!reason) return;
    setError(null);
    try {
      const answer = await choose.mutateAsync({ reason, text: text.trim() || undefined, choice, ...(choice === 'pause' ? { pauseMonths: months ?? (offer?.kind === 'pause' ? offer.months : 1) } : {}) });
      notifySuccess({ title: answer.outcome === 'declined' ? 'Subscription canceled' : 'Thank you for staying', description: answer.message });
      onClose();
    } catch (failure) {
      setError(failure instanceof ApiRequestError ? failure.message : 'That did not work. Please try again.');
    }
  }

  if (step === 'offer' && reason) {
    return (
      <DialogContent title={offer ? 'Before you go' : 'Cancel subscription'} description={periodEnd ? `If you cancel, you keep access until ${periodEnd} and nothing more is charged.` : undefined}>
        {offer?.kind === 'pause' ? (
          <fieldset className="space-y-2" aria-describedby={`${id}-pause`}>
            <legend id={`${id}-pause`} className="text-sm font-medium">Take a break instead: keep access until {periodEnd ?? 'your period ends'}, then nothing is charged while paused. We e-mail you before it resumes.</legend>
            <div className="flex gap-2">
              {Array.from({ length: offer.months }, (_, index) => index + 1).map((count) => (
                <label key={count} className="flex items-center gap-2 rounded-lg border border-border px-3 py-2 text-sm">
                  <input type="radio" name={`${id}-months`} checked={(months ?? offer.months) === count} onChange={() => setMonths(count)} />
                  {count} month{count === 1 ? '' : 's'}
                </label>
              ))}
            </div>
            <Button className="w-full" disabled={choose.isPending} onClick={() => void submit('pause')}>
              Pause for {months ?? offer.months} month{(months ?? offer.months) === 1 ? '' : 's'}
            </Button>
          </fieldset>
        ) : null}
        {offer?.kind === 'discount' ? (
          <div className="space-y-2">
            <p className="text-sm font-medium">Stay with {describeOffer(offer)}.</p>
            <Button className="w-full" disabled={choose.isPending} onClick={() => void submit('discount')}>
              Take {offer.percentOff} % off
            </Button>
          </div>
        ) : null}
        {error ? <p role="alert" className="mt-3 text-sm text-danger">{error}</p> : null}
        <div className="mt-5 flex justify-between gap-3">
          <Button variant="secondary" disabled={choose.isPending} onClick={onClose}>{CANCEL_DIALOG_TEXTS.keep}</Button>
          <Button variant="outline" disabled={choose.isPending} onClick={() => void submit('declined')}>{CANCEL_DIALOG_TEXTS.decline}</Button>
        </div>
      </DialogContent>
    );
  }

  return (
    <DialogContent title={CANCEL_DIALOG_TEXTS.title} description="Your answer helps us improve.">
      <fieldset className="space-y-2">
        <legend className="sr-only">Reason</legend>
        {CANCELLATION_REASONS.map((value) => (
          <label key={value} className="flex items-center gap-2 text-sm">
            <input type="radio" name={`${id}-reason`} value={value} checked={reason === value} onChange={() => setReason(value)} />
            {CANCELLATION_REASON_LABELS[value]}
          </label>
        ))}
      </fieldset>
      <label className="mt-3 grid gap-1 text-sm">
        {reason === 'other' ? 'Tell us more' : 'Anything else? (optional)'}
        <textarea className="min-h-20 rounded-lg border border-border bg-transparent p-2 text-sm" maxLength={REASON_TEXT_MAX} value={text} onChange={(event) => setText(event.target.value)} />
        <span className="text-xs text-muted">{text.length} / {REASON_TEXT_MAX}</span>
      </label>
      <div className="mt-5 flex justify-between gap-3">
        <Button variant="secondary" onClick={onClose}>{CANCEL_DIALOG_TEXTS.keep}</Button>
        <Button disabled={reason === null} onClick={() => setStep('offer')}>{CANCEL_DIALOG_TEXTS.next}</Button>
      </div>
    </DialogContent>
  );
}
