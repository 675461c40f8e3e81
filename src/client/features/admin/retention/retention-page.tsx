// /admin/retention: the offer for each cancellation reason (a discount or a pause), and the
// cancellations members went through with their reasons, notes, outcomes and pauses; the mails
// that bring members back (win-back, set-up reminders, checkout recovery).
import { useId, useState, type FormEvent } from 'react';
import { planDisplayName, type PlanType } from '@shared/plans';
import {
  CANCELLATION_OUTCOME_LABELS,
  CANCELLATION_REASON_LABELS,
  CANCELLATION_REASONS,
  DISCOUNT_PERCENT_MAX,
  DISCOUNT_PERCENT_MIN,
  DISCOUNT_PERIODS_MAX,
  DISCOUNT_PERIODS_MIN,
  PAUSE_MONTHS_MAX,
  PAUSE_MONTHS_MIN,
  describeOffer,
  type CancellationReason,
  type RetentionOffers,
} from '@shared/retention';
import type { CancellationEntry } from '@shared/retention-contract';
import { DataTable, type Column } from '@client/components/data-table';
import { Badge } from '@client/components/ui/badge';
import { Card, CardDescription, CardTitle } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { ApiRequestError } from '@client/lib/api/api-client';
import { AdminPageHeader, CONSOLE_FIELD, LoadError } from '@client/components/console/admin-page';
import { FormFooter, type FormResult } from '../components/form-footer';
import { CsvDownload } from '../components/csv-download';
import { dateTimeText } from '@client/lib/console-format';
import { MailsCard } from './mails-card';
import { useCancellations, useRetentionOffers, useSaveRetentionOffers } from './retention-api';

type Line = { kind: 'none' | 'discount' | 'pause'; percentOff: string; periods: string; months: string };
type Lines = Record<CancellationReason, Line>;

const linesOf = (offers: RetentionOffers): Lines =>
  Object.fromEntries(
    CANCELLATION_REASONS.map((reason) => {
      const offer = offers[reason];
      if (!offer) return [reason, { kind: 'none', percentOff: '50', periods: '2', months: '3' }];
      return [reason, offer.kind === 'discount' ? { kind: 'discount', percentOff: String(offer.percentOff), periods: String(offer.periods), months: '3' } : { kind: 'pause', percentOff: '50', periods: '2', months: String(offer.months) }];
    }),
  ) as Lines;

const offersOf = (lines: Lines): RetentionOffers =>
  Object.fromEntries(
    CANCELLATION_REASONS.map((reason) => {
      const line = lines[reason];
      if (line.kind === 'none') return [reason, null];
      return [reason, line.kind === 'discount' ? { kind: 'discount', percentOff: Number(line.percentOff), periods: Number(line.periods) } : { kind: 'pause', months: Number(line.months) }];
    }),
  ) as RetentionOffers;

/** The settings card: one line per reason, saved together. */
function OffersCard() {
  const offers = useRetentionOffers();
  if (offers.isPending) return <Spinner label="Loading offers..." />;
  if (offers.isError) return <LoadError what="the retention offers" />;
  return <OffersForm saved={offers.data} />;
}

function OffersForm({ saved: initial }: { saved: RetentionOffers }) {
  const id = useId();
  const save = useSaveRetentionOffers();
  const [lines, setLines] = useState<Lines>(() => linesOf(initial));
  const [result, setResult] = useState<FormResult>(null);
  const set = (reason: CancellationReason, change: Partial<Line>) => setLines({ ...lines, [reason]: { ...lines[reason], ...change } });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setResult(null);
    try {
      const saved = await save.mutateAsync(offersOf(lines));
      setLines(linesOf(saved));
      setResult({ ok: true, message: 'Offers saved: members see them from their next cancellation.' });
    } catch (error) {
      setResult({ ok: false, message: error instanceof ApiRequestError ? error.message : 'The offers could not be saved.' });
    }
  }

  return (
    <Card aria-labelledby={`${id}-title`} className="space-y-4">
      <div>
        <CardTitle id={`${id}-title`}>Offers when members cancel</CardTitle>
        <CardDescription>
          Per reason: a discount on the next renewals (once per member), a pause of {PAUSE_MONTHS_MIN}–{PAUSE_MONTHS_MAX} months (no charge, no access, a mail before it resumes), or none.
        </CardDescription>
      </div>
      <form className="space-y-3" onSubmit={(event) => void submit(event)} noValidate>
        {CANCELLATION_REASONS.map((reason) => {
          const line = lines[reason];
          return (
            <fieldset key={reason} className="flex flex-wrap items-end gap-3 border-b border-border pb-3" aria-label={CANCELLATION_REASON_LABELS[reason]}>
              <legend className="sr-only">{CANCELLATION_REASON_LABELS[reason]}</legend>
              <span className="w-56 text-sm font-medium">{CANCELLATION_REASON_LABELS[reason]}</span>
              <label className="grid gap-1 text-sm">
                Offer
                <select className={CONSOLE_FIELD} value={line.kind} onChange={(event) => set(reason, { kind: event.target.value as Line['kind'] })}>
                  <option value="none">None</option>
                  <option value="discount">Discount</option>
                  <option value="pause">Pause</option>
                </select>
              </label>
              {line.kind === 'discount' ? (
                <>
                  <label className="grid gap-1 text-sm">
                    Percent off
                    <input className={`${CONSOLE_FIELD} w-24`} type="number" min={DISCOUNT_PERCENT_MIN} max={DISCOUNT_PERCENT_MAX} value={line.percentOff} onChange={(event) => set(reason, { percentOff: event.target.value })} />
                  </label>
                  <label className="grid gap-1 text-sm">
                    Renewals
                    <input className={`${CONSOLE_FIELD} w-24`} type="number" min={DISCOUNT_PERIODS_MIN} max={DISCOUNT_PERIODS_MAX} value={line.periods} onChange={(event) => set(reason, { periods: event.target.value })} />
                  </label>
                </>
              ) : null}
              {line.kind === 'pause' ? (
                <label className="grid gap-1 text-sm">
                  Up to months
                  <select className={CONSOLE_FIELD} value={line.months} onChange={(event) => set(reason, { months: event.target.value })}>
                    {[1, 2, 3].map((months) => (
                      <option key={months} value={months}>
                        {months}
                      </option>
                    ))}
                  </select>
                </label>
              ) : null}
            </fieldset>
          );
        })}
        <FormFooter label="Save offers" busy={save.isPending} result={result} />
      </form>
    </Card>
  );
}

const outcomeText = (entry: CancellationEntry) =>
  entry.outcome === 'pause' && entry.pauseResumesAt ? `Paused ${entry.pauseMonths} month${entry.pauseMonths === 1 ? '' : 's'}, resumes ${dateTimeText(entry.pauseResumesAt)}` : CANCELLATION_OUTCOME_LABELS[entry.outcome];

/** The list's columns; `withMember` off on a member's own page. */
export function cancellationColumns(withMember: boolean): Column<CancellationEntry>[] {
  return [
    { header: 'When', cell: (entry) => dateTimeText(entry.createdAt) },
    ...(withMember ? [{ header: 'Member', cell: (entry: CancellationEntry) => <a className="text-primary hover:underline" href={`/admin/members/${entry.userId}`}>{entry.email}</a> }] : []),
    { header: 'Plan', cell: (entry) => planDisplayName(entry.planType as PlanType) },
    { header: 'Reason', cell: (entry) => CANCELLATION_REASON_LABELS[entry.reason] },
    { header: 'Note', cell: (entry) => <span className="line-clamp-2 max-w-xs break-words">{entry.text ?? '—'}</span> },
    { header: 'Offer', cell: (entry) => (entry.offer ? describeOffer(entry.offer) : '—') },
    { header: 'Outcome', cell: (entry) => <Badge tone={entry.outcome === 'declined' ? 'neutral' : 'green'}>{outcomeText(entry)}</Badge> },
  ];
}

function CancellationsCard() {
  const [days, setDays] = useState(90);
  const report = useCancellations(days);
  return (
    <Card className="space-y-4" aria-label="Cancellations">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <CardTitle>Cancellations</CardTitle>
          <CardDescription>Why members left or stayed, newest first.</CardDescription>
        </div>
        <label className="grid gap-1 text-sm">
          Period
          <select className={CONSOLE_FIELD} value={days} onChange={(event) => setDays(Number(event.target.value))}>
            <option value={30}>Last 30 days</option>
            <option value={90}>Last 90 days</option>
            <option value={365}>Last 12 months</option>
          </select>
        </label>
      </div>
      {report.isPending ? <Spinner label="Loading cancellations..." /> : null}
      {report.isError ? <LoadError what="the cancellations" /> : null}
      {report.data ? (
        <>
          <dl className="grid gap-3 sm:grid-cols-3">
            <div>
              <dt className="text-xs uppercase tracking-wider text-muted">Went through the flow</dt>
              <dd className="text-2xl font-semibold" data-testid="cancellations-total">{report.data.total}</dd>
            </div>
            <div>
              <dt className="text-xs uppercase tracking-wider text-muted">Paused now</dt>
              <dd className="text-2xl font-semibold" data-testid="paused-now">{report.data.pausedNow}</dd>
            </div>
          </dl>
          <DataTable
            caption="Cancellations by reason"
            rows={report.data.byReason}
            rowKey={(line) => line.reason}
            columns={[
              { header: 'Reason', cell: (line) => CANCELLATION_REASON_LABELS[line.reason] },
              { header: 'Canceled', cell: (line) => line.declined },
              { header: 'Took the discount', cell: (line) => line.discount },
              { header: 'Paused', cell: (line) => line.pause },
            ]}
          />
          {report.data.entries.length === 0 ? <p className="text-sm text-muted">No cancellations in this period.</p> : <DataTable caption="Cancellations" rows={report.data.entries} rowKey={(entry) => entry.id} columns={cancellationColumns(true)} />}
        </>
      ) : null}
    </Card>
  );
}

/** A member's own cancellations, on their page in the console. */
export function MemberCancellations({ userId }: { userId: string }) {
  const report = useCancellations(3650, userId);
  if (!report.data || report.data.entries.length === 0) return null;
  return (
    <Card className="space-y-3" aria-label="Cancellation feedback">
      <CardTitle>Cancellation feedback</CardTitle>
      <DataTable caption="Cancellation feedback" rows={report.data.entries} rowKey={(entry) => entry.id} columns={cancellationColumns(false)} />
    </Card>
  );
}

/** /admin/retention */
export function RetentionPage() {
  return (
    <div className="space-y-6">
      <AdminPageHeader title="Cancellations" description="The reasons members give when they cancel, the offers that keep them, the pauses running, and the mails that bring members back.">
        <CsvDownload kind="churn-reasons" />
      </AdminPageHeader>
      <OffersCard />
      <MailsCard />
      <CancellationsCard />
    </div>
  );
}
