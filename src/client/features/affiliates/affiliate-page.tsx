// Refer & earn: the program's terms and a Join button, then the affiliate's link (with a copy
// button), clicks, sign-ups, trials, sales, earnings by status, the payout address and history.
// In the member area (/dashboard/affiliate) and, for a signed-in person without a plan, at /refer.
import { useId, useState, type FormEvent } from 'react';
import { REFUSAL_TEXT, type RefusalReason } from '@shared/affiliates';
import type { AffiliateSummary, ProgramResponse } from '@shared/affiliates-contract';
import { formatMoney, planDisplayName, isPlanType } from '@shared/plans';
import { Badge, type BadgeTone } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card, CardDescription, CardTitle } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { ApiRequestError } from '@client/lib/api/api-client';
import { useAffiliateSummary, useJoin, useProgram, useRequestPromotionCode, useSetPayoutAddress } from './affiliates-api';

export const AFFILIATE_TEXTS = {
  title: 'Refer & earn',
  join: 'Join the affiliate program',
  joining: 'Joining…',
  copy: 'Copy link',
  copied: 'Copied',
  savePayout: 'Save payout address',
  loadFailed: 'Your affiliate page could not be loaded. Please try again.',
} as const;

const STATUS_TONE: Record<AffiliateSummary['history'][number]['status'], BadgeTone> = { pending: 'yellow', approved: 'green', paid: 'green', reversed: 'red', refused: 'neutral' };

const messageOf = (error: unknown, fallback: string) => (error instanceof ApiRequestError ? error.message : fallback);

function Terms({ terms }: { terms: ProgramResponse['terms'] }) {
  return (
    <p className="text-sm leading-6 text-muted">
      You earn {terms.commission} {terms.duration} of the people you refer. Your link remembers them for {terms.cookieDays} days; a commission is approved {terms.holdDays} days after the payment
      (a refund or dispute takes it back) and paid once your balance reaches {formatMoney(terms.minimumPayout, terms.currency)}.
    </p>
  );
}

function JoinCard({ program }: { program: ProgramResponse }) {
  const join = useJoin();
  return (
    <Card className="space-y-4">
      <CardTitle>Sell our indicators, earn a commission</CardTitle>
      <Terms terms={program.terms} />
      {program.refusal ? (
        <p role="note" className="text-sm text-warning">
          {program.refusal}
        </p>
      ) : (
        <Button disabled={join.isPending} onClick={() => join.mutate()}>
          {join.isPending ? AFFILIATE_TEXTS.joining : AFFILIATE_TEXTS.join}
        </Button>
      )}
      {join.isError ? (
        <p role="alert" className="text-sm text-danger">
          {messageOf(join.error, 'You could not join. Please try again.')}
        </p>
      ) : null}
    </Card>
  );
}

function LinkCard({ summary }: { summary: AffiliateSummary }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    await navigator.clipboard?.writeText(summary.link).catch(() => undefined);
    setCopied(true);
  }
  return (
    <Card className="space-y-3">
      <CardTitle>Your link</CardTitle>
      <CardDescription>Share it anywhere: it works on every page of the shop, including /eu and the price list. Your code is {summary.code}.</CardDescription>
      <div className="flex flex-wrap items-center gap-3">
        <code data-testid="affiliate-link" className="rounded-lg border border-border bg-black/30 px-3 py-2 font-mono text-sm text-white">
          {summary.link}
        </code>
        <Button variant="outline" onClick={() => void copy()}>
          {copied ? AFFILIATE_TEXTS.copied : AFFILIATE_TEXTS.copy}
        </Button>
      </div>
      {summary.status === 'suspended' ? (
        <p role="alert" className="text-sm text-danger">
          Your affiliate account is suspended: your link earns nothing for now. Contact support to find out why.
        </p>
      ) : null}
      {summary.promotionCode ? (
        <p className="text-sm text-muted" data-testid="affiliate-promotion-code">
          Buyers who use the promotion code {summary.promotionCode} (10 % off their first payment) count as yours, whatever link they came from.
        </p>
      ) : summary.status === 'active' ? (
        <PromotionCodeButton />
      ) : null}
    </Card>
  );
}

function PromotionCodeButton() {
  const request = useRequestPromotionCode();
  return (
    <div className="space-y-2">
      <Button variant="outline" disabled={request.isPending} onClick={() => request.mutate()}>
        Get a promotion code (10 % off for your buyers)
      </Button>
      {request.isError ? (
        <p role="alert" className="text-sm text-danger">
          {messageOf(request.error, 'No promotion code could be made. Please try again.')}
        </p>
      ) : null}
    </div>
  );
}

function Stat({ label, value, testId }: { label: string; value: string | number; testId?: string }) {
  return (
    <div className="rounded-2xl border border-border bg-card/60 p-4">
      <dt className="text-xs uppercase tracking-wider text-muted">{label}</dt>
      <dd className="mt-1 text-xl font-semibold text-white" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function PayoutCard({ summary }: { summary: AffiliateSummary }) {
  const id = useId();
  const save = useSetPayoutAddress();
  const [email, setEmail] = useState(summary.payoutEmail ?? '');
  const [done, setDone] = useState(false);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setDone(false);
    await save.mutateAsync(email).then(() => setDone(true), () => undefined);
  }
  return (
    <Card className="space-y-3">
      <CardTitle id={`${id}-title`}>Payout address</CardTitle>
      <CardDescription>The e-mail of your PayPal or Wise account. Payouts go out with the shop&apos;s payout runs once your balance reaches the minimum.</CardDescription>
      <form className="flex flex-wrap items-end gap-3" onSubmit={(event) => void submit(event)} noValidate>
        <label className="grid gap-1 text-sm">
          PayPal or Wise e-mail
          <input className="h-9 w-72 rounded-lg border border-border bg-transparent px-2 text-sm" value={email} onChange={(event) => setEmail(event.target.value)} maxLength={320} />
        </label>
        <Button type="submit" disabled={save.isPending}>
          {AFFILIATE_TEXTS.savePayout}
        </Button>
      </form>
      {save.isError ? (
        <p role="alert" className="text-sm text-danger">
          {messageOf(save.error, 'The address could not be saved.')}
        </p>
      ) : done ? (
        <p role="status" className="text-sm text-green-400">
          Saved.
        </p>
      ) : null}
    </Card>
  );
}

const planName = (plan: string) => (isPlanType(plan) ? planDisplayName(plan) : plan);
const reasonText = (reason: string | null) => (reason === null ? '' : reason in REFUSAL_TEXT ? REFUSAL_TEXT[reason as RefusalReason] : reason === 'refunded' ? 'Refunded.' : reason === 'disputed' ? 'Disputed.' : reason);

function History({ summary }: { summary: AffiliateSummary }) {
  return (
    <Card className="space-y-3">
      <CardTitle>History</CardTitle>
      {summary.history.length === 0 ? (
        <p className="text-sm text-muted">No referred payments yet.</p>
      ) : (
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Commissions</caption>
          <thead className="text-xs uppercase text-muted">
            <tr>
              <th className="py-2">Date</th>
              <th>Plan</th>
              <th>Payment</th>
              <th>Commission</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {summary.history.map((item) => (
              <tr key={item.id} className="border-t border-border">
                <td className="py-2">{item.at.slice(0, 10)}</td>
                <td>{planName(item.planType)}</td>
                <td>{formatMoney(item.base, item.currency)}</td>
                <td>{formatMoney(item.amount, item.currency)}</td>
                <td title={reasonText(item.reason)}>
                  <Badge tone={STATUS_TONE[item.status]}>{item.status}</Badge> <span className="text-xs text-muted">{reasonText(item.reason)}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {summary.payouts.length > 0 ? (
        <ul className="space-y-1 text-sm text-muted" aria-label="Payouts">
          {summary.payouts.map((payout) => (
            <li key={payout.id}>
              {payout.at.slice(0, 10)}: {formatMoney(payout.amount, payout.currency)} sent to {payout.email}
            </li>
          ))}
        </ul>
      ) : null}
    </Card>
  );
}

function Dashboard({ summary }: { summary: AffiliateSummary }) {
  const money = (amount: number) => formatMoney(amount, summary.currency);
  return (
    <div className="space-y-6">
      <LinkCard summary={summary} />
      <dl className="grid gap-3 sm:grid-cols-4" aria-label="Your referrals">
        <Stat label="Clicks" value={summary.clicks} testId="affiliate-clicks" />
        <Stat label="Sign-ups" value={summary.signups} />
        <Stat label="Trials" value={summary.trials} />
        <Stat label="Sales" value={summary.sales} testId="affiliate-sales" />
      </dl>
      <dl className="grid gap-3 sm:grid-cols-5" aria-label="Your earnings">
        <Stat label="Pending" value={money(summary.commissions.pending)} testId="affiliate-pending" />
        <Stat label="Approved" value={money(summary.commissions.approved)} testId="affiliate-approved" />
        <Stat label="Paid" value={money(summary.commissions.paid)} testId="affiliate-paid" />
        <Stat label="Reversed" value={money(summary.commissions.reversed)} testId="affiliate-reversed" />
        <Stat label="Next payout" value={money(summary.balance)} />
      </dl>
      {summary.otherCurrencies.length > 0 ? (
        <p className="text-sm text-muted">
          Also:{' '}
          {summary.otherCurrencies.map((line) => `${formatMoney(line.pending, line.currency)} pending, ${formatMoney(line.approved, line.currency)} approved, ${formatMoney(line.paid, line.currency)} paid`).join('; ')}
        </p>
      ) : null}
      <PayoutCard summary={summary} />
      <History summary={summary} />
      <Card>
        <Terms terms={summary.terms} />
      </Card>
    </div>
  );
}

export function AffiliatePage() {
  const program = useProgram();
  const summary = useAffiliateSummary(program.data?.joined === true);
  return (
    <div className="mx-auto max-w-4xl">
      <header className="mb-8">
        <p className="text-sm font-semibold uppercase tracking-wider text-primary">Affiliate program</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-white">{AFFILIATE_TEXTS.title}</h1>
      </header>
      {program.isPending || (program.data?.joined && summary.isPending) ? (
        <Spinner label="Loading..." />
      ) : program.isError || summary.isError ? (
        <p role="alert" className="text-sm text-danger">
          {AFFILIATE_TEXTS.loadFailed}
        </p>
      ) : summary.data ? (
        <Dashboard summary={summary.data} />
      ) : (
        <JoinCard program={program.data!} />
      )}
    </div>
  );
}
