import { Gift, Info } from 'lucide-react';
import { useState } from 'react';
import { formatMoney } from '@shared/plans';
import { formatDisplayDate } from '@shared/subscription-view';
import { chargePeriod, repeatReasonText } from '@shared/trials';
import type { MemberTrial } from '@shared/trials-contract';
import { useMemberTrial } from '@client/lib/api/trial';

/** How long after a refusal the dashboard still explains it (settings always do). */
const RECENT_REFUSAL_MS = 14 * 24 * 60 * 60 * 1000;

/** What the member reads about their trial: when it ends and what is then charged, or why it was refused. */
export function trialNoticeText(trial: MemberTrial, canceled: boolean): string | null {
  const amount = `${formatMoney(trial.amount, trial.currency)}${chargePeriod(trial.planType)}`;
  if (trial.outcome === 'running') {
    const end = formatDisplayDate(new Date(trial.endsAt));
    return canceled ? `Your free trial ends on ${end}. It is canceled: nothing will be charged.` : `Free trial until ${end}. Then ${amount} is charged unless you cancel before.`;
  }
  if (trial.outcome === 'refused_repeat' && trial.repeatReason) {
    return `No free trial: ${repeatReasonText(trial.repeatReason)} Free trials are one per person, so your plan started now and ${formatMoney(trial.amount, trial.currency)} was charged.`;
  }
  return null;
}

/**
 * The member's trial notice. `recentRefusalOnly` (the dashboard): only a refusal of the last two
 * weeks, so the buyer who lands there after activation reads why they were charged.
 */
export function TrialNotice({ canceled = false, recentRefusalOnly = false }: { canceled?: boolean; recentRefusalOnly?: boolean }) {
  const { data: trial } = useMemberTrial();
  // read once: the notice does not change while the page is open
  const [openedAt] = useState(() => Date.now());
  if (!trial) return null;
  if (recentRefusalOnly && (trial.outcome !== 'refused_repeat' || openedAt - Date.parse(trial.startedAt) > RECENT_REFUSAL_MS)) return null;
  const text = trialNoticeText(trial, canceled);
  if (!text) return null;
  const refused = trial.outcome === 'refused_repeat';
  const Icon = refused ? Info : Gift;
  return (
    <p role="status" data-testid="trial-notice" className={`flex items-start gap-2 rounded-xl border px-4 py-3 text-sm ${refused ? 'border-yellow-400/40 bg-yellow-400/10 text-yellow-200' : 'border-primary/40 bg-primary/10 text-foreground'}`}>
      <Icon className="mt-0.5 h-4 w-4 flex-none" aria-hidden="true" />
      {text}
    </p>
  );
}
