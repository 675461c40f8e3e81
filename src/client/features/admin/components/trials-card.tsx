import { formatMoney, planDisplayName } from '@shared/plans';
import { repeatReasonText, TRIAL_OUTCOME_LABELS, type TrialOutcome } from '@shared/trials';
import type { TrialsReport } from '@shared/trials-contract';
import { TableScroll } from '@client/components/data-table';
import { Badge } from '@client/components/ui/badge';
import { Card, CardDescription, CardTitle } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { useTrialsReport } from '../api/get-trials';
import { dateText } from '@client/lib/console-format';

const OUTCOME_TONES: Record<TrialOutcome, 'green' | 'neutral' | 'red' | 'yellow'> = { running: 'yellow', converted: 'green', canceled: 'neutral', refused_repeat: 'red' };

function TrialsTable({ trials, showEmail }: { trials: TrialsReport['trials']; showEmail: boolean }) {
  if (trials.length === 0) return <p className="text-sm text-muted">No free trial yet.</p>;
  return (
    <TableScroll>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Free trials</caption>
        <thead className="text-xs uppercase tracking-wider text-muted">
          <tr>
            {showEmail ? <th className="py-2 pr-3 font-medium">Buyer</th> : null}
            <th className="py-2 pr-3 font-medium">Plan</th>
            <th className="py-2 pr-3 font-medium">Started</th>
            <th className="py-2 pr-3 font-medium">Ends</th>
            <th className="py-2 pr-3 font-medium">Outcome</th>
            <th className="py-2 pr-3 font-medium">TradingView</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {trials.map((trial) => (
            <tr key={trial.id}>
              {showEmail ? <td className="py-2 pr-3 text-white">{trial.email}</td> : null}
              <td className="py-2 pr-3">
                {planDisplayName(trial.planType)} · then {formatMoney(trial.amount, trial.currency)}
              </td>
              <td className="py-2 pr-3">{dateText(trial.startedAt)}</td>
              <td className="py-2 pr-3">{dateText(trial.endsAt)}</td>
              <td className="py-2 pr-3">
                <Badge tone={OUTCOME_TONES[trial.outcome]}>{TRIAL_OUTCOME_LABELS[trial.outcome]}</Badge>
                {trial.repeatReason ? <span className="ml-2 text-muted">{repeatReasonText(trial.repeatReason)}</span> : null}
              </td>
              <td className="py-2 pr-3">{trial.tradingviewUsername ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** Free trials: the last 30 days' conversions and refused repeats (Overview), or one member's trials. */
export function TrialsCard({ userId }: { userId?: string }) {
  const report = useTrialsReport(userId);
  if (report.data && !userId && report.data.trialDays === 0 && report.data.started === 0) return null;
  return (
    <Card aria-labelledby="trials-title" className="space-y-4">
      <div>
        <CardTitle id="trials-title">Free trials</CardTitle>
        <CardDescription>{userId ? "This member's free trials." : 'Trials started in the last 30 days: conversions, cancellations and repeats refused (charged at once).'}</CardDescription>
      </div>
      {report.isPending ? (
        <Spinner label="Loading the trials..." />
      ) : report.isError ? (
        <p role="alert" className="text-sm text-danger">
          Could not load the trials.
        </p>
      ) : (
        <>
          {userId ? null : (
            <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-5" aria-label="Trials by outcome">
              {(['running', 'converted', 'canceled', 'refused_repeat'] as const).map((outcome) => (
                <div key={outcome}>
                  <dt className="text-muted">{TRIAL_OUTCOME_LABELS[outcome]}</dt>
                  <dd className="text-lg font-semibold text-white">{report.data.counts[outcome]}</dd>
                </div>
              ))}
              <div>
                <dt className="text-muted">Conversion</dt>
                <dd className="text-lg font-semibold text-white">{report.data.conversionRate === null ? '—' : `${report.data.conversionRate} %`}</dd>
              </div>
            </dl>
          )}
          {userId || report.data.counts.refused_repeat === 0 ? null : (
            <p className="text-sm text-muted">
              Refused repeats: {report.data.refusedByReason.email} by e-mail, {report.data.refusedByReason.card} by card, {report.data.refusedByReason.tradingview_username} by TradingView username.
            </p>
          )}
          <TrialsTable trials={userId ? report.data.trials : report.data.trials.slice(0, 10)} showEmail={!userId} />
        </>
      )}
    </Card>
  );
}
