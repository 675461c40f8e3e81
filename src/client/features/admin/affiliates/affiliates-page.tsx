// /admin/affiliates: the affiliates (search, stats, refund-rate flags, suspend), adding one by
// e-mail, the program's terms, and the payout run: approve what is due, download the CSV for a
// PayPal or Wise mass payout, mark it paid (each step audited on the server).
import { useId, useState, type FormEvent } from 'react';
import { COMMISSION_DURATIONS, PROGRAM_MODES, type CommissionDuration, type ProgramMode } from '@shared/affiliates';
import { AFFILIATE_PATHS, type AffiliateAdminItem, type TermsResponse } from '@shared/affiliates-contract';
import { formatMoney, planDisplayName, planTypes } from '@shared/plans';
import { DataTable, type Column } from '@client/components/data-table';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card, CardDescription, CardTitle } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { ApiRequestError } from '@client/lib/api/api-client';
import { AdminPageHeader, CONSOLE_FIELD, LoadError, Pager } from '@client/components/console/admin-page';
import { ConfirmAction } from '@client/components/console/confirm-action';
import { useAddAffiliate, useAffiliates, useApprove, useMarkPaid, useReinstate, useSaveTerms, useSuspend, useTerms } from './affiliates-api';

const messageOf = (error: unknown, fallback: string) => (error instanceof ApiRequestError ? error.message : fallback);
const MODE_TEXT: Record<ProgramMode, string> = { open: 'Anyone signed in', members: 'Members only', invite: 'By invitation (operators add them)' };
const DURATION_TEXT: Record<CommissionDuration, string> = { first: 'First payment only', months: 'For N months', lifetime: 'As long as the member pays' };

function SuspendButton({ item }: { item: AffiliateAdminItem }) {
  const suspend = useSuspend();
  const reinstate = useReinstate();
  if (item.status === 'suspended') {
    return (
      <ConfirmAction label="Reinstate" title={`Reinstate ${item.code}?`} description="Their link sets its cookie again and their buyers earn commissions again." confirmLabel="Reinstate" run={async () => {
        await reinstate.mutateAsync(item.id);
        return { message: `${item.code} is active again.` };
      }} />
    );
  }
  return (
    <ConfirmAction label="Suspend" title={`Suspend ${item.code}?`} description="Their link stops setting its cookie, and no payment earns them a commission until you reinstate them. Buyers still buy." confirmLabel="Suspend" variant="danger" run={async () => {
      await suspend.mutateAsync({ id: item.id, reason: item.flagged ? 'refund rate' : 'operator' });
      return { message: `${item.code} is suspended.` };
    }} />
  );
}

const money = (amount: number, currency: string) => formatMoney(amount, currency);

const COLUMNS: Column<AffiliateAdminItem>[] = [
  { header: 'Code', cell: (item) => <span className="font-mono font-semibold">{item.code}</span> },
  { header: 'Account', cell: (item) => item.email },
  {
    header: 'Status',
    cell: (item) => (
      <span className="flex flex-wrap gap-1">
        <Badge tone={item.status === 'active' ? 'green' : 'neutral'}>{item.status}</Badge>
        {item.flagged ? (
          <Badge tone="red" title={`${item.reversedBuyers} of ${item.buyers} referred buyers refunded or disputed`}>
            flagged
          </Badge>
        ) : null}
      </span>
    ),
  },
  { header: 'Clicks', cell: (item) => item.clicks },
  { header: 'Sales', cell: (item) => `${item.sales} (${item.buyers} buyers)` },
  { header: 'Revenue', cell: (item) => (item.revenue.length ? item.revenue.map((line) => money(line.amount, line.currency)).join(' + ') : money(0, item.currency)) },
  { header: 'Pending', cell: (item) => money(item.commissions.pending, item.currency) },
  { header: 'Approved', cell: (item) => money(item.commissions.approved, item.currency) },
  { header: 'Paid', cell: (item) => money(item.commissions.paid, item.currency) },
  { header: 'Reversed', cell: (item) => money(item.commissions.reversed, item.currency) },
  { header: 'Balance', cell: (item) => money(item.balance, item.currency) },
  { header: 'Payout to', cell: (item) => item.payoutEmail ?? '—' },
  { header: '', cell: (item) => <SuspendButton item={item} /> },
];

function AddForm() {
  const add = useAddAffiliate();
  const [email, setEmail] = useState('');
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      const item = await add.mutateAsync(email);
      setResult({ ok: true, message: `${item.email} is an affiliate with the code ${item.code}.` });
      setEmail('');
    } catch (error) {
      setResult({ ok: false, message: messageOf(error, 'The affiliate could not be added.') });
    }
  }
  return (
    <form className="flex flex-wrap items-end gap-3" onSubmit={(event) => void submit(event)} noValidate>
      <label className="grid gap-1 text-sm">
        Add an affiliate (account e-mail)
        <input className={`${CONSOLE_FIELD} w-72`} value={email} onChange={(event) => setEmail(event.target.value)} maxLength={320} />
      </label>
      <Button type="submit" disabled={add.isPending}>
        Add
      </Button>
      {result ? (
        <p role={result.ok ? 'status' : 'alert'} className={result.ok ? 'text-sm text-green-400' : 'text-sm text-danger'}>
          {result.message}
        </p>
      ) : null}
    </form>
  );
}

function AffiliateList() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const list = useAffiliates(search, page);
  return (
    <Card className="space-y-4">
      <CardTitle>Affiliates</CardTitle>
      <AddForm />
      <label className="grid gap-1 text-sm">
        Search code or e-mail
        <input
          className={`${CONSOLE_FIELD} w-72`}
          value={search}
          onChange={(event) => {
            // a new search starts at its first page
            setSearch(event.target.value);
            setPage(1);
          }}
          maxLength={200}
        />
      </label>
      {list.isPending ? (
        <Spinner label="Loading affiliates..." />
      ) : list.isError ? (
        <LoadError what="the affiliates" />
      ) : (
        <>
          <p className="text-sm text-muted">
            {list.data.totals.affiliates} affiliates, {list.data.totals.flagged} flagged, {list.data.totals.suspended} suspended. Commissions: {money(list.data.totals.commissions.pending, list.data.totals.currency)} pending,{' '}
            {money(list.data.totals.commissions.approved, list.data.totals.currency)} approved, {money(list.data.totals.commissions.paid, list.data.totals.currency)} paid,{' '}
            {money(list.data.totals.commissions.reversed, list.data.totals.currency)} reversed.
          </p>
          {list.data.affiliates.length === 0 ? (
            <p className="text-sm text-muted">{search ? 'No affiliate matches the search.' : 'No affiliates yet.'}</p>
          ) : (
            <>
              <DataTable columns={COLUMNS} rows={list.data.affiliates} rowKey={(item) => item.id} caption="Affiliates" busy={list.isPlaceholderData} />
              <Pager page={list.data.page} pageSize={list.data.pageSize} total={list.data.totals.affiliates} onPage={setPage} />
            </>
          )}
        </>
      )}
    </Card>
  );
}

type PlanRuleForm = { kind: 'program' | 'percent' | 'fixed'; value: string };
type TermsForm = { mode: ProgramMode; kind: 'percent' | 'fixed'; value: string; plans: Record<string, PlanRuleForm>; duration: CommissionDuration; months: string; cookieDays: string; holdDays: string; minimumPayout: string };

/** A rule's value as typed: a percentage, or an amount with two decimals (the API takes minor units). */
const valueText = (kind: 'percent' | 'fixed', value: number) => (kind === 'fixed' ? (value / 100).toFixed(2) : String(value));
const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
/** Plans by name; two plans of one name (Monthly and the EU list's Monthly) are told apart by their slug. */
function plansLabelled(plans: readonly string[]): (plan: string) => string {
  const names = plans.map((plan) => planDisplayName(plan));
  return (plan) => (names.filter((name) => name === planDisplayName(plan)).length > 1 ? `${planDisplayName(plan)} (${plan})` : planDisplayName(plan));
}
const ruleValue = (kind: 'percent' | 'fixed', text: string) => (kind === 'fixed' ? Math.round(number(text) * 100) : number(text));

const formOf = (terms: TermsResponse): TermsForm => ({
  mode: terms.mode,
  kind: terms.kind,
  value: valueText(terms.kind, terms.value),
  // every plan of the shop, plus any plan the saved terms still name (an archived one)
  plans: Object.fromEntries(
    [...new Set([...planTypes(), ...Object.keys(terms.plans)])].map((plan): [string, PlanRuleForm] => {
      const rule = terms.plans[plan];
      return [plan, rule ? { kind: rule.kind, value: valueText(rule.kind, rule.value) } : { kind: 'program', value: '' }];
    }),
  ),
  duration: terms.duration,
  months: terms.durationMonths === null ? '' : String(terms.durationMonths),
  cookieDays: String(terms.cookieDays),
  holdDays: String(terms.holdDays),
  minimumPayout: (terms.minimumPayout / 100).toFixed(2),
});

function TermsEditor({ terms }: { terms: TermsResponse }) {
  const id = useId();
  const save = useSaveTerms();
  const [form, setForm] = useState<TermsForm>(() => formOf(terms));
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const set = <K extends keyof TermsForm>(key: K, value: TermsForm[K]) => setForm((current) => ({ ...current, [key]: value }));
  const planLabel = plansLabelled(Object.keys(form.plans));
  const setPlan = (plan: string, rule: PlanRuleForm) => setForm((current) => ({ ...current, plans: { ...current.plans, [plan]: rule } }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      await save.mutateAsync({
        mode: form.mode,
        kind: form.kind,
        value: ruleValue(form.kind, form.value),
        plans: Object.fromEntries(Object.entries(form.plans).flatMap(([plan, rule]) => (rule.kind === 'program' ? [] : [[plan, { kind: rule.kind, value: ruleValue(rule.kind, rule.value) }]]))),
        duration: form.duration,
        durationMonths: form.duration === 'months' ? number(form.months) : null,
        cookieDays: number(form.cookieDays),
        holdDays: number(form.holdDays),
        minimumPayout: Math.round(number(form.minimumPayout) * 100),
      });
      setResult({ ok: true, message: 'Terms saved.' });
    } catch (error) {
      setResult({ ok: false, message: messageOf(error, 'The terms could not be saved.') });
    }
  }

  return (
    <Card aria-labelledby={`${id}-title`} className="space-y-4">
      <div>
        <CardTitle id={`${id}-title`}>Terms</CardTitle>
        <CardDescription>
          They apply to payments from now on. {terms.updatedBy ? `Last changed by ${terms.updatedBy}.` : 'The defaults: 30 %, as long as the member pays, a 60-day cookie, a 30-day hold.'}
        </CardDescription>
      </div>
      <form className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" onSubmit={(event) => void submit(event)} noValidate>
        <label className="grid gap-1 text-sm">
          Who may join
          <select className={CONSOLE_FIELD} value={form.mode} onChange={(event) => set('mode', event.target.value as ProgramMode)}>
            {PROGRAM_MODES.map((mode) => (
              <option key={mode} value={mode}>
                {MODE_TEXT[mode]}
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-1 text-sm">
          Commission
          <select className={CONSOLE_FIELD} value={form.kind} onChange={(event) => set('kind', event.target.value as TermsForm['kind'])}>
            <option value="percent">Percentage of the payment</option>
            <option value="fixed">Fixed amount per payment</option>
          </select>
        </label>
        <label className="grid gap-1 text-sm">
          {form.kind === 'percent' ? 'Rate (%)' : 'Amount'}
          <input className={CONSOLE_FIELD} inputMode="decimal" value={form.value} onChange={(event) => set('value', event.target.value)} />
        </label>
        <label className="grid gap-1 text-sm">
          Paid on
          <select className={CONSOLE_FIELD} value={form.duration} onChange={(event) => set('duration', event.target.value as CommissionDuration)}>
            {COMMISSION_DURATIONS.map((duration) => (
              <option key={duration} value={duration}>
                {DURATION_TEXT[duration]}
              </option>
            ))}
          </select>
        </label>
        {form.duration === 'months' ? (
          <label className="grid gap-1 text-sm">
            Months
            <input className={CONSOLE_FIELD} inputMode="numeric" value={form.months} onChange={(event) => set('months', event.target.value)} />
          </label>
        ) : null}
        <label className="grid gap-1 text-sm">
          Cookie length (days)
          <input className={CONSOLE_FIELD} inputMode="numeric" value={form.cookieDays} onChange={(event) => set('cookieDays', event.target.value)} />
        </label>
        <label className="grid gap-1 text-sm">
          Hold before approval (days)
          <input className={CONSOLE_FIELD} inputMode="numeric" value={form.holdDays} onChange={(event) => set('holdDays', event.target.value)} />
        </label>
        <label className="grid gap-1 text-sm">
          Minimum payout ({terms.currency.toUpperCase()})
          <input className={CONSOLE_FIELD} inputMode="decimal" value={form.minimumPayout} onChange={(event) => set('minimumPayout', event.target.value)} />
        </label>
        <fieldset className="grid gap-2 sm:col-span-2 lg:col-span-4">
          <legend className="text-sm font-medium">Per plan</legend>
          <p className="text-sm text-muted">A plan left on the program's commission earns the commission above.</p>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {Object.entries(form.plans).map(([plan, rule]) => (
              <div key={plan} className="flex items-end gap-2">
                {/* min-w-0: on a phone the two fields share the row rather than their natural widths */}
                <label className="grid min-w-0 flex-1 gap-1 text-sm">
                  {`${planLabel(plan)} commission`}
                  <select className={`${CONSOLE_FIELD} min-w-0`} value={rule.kind} onChange={(event) => setPlan(plan, { kind: event.target.value as PlanRuleForm['kind'], value: rule.value })}>
                    <option value="program">Program's commission</option>
                    <option value="percent">Percentage</option>
                    <option value="fixed">Fixed amount</option>
                  </select>
                </label>
                {rule.kind === 'program' ? null : (
                  <label className="grid w-28 gap-1 text-sm">
                    {`${planLabel(plan)} ${rule.kind === 'percent' ? 'rate (%)' : 'amount'}`}
                    <input className={`${CONSOLE_FIELD} w-full min-w-0`} inputMode="decimal" value={rule.value} onChange={(event) => setPlan(plan, { kind: rule.kind, value: event.target.value })} />
                  </label>
                )}
              </div>
            ))}
          </div>
        </fieldset>
        <div className="flex items-end">
          <Button type="submit" disabled={save.isPending}>
            Save terms
          </Button>
        </div>
      </form>
      {result ? (
        <p role={result.ok ? 'status' : 'alert'} className={result.ok ? 'text-sm text-green-400' : 'text-sm text-danger'}>
          {result.message}
        </p>
      ) : null}
    </Card>
  );
}

function PayoutRun() {
  const approve = useApprove();
  const markPaid = useMarkPaid();
  const list = useAffiliates('');
  const due = list.data?.totals.dueToApprove ?? 0;
  return (
    <Card className="space-y-4">
      <div>
        <CardTitle>Payout run</CardTitle>
        <CardDescription>
          1. Approve the commissions whose hold is over. 2. Download the CSV and upload it to PayPal Payouts or a Wise batch payment. 3. Once sent, mark it paid: each affiliate gets a payout and a mail.
        </CardDescription>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <ConfirmAction label={`Approve due (${due})`} title="Approve the commissions due?" description="Pending commissions whose hold period is over become approved." confirmLabel="Approve" run={async () => ({ message: `${(await approve.mutateAsync(undefined)).approved} commissions approved.` })} />
        <Button asChild variant="outline">
          <a href={AFFILIATE_PATHS.payoutCsv} download>
            Download payout CSV
          </a>
        </Button>
        <ConfirmAction
          label="Mark paid"
          title="Mark the CSV's payouts paid?"
          description="Every balance in the CSV is recorded as paid in one go (all of them or none), and commissions taken back after an earlier payout are deducted. Do this once, after the mass payout went out: a second mark pays nothing twice."
          confirmLabel="Mark paid"
          run={async () => {
            const result = await markPaid.mutateAsync(null);
            const total = result.paid.map((line) => formatMoney(line.amount, line.currency)).join(', ');
            return { message: result.paid.length ? `${result.paid.length} payouts recorded: ${total}.` : 'Nothing was recorded: no balance reaches the minimum payout with a payout address.' };
          }}
        />
      </div>
    </Card>
  );
}

/** Revenue brought in per affiliate, for the overview. */
export function AffiliateRevenueCard() {
  const list = useAffiliates('');
  if (!list.data || list.data.totals.affiliates === 0) return null;
  const top = list.data.topByRevenue;
  return (
    <Card>
      <CardTitle>Revenue per affiliate</CardTitle>
      <CardDescription>What referred buyers paid (after discounts, before tax); commissions refunded or disputed are left out.</CardDescription>
      {top.length === 0 ? (
        <p className="mt-3 text-sm text-muted">No referred buyer has paid yet.</p>
      ) : (
        <ul className="mt-3 space-y-1 text-sm">
          {top.map((item) => (
            <li key={item.id} className="flex justify-between gap-4">
              <span className="font-mono">{item.code}</span>
              <span>{item.revenue.map((line) => formatMoney(line.amount, line.currency)).join(' + ')}</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

export function AffiliatesPage() {
  const terms = useTerms();
  return (
    <div className="space-y-6">
      <AdminPageHeader title="Affiliates" description="People who sell the indicators for a commission: their links, sales, commissions and payouts." />
      <AffiliateList />
      {terms.isPending ? <Spinner label="Loading terms..." /> : terms.isError ? <LoadError what="the terms" /> : <TermsEditor terms={terms.data} />}
      <PayoutRun />
    </div>
  );
}
