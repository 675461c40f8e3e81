// /admin/promotion-codes: create a code (the same rules and messages as the command line), and the
// list of codes with their redemptions, revenue, status and copy at the payment provider.
import { useId, useState, type FormEvent } from 'react';
import { formatMoney, minorUnitDivisor, PLAN_TYPES, planDisplayName, isEuPlan, type PlanType } from '@shared/plans';
import { discountLabel, durationLabel, PROMOTION_DURATIONS, type PromotionDuration } from '@shared/promotions';
import type { CreatePromotionRequest, PromotionItem } from '@shared/promotions-contract';
import { DataTable, type Column } from '@client/components/data-table';
import { Badge, type BadgeTone } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card, CardDescription, CardTitle } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { ApiRequestError } from '@client/lib/api/api-client';
import { AdminPageHeader, CONSOLE_FIELD, LoadError } from '@client/components/console/admin-page';
import { ConfirmAction } from '@client/components/console/confirm-action';
import { dateTimeText } from '@client/lib/console-format';
import { useCreatePromotion, useDeactivatePromotion, usePromotions, useSyncPromotion } from './promotions-api';

const STATUS_TONE: Record<PromotionItem['status'], BadgeTone> = { active: 'green', inactive: 'neutral', expired: 'yellow', exhausted: 'yellow' };
const planLabel = (plan: PlanType) => `${planDisplayName(plan)}${isEuPlan(plan) ? ' (EU)' : ''}`;

type Form = { code: string; kind: 'percent' | 'amount'; value: string; currency: string; duration: PromotionDuration; months: string; plans: PlanType[]; firstTime: boolean; churnedOnly: boolean; max: string; expires: string };
const EMPTY: Form = { code: '', kind: 'percent', value: '', currency: 'usd', duration: 'once', months: '', plans: [], firstTime: false, churnedOnly: false, max: '', expires: '' };

/** The form as the API's request: amounts typed in units (9.99) are sent in minor units (999). */
export function requestOf(form: Form): CreatePromotionRequest {
  const number = (text: string) => (text.trim() === '' ? null : Number(text));
  const value = number(form.value);
  return {
    code: form.code,
    percentOff: form.kind === 'percent' ? value : null,
    amountOff: form.kind === 'amount' && value !== null ? Math.round(value * minorUnitDivisor(form.currency || 'usd')) : null,
    currency: form.kind === 'amount' ? form.currency : null,
    duration: form.duration,
    durationInMonths: form.duration === 'repeating' ? number(form.months) : null,
    plans: form.plans.length > 0 ? form.plans : null,
    firstTimeOnly: form.firstTime,
    churnedOnly: form.churnedOnly,
    maxRedemptions: number(form.max),
    expires: form.expires || null,
  };
}

function CreateForm() {
  const id = useId();
  const create = useCreatePromotion();
  const [form, setForm] = useState<Form>(EMPTY);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((current) => ({ ...current, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setResult(null);
    try {
      const item = await create.mutateAsync(requestOf(form));
      const where = item.provider.state === 'mirrored' ? `and mirrored at ${item.provider.kind}` : `but not yet at the payment provider (${item.provider.error ?? 'pending'}): retry from the list`;
      setResult({ ok: item.provider.state === 'mirrored', message: `${item.code} created ${where}.` });
      setForm(EMPTY);
    } catch (error) {
      setResult({ ok: false, message: error instanceof ApiRequestError ? error.message : 'The code could not be created.' });
    }
  }

  return (
    <Card aria-labelledby={`${id}-title`} className="space-y-4">
      <div>
        <CardTitle id={`${id}-title`}>New promotion code</CardTitle>
        <CardDescription>Shared as a link (/?code=CODE) or typed at checkout. Letters, digits and dashes; not case-sensitive.</CardDescription>
      </div>
      <form className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" onSubmit={(event) => void submit(event)} noValidate>
        <label className="grid gap-1 text-sm">
          Code
          <input className={CONSOLE_FIELD} value={form.code} onChange={(event) => set('code', event.target.value)} maxLength={200} placeholder="BF20" required />
        </label>
        <label className="grid gap-1 text-sm">
          Discount
          <select className={CONSOLE_FIELD} value={form.kind} onChange={(event) => set('kind', event.target.value as Form['kind'])}>
            <option value="percent">Percent off</option>
            <option value="amount">Amount off</option>
          </select>
        </label>
        <label className="grid gap-1 text-sm">
          {form.kind === 'percent' ? 'Percent (1–100)' : 'Amount'}
          <input className={CONSOLE_FIELD} inputMode="decimal" value={form.value} onChange={(event) => set('value', event.target.value)} />
        </label>
        {form.kind === 'amount' ? (
          <label className="grid gap-1 text-sm">
            Currency
            <input className={CONSOLE_FIELD} value={form.currency} onChange={(event) => set('currency', event.target.value.toLowerCase())} maxLength={3} />
          </label>
        ) : null}
        <label className="grid gap-1 text-sm">
          Duration on subscriptions
          <select className={CONSOLE_FIELD} value={form.duration} onChange={(event) => set('duration', event.target.value as PromotionDuration)}>
            {PROMOTION_DURATIONS.map((duration) => (
              <option key={duration} value={duration}>
                {duration === 'once' ? 'First payment only' : duration === 'repeating' ? 'Several months' : 'Forever'}
              </option>
            ))}
          </select>
        </label>
        {form.duration === 'repeating' ? (
          <label className="grid gap-1 text-sm">
            Months
            <input className={CONSOLE_FIELD} inputMode="numeric" value={form.months} onChange={(event) => set('months', event.target.value)} />
          </label>
        ) : null}
        <label className="grid gap-1 text-sm">
          Maximum redemptions
          <input className={CONSOLE_FIELD} inputMode="numeric" value={form.max} onChange={(event) => set('max', event.target.value)} placeholder="No limit" />
        </label>
        <label className="grid gap-1 text-sm">
          Expires after
          <input type="date" className={CONSOLE_FIELD} value={form.expires} onChange={(event) => set('expires', event.target.value)} />
        </label>
        <fieldset className="grid gap-1 text-sm sm:col-span-2">
          <legend className="mb-1">Plans (none ticked: all plans)</legend>
          <div className="flex flex-wrap gap-3">
            {PLAN_TYPES.map((plan) => (
              <label key={plan} className="flex items-center gap-1.5">
                <input type="checkbox" checked={form.plans.includes(plan)} onChange={(event) => set('plans', event.target.checked ? [...form.plans, plan] : form.plans.filter((other) => other !== plan))} />
                {planLabel(plan)}
              </label>
            ))}
          </div>
        </fieldset>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={form.firstTime} onChange={(event) => set('firstTime', event.target.checked)} />
          First-time buyers only
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={form.churnedOnly} onChange={(event) => set('churnedOnly', event.target.checked)} />
          Returning members only (access ended: win-back)
        </label>
        <div className="flex items-end">
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create code'}
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

const money = (lines: PromotionItem['revenue']) => (lines.length === 0 ? formatMoney(0, 'usd') : lines.map((line) => formatMoney(line.amount, line.currency)).join(' + '));

function ProviderCell({ item }: { item: PromotionItem }) {
  const sync = useSyncPromotion();
  if (item.provider.state === 'mirrored') return <span className="text-muted">{item.provider.kind}</span>;
  return (
    <span className="flex flex-wrap items-center gap-2">
      <Badge tone="red" title={item.provider.error ?? undefined}>
        Not yet at the provider
      </Badge>
      <Button size="sm" variant="outline" disabled={sync.isPending} onClick={() => sync.mutate(item.code)}>
        Retry
      </Button>
    </span>
  );
}

function DeactivateButton({ item }: { item: PromotionItem }) {
  const deactivate = useDeactivatePromotion();
  if (item.status === 'inactive') return null;
  return (
    <ConfirmAction
      label="Deactivate"
      title={`Deactivate ${item.code}?`}
      description="Nobody can use the code from now on. Subscriptions that already have its discount keep it for its duration."
      confirmLabel="Deactivate"
      variant="danger"
      run={async () => {
        await deactivate.mutateAsync(item.code);
        return { message: `${item.code} is deactivated.` };
      }}
    />
  );
}

const COLUMNS: Column<PromotionItem>[] = [
  { header: 'Code', cell: (item) => <span className="font-mono font-semibold">{item.code}</span> },
  { header: 'Discount', cell: (item) => `${discountLabel(item)} ${durationLabel(item)}` },
  { header: 'Plans', cell: (item) => (item.plans ? item.plans.map(planLabel).join(', ') : 'All') + (item.firstTimeOnly ? ' · first-time' : '') + (item.churnedOnly ? ' · returning members' : '') },
  { header: 'Redemptions', cell: (item) => `${item.redemptions}${item.maxRedemptions === null ? '' : ` / ${item.maxRedemptions}`}` },
  { header: 'Revenue', cell: (item) => money(item.revenue) },
  { header: 'Expires', cell: (item) => (item.expiresAt ? dateTimeText(item.expiresAt) : '—') },
  { header: 'Status', cell: (item) => <Badge tone={STATUS_TONE[item.status]}>{item.status}</Badge> },
  { header: 'Payment provider', cell: (item) => <ProviderCell item={item} /> },
  { header: '', cell: (item) => <DeactivateButton item={item} /> },
];

function PromotionList() {
  const promotions = usePromotions();
  if (promotions.isPending) return <Spinner label="Loading promotion codes..." />;
  if (promotions.isError) return <LoadError what="the promotion codes" />;
  if (promotions.data.promotions.length === 0) return <p className="text-sm text-muted">No promotion codes yet.</p>;
  return <DataTable columns={COLUMNS} rows={promotions.data.promotions} rowKey={(item) => item.id} caption="Promotion codes" />;
}

/** /admin/promotion-codes */
export function PromotionsPage() {
  return (
    <div className="space-y-6">
      <AdminPageHeader title="Promotion codes" description="Discounts for links and checkout, mirrored at the payment provider; revenue counts first payments and renewals." />
      <CreateForm />
      <Card className="space-y-4">
        <CardTitle>Codes</CardTitle>
        <PromotionList />
      </Card>
    </div>
  );
}
