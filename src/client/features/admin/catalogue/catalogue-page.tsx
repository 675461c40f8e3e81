// /admin/plans, /admin/price-lists and /admin/sales: the shop's plans, price lists and sales, each
// its own page, edited with the same rules and messages as `npm run admin -- plans`, beside a live preview of the pricing cards as a buyer sees
// them (the draft's, before it is saved). Every change is audited (Audit log).
import { useId, useMemo, useState, type FormEvent } from 'react';
import { campaignOf, cardBilled, currentPrices, isSaleRunning, landingCards } from '@shared/campaign';
import { DEFAULT_LIST, pageOfList, parseEvery, periodText, updatePlan, type Catalogue, type CataloguePlan, type PlanChanges, type PriceList, type PriceListEntry } from '@shared/catalogue';
import { formatMoney, PLAN_CURRENCY, type PricingCard } from '@shared/plans';
import { currencyProblem, parsePriceText, priceInputText } from '@shared/price-lists';
import { TableScroll } from '@client/components/data-table';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card, CardDescription, CardTitle } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { ApiRequestError } from '@client/lib/api/api-client';
import type { UpdatePlanRequest } from '@shared/catalogue-contract';
import { AdminPageHeader, CONSOLE_FIELD, LoadError } from '@client/components/console/admin-page';
import { useAddPlan, useAddPriceList, useArchivePlan, useMoveMembers, useSavePriceList, useCatalogueQuery, useRemoveSale, useSaveSale, useSetPrice, useUpdatePlan } from './catalogue-api';
import { PublishToStripe } from './publish-to-stripe';

type Outcome = { ok: boolean; message: string } | null;

const failure = (error: unknown, fallback: string): Outcome => ({ ok: false, message: error instanceof ApiRequestError ? error.message : fallback });

/** Dollars as typed ('47', '29.99') in cents; NaN stays NaN so the server's rule names it. */
const centsOf = (text: string) => Math.round(Number(text) * 100);

function OutcomeLine({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null;
  return (
    <p role={outcome.ok ? 'status' : 'alert'} className={outcome.ok ? 'text-sm text-green-400' : 'text-sm text-red-300'}>
      {outcome.message}
    </p>
  );
}

/** One card as the landing page shows it (compact): the preview of the draft catalogue. */
function PreviewCard({ card, billed }: { card: PricingCard; billed: string | undefined }) {
  return (
    <article aria-label={`Preview ${card.name}`} className={`rounded-xl border p-4 ${card.isPopular ? 'border-primary/60' : 'border-white/10'}`}>
      <div className="flex items-center justify-between gap-2">
        <h3 className="font-semibold text-white">{card.name}</h3>
        {card.isPopular ? <Badge tone="green">Most Popular</Badge> : null}
        {card.label ? <Badge tone="yellow">{card.label}</Badge> : null}
      </div>
      <p className="mt-3 flex items-end gap-2">
        {card.originalPrice ? <span className="text-muted line-through">{card.originalPrice}</span> : null}
        <span className="text-3xl font-bold text-white" data-testid="preview-price">
          {card.price}
        </span>
        <span className="text-sm text-muted">{card.period}</span>
      </p>
      {billed ? <p className="text-xs text-muted">{billed}</p> : null}
      {card.savings ? <p className="mt-1 text-xs font-semibold text-primary">{card.savings}</p> : null}
    </article>
  );
}

function Preview({ catalogue }: { catalogue: Catalogue }) {
  const [page, setPage] = useState('/');
  const now = new Date();
  const campaign = campaignOf(catalogue, now);
  const running = isSaleRunning(campaign, now);
  const cards = landingCards(campaign, page, running);
  const prices = currentPrices(campaign, running);
  return (
    <Card className="space-y-3" aria-label="Live preview">
      <div className="flex items-center justify-between gap-3">
        <CardTitle>Live preview</CardTitle>
        <select aria-label="Preview page" className={CONSOLE_FIELD} value={page} onChange={(event) => setPage(event.target.value)}>
          {catalogue.priceLists.map((list) => (
            <option key={list.slug} value={pageOfList(list.slug)}>
              {pageOfList(list.slug)}
            </option>
          ))}
        </select>
      </div>
      <CardDescription>The cards of {page} as a buyer sees them now{running ? `, during ${campaign.saleLabel}` : ''}, with your unsaved changes.</CardDescription>
      <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
        {cards.map((card) => (
          <PreviewCard key={card.planType} card={card} billed={cardBilled(card, page, prices, catalogue)} />
        ))}
        {cards.length === 0 ? <p className="text-sm text-muted">No plan is shown on this page.</p> : null}
      </div>
    </Card>
  );
}

type Draft = Record<string, PlanChanges & { price?: string }>;

function PlanRow({ plan, catalogue, draft, setDraft }: { plan: CataloguePlan; catalogue: Catalogue; draft: Draft; setDraft: (slug: string, changes: PlanChanges & { price?: string }) => void }) {
  const update = useUpdatePlan();
  const setPrice = useSetPrice();
  const archive = useArchivePlan();
  const moveMembers = useMoveMembers();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const home = catalogue.priceLists.find((list) => list.entries.some((entry) => entry.plan === plan.slug));
  const listed = home?.entries.find((entry) => entry.plan === plan.slug)?.price;
  const edit = draft[plan.slug] ?? {};
  const name = edit.name ?? plan.name;
  const price = edit.price ?? (listed === undefined ? '' : (listed / 100).toFixed(2));
  const badge = edit.badge !== undefined ? (edit.badge ?? '') : (plan.badge ?? '');
  const popular = edit.popular ?? plan.popular;
  // '' : the shop's TRIAL_DAYS decide (the record's null)
  const trialDays = edit.trialDays !== undefined ? (edit.trialDays === null ? '' : String(edit.trialDays)) : plan.trialDays === null ? '' : String(plan.trialDays);

  async function save(event: FormEvent) {
    event.preventDefault();
    setOutcome(null);
    try {
      const changes: UpdatePlanRequest = {};
      if (name !== plan.name) changes.name = name;
      if ((badge || null) !== plan.badge) changes.badge = badge || null;
      if (popular !== plan.popular) changes.popular = popular;
      if (edit.trialDays !== undefined && edit.trialDays !== null && !Number.isInteger(edit.trialDays)) return setOutcome({ ok: false, message: 'Trial days are a whole number from 0 to 730.' });
      if (edit.trialDays !== undefined && edit.trialDays !== plan.trialDays) changes.trialDays = edit.trialDays;
      if (Object.keys(changes).length > 0) await update.mutateAsync({ slug: plan.slug, changes });
      if (home && edit.price !== undefined) {
        // typed as text ('$29.00', '29') in the list's currency; the reason when it is no price
        const typed = parsePriceText(edit.price, home.currency);
        if (typeof typed === 'string') return setOutcome({ ok: false, message: `Price of ${plan.slug}: ${typed}` });
        if (typed !== listed) await setPrice.mutateAsync({ slug: plan.slug, price: typed, list: home.slug });
      }
      setDraft(plan.slug, {});
      setOutcome({ ok: true, message: `${plan.slug} saved.` });
    } catch (error) {
      setOutcome(failure(error, 'The plan could not be saved.'));
    }
  }

  return (
    <tr className="border-t border-border align-top">
      <td className="py-2 pr-3 font-mono text-xs">{plan.slug}</td>
      <td className="py-2 pr-3" colSpan={6}>
        <form onSubmit={(event) => void save(event)} className="flex flex-wrap items-center gap-2" aria-label={`Plan ${plan.slug}`}>
          <input aria-label={`Name of ${plan.slug}`} className={`${CONSOLE_FIELD} w-36`} value={name} onChange={(event) => setDraft(plan.slug, { ...edit, name: event.target.value })} />
          <label className="flex items-center gap-1 text-sm">
            $
            <input aria-label={`Price of ${plan.slug}`} className={`${CONSOLE_FIELD} w-24`} inputMode="decimal" value={price} onChange={(event) => setDraft(plan.slug, { ...edit, price: event.target.value })} />
          </label>
          <span className="w-28 text-xs text-muted">{plan.period ? `every ${periodText(plan.period)}` : 'one time'} on {home ? pageOfList(home.slug) : '—'}</span>
          <input aria-label={`Badge of ${plan.slug}`} placeholder="badge (computed)" className={`${CONSOLE_FIELD} w-32`} value={badge} onChange={(event) => setDraft(plan.slug, { ...edit, badge: event.target.value || null })} />
          <label className="flex items-center gap-1 text-sm">
            <input type="checkbox" checked={popular} onChange={(event) => setDraft(plan.slug, { ...edit, popular: event.target.checked })} />
            Most popular
          </label>
          {plan.period ? (
            <input
              aria-label={`Trial days of ${plan.slug}`}
              placeholder="trial days (shop's)"
              inputMode="numeric"
              className={`${CONSOLE_FIELD} w-36`}
              value={trialDays}
              onChange={(event) => setDraft(plan.slug, { ...edit, trialDays: event.target.value.trim() === '' ? null : Number(event.target.value) })}
            />
          ) : null}
          {plan.archived ? <Badge tone="neutral">archived</Badge> : null}
          <Button type="submit" size="sm" disabled={update.isPending || setPrice.isPending}>
            Save
          </Button>
          {!plan.archived ? (
            <Button
              type="button"
              size="sm"
              variant="outline"
              onClick={() =>
                void archive.mutateAsync(plan.slug).then(
                  () => setOutcome({ ok: true, message: `${plan.slug} archived: its members keep it.` }),
                  (error: unknown) => setOutcome(failure(error, 'The plan could not be archived.')),
                )
              }
            >
              Archive
            </Button>
          ) : null}
          {!plan.archived && plan.period && home ? (
            <Button
              type="button"
              size="sm"
              variant="outline"
              disabled={moveMembers.isPending}
              onClick={() =>
                void moveMembers.mutateAsync({ slug: plan.slug, list: home.slug }).then(
                  ({ moved, alreadyMoved }) =>
                    setOutcome({ ok: true, message: `${moved.length} member${moved.length === 1 ? '' : 's'} moved to the current price at their next renewal, each mailed${alreadyMoved ? `; ${alreadyMoved} already moved` : ''}.` }),
                  (error: unknown) => setOutcome(failure(error, 'The members could not be moved.')),
                )
              }
            >
              Move members to this price
            </Button>
          ) : null}
        </form>
        <OutcomeLine outcome={outcome} />
      </td>
    </tr>
  );
}

function AddPlanForm({ catalogue }: { catalogue: Catalogue }) {
  const lists = catalogue.priceLists.map((list) => list.slug);
  const id = useId();
  const add = useAddPlan();
  const [form, setForm] = useState({ slug: '', name: '', price: '', every: '1m', once: false, list: '/' });
  const [outcome, setOutcome] = useState<Outcome>(null);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setOutcome(null);
    const period = form.once ? null : parseEvery(form.every);
    if (typeof period === 'string') return setOutcome({ ok: false, message: period });
    try {
      const price = parsePriceText(form.price, catalogue.priceLists.find((list) => list.slug === form.list)?.currency ?? PLAN_CURRENCY);
      if (typeof price === 'string') return setOutcome({ ok: false, message: `Price: ${price}` });
      await add.mutateAsync({ slug: form.slug.trim(), name: form.name, price, period, list: form.list });
      setOutcome({ ok: true, message: `${form.slug} added.` });
      setForm({ slug: '', name: '', price: '', every: '1m', once: false, list: form.list });
    } catch (error) {
      setOutcome(failure(error, 'The plan could not be added.'));
    }
  }
  const set = (key: keyof typeof form, value: string | boolean) => setForm((current) => ({ ...current, [key]: value }));
  return (
    <Card aria-labelledby={`${id}-title`} className="space-y-3">
      <CardTitle id={`${id}-title`}>Add a plan</CardTitle>
      <form onSubmit={(event) => void submit(event)} className="flex flex-wrap items-center gap-2">
        <input aria-label="Slug" placeholder="slug (weekly)" className={`${CONSOLE_FIELD} w-32`} value={form.slug} onChange={(event) => set('slug', event.target.value)} />
        <input aria-label="Name" placeholder="Name" className={`${CONSOLE_FIELD} w-32`} value={form.name} onChange={(event) => set('name', event.target.value)} />
        <input aria-label="Price of the new plan" placeholder="15.00" className={`${CONSOLE_FIELD} w-24`} value={form.price} onChange={(event) => set('price', event.target.value)} />
        <input aria-label="Every" placeholder="1w" disabled={form.once} className={`${CONSOLE_FIELD} w-16`} value={form.every} onChange={(event) => set('every', event.target.value)} />
        <label className="flex items-center gap-1 text-sm">
          <input type="checkbox" checked={form.once} onChange={(event) => set('once', event.target.checked)} />
          One time
        </label>
        <select aria-label="Price list" className={CONSOLE_FIELD} value={form.list} onChange={(event) => set('list', event.target.value)}>
          {lists.map((list) => (
            <option key={list} value={list}>
              {pageOfList(list)}
            </option>
          ))}
        </select>
        <Button type="submit" size="sm" disabled={add.isPending}>
          Add plan
        </Button>
      </form>
      <OutcomeLine outcome={outcome} />
    </Card>
  );
}

function SalesCard({ catalogue }: { catalogue: Catalogue }) {
  const save = useSaveSale();
  const remove = useRemoveSale();
  const [form, setForm] = useState({ id: '', label: '', list: '/', startsAt: '', endsAt: '', countdown: true });
  // each sale price as typed ('$29.00', '29'), read in the list's currency; empty: not on sale
  const [salePrices, setSalePrices] = useState<Record<string, string>>({});
  const list = catalogue.priceLists.find((candidate) => candidate.slug === form.list);
  const currency = list?.currency ?? PLAN_CURRENCY;
  const [outcome, setOutcome] = useState<Outcome>(null);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setOutcome(null);
    const prices: PriceListEntry[] = [];
    for (const entry of list?.entries ?? []) {
      const typed = salePrices[entry.plan]?.trim() ?? '';
      if (typed === '') continue;
      const price = parsePriceText(typed, currency);
      if (typeof price === 'string') return setOutcome({ ok: false, message: `Sale price of ${entry.plan}: ${price}` });
      prices.push({ plan: entry.plan, price });
    }
    if (form.label.trim() === '') return setOutcome({ ok: false, message: 'A sale needs a label.' });
    if (prices.length === 0) return setOutcome({ ok: false, message: 'Enter a sale price for at least one plan of the list.' });
    const at = (text: string) => (text ? new Date(text).toISOString() : null);
    try {
      await save.mutateAsync({ id: form.id.trim() || form.label.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-'), sale: { label: form.label, list: form.list, startsAt: at(form.startsAt), endsAt: at(form.endsAt), countdown: form.countdown, prices } });
      setOutcome({ ok: true, message: `${form.label} saved.` });
    } catch (error) {
      setOutcome(failure(error, 'The sale could not be saved.'));
    }
  }
  const set = (key: keyof typeof form, value: string | boolean) => setForm((current) => ({ ...current, [key]: value }));
  return (
    <Card className="space-y-3" aria-label="Sales">
      <CardTitle>Sales</CardTitle>
      <CardDescription>A named campaign with its own prices per plan on one price list; at most one runs on a list at a time. After its end the regular prices are shown and charged.</CardDescription>
      <ul className="space-y-1 text-sm">
        {catalogue.sales.map((sale) => (
          <li key={sale.id} className="flex items-center gap-3">
            <span className="font-semibold">{sale.label}</span>
            <span className="text-muted">
              on {pageOfList(sale.list)} {sale.startsAt ? `from ${sale.startsAt.slice(0, 16)}` : ''} {sale.endsAt ? `until ${sale.endsAt.slice(0, 16)}` : '(rolling)'}: {sale.prices.map((entry) => `${entry.plan} ${formatMoney(entry.price, catalogue.priceLists.find((candidate) => candidate.slug === sale.list)?.currency ?? PLAN_CURRENCY)}`).join(', ')}
            </span>
            <Button type="button" size="sm" variant="outline" onClick={() => void remove.mutateAsync(sale.id).catch((error: unknown) => setOutcome(failure(error, 'The sale could not be removed.')))}>
              Remove
            </Button>
          </li>
        ))}
      </ul>
      <form onSubmit={(event) => void submit(event)} className="flex flex-wrap items-center gap-2">
        <input aria-label="Sale label" placeholder="Cyber Monday" className={`${CONSOLE_FIELD} w-36`} value={form.label} onChange={(event) => set('label', event.target.value)} />
        <select aria-label="Sale price list" className={CONSOLE_FIELD} value={form.list} onChange={(event) => set('list', event.target.value)}>
          {catalogue.priceLists.map((list) => (
            <option key={list.slug} value={list.slug}>
              {pageOfList(list.slug)}
            </option>
          ))}
        </select>
        <input aria-label="Starts" type="datetime-local" className={CONSOLE_FIELD} value={form.startsAt} onChange={(event) => set('startsAt', event.target.value)} />
        <input aria-label="Ends" type="datetime-local" className={CONSOLE_FIELD} value={form.endsAt} onChange={(event) => set('endsAt', event.target.value)} />
        {(list?.entries ?? []).map((entry) => (
          <label key={entry.plan} className="flex items-center gap-1 text-sm">
            <span className="font-mono text-xs">{entry.plan}</span>
            <input
              aria-label={`${entry.plan} sale price`}
              placeholder={`${priceInputText(entry.price, currency)} (${currency.toUpperCase()})`}
              className={`${CONSOLE_FIELD} w-32`}
              value={salePrices[entry.plan] ?? ''}
              onChange={(event) => setSalePrices((current) => ({ ...current, [entry.plan]: event.target.value }))}
            />
          </label>
        ))}
        <label className="flex items-center gap-1 text-sm">
          <input type="checkbox" checked={form.countdown} onChange={(event) => set('countdown', event.target.checked)} />
          Countdown
        </label>
        <Button type="submit" size="sm" disabled={save.isPending}>
          Save sale
        </Button>
      </form>
      <OutcomeLine outcome={outcome} />
    </Card>
  );
}

type ListForm = { slug: string; currency: string; header: string; prices: Record<string, string>; sold: Record<string, boolean> };

function formOf(catalogue: Catalogue, list: PriceList | null): ListForm {
  const currency = list?.currency ?? PLAN_CURRENCY;
  const prices: Record<string, string> = {};
  const sold: Record<string, boolean> = {};
  for (const plan of catalogue.plans) {
    const entry = list?.entries.find((candidate) => candidate.plan === plan.slug);
    prices[plan.slug] = entry ? priceInputText(entry.price, currency) : '';
    sold[plan.slug] = entry !== undefined;
  }
  return { slug: list?.slug ?? '', currency: currency.toUpperCase(), header: list?.header ?? '', prices, sold };
}

/** The prices as typed, each in the list's currency, or the first reason one is not a price. */
function entriesOf(catalogue: Catalogue, form: ListForm): PriceListEntry[] | string {
  const entries: PriceListEntry[] = [];
  for (const plan of catalogue.plans) {
    if (!form.sold[plan.slug]) continue;
    const price = parsePriceText(form.prices[plan.slug] ?? '', form.currency);
    if (typeof price === 'string') return `${plan.name} (${plan.slug}): ${price}`;
    entries.push({ plan: plan.slug, price });
  }
  return entries;
}

/** One price list's page, currency, header and plans; `list` null: a new list at /{slug}. */
function PriceListForm({ catalogue, list }: { catalogue: Catalogue; list: PriceList | null }) {
  const add = useAddPriceList();
  const save = useSavePriceList();
  const [form, setForm] = useState(() => formOf(catalogue, list));
  const [outcome, setOutcome] = useState<Outcome>(null);
  const name = list ? pageOfList(list.slug) : 'new';
  async function submit(event: FormEvent) {
    event.preventDefault();
    setOutcome(null);
    const currencyIssue = currencyProblem(form.currency.trim());
    if (currencyIssue) return setOutcome({ ok: false, message: currencyIssue });
    const entries = entriesOf(catalogue, form);
    if (typeof entries === 'string') return setOutcome({ ok: false, message: entries });
    const body = { currency: form.currency.trim().toLowerCase(), header: form.header.trim() || null, entries };
    try {
      if (list) await save.mutateAsync({ slug: list.slug, list: body });
      else await add.mutateAsync({ ...body, slug: form.slug.trim() });
      setOutcome({ ok: true, message: list ? `${name} saved.` : `/${form.slug.trim()} added: its page is live.` });
      if (!list) setForm(formOf(catalogue, null));
    } catch (error) {
      setOutcome(failure(error, 'The price list could not be saved.'));
    }
  }
  const isDefault = list?.slug === DEFAULT_LIST;
  return (
    <form onSubmit={(event) => void submit(event)} aria-label={`Price list ${name}`} className="space-y-2 border-t border-border pt-3">
      <div className="flex flex-wrap items-center gap-2">
        {list ? (
          <a className="font-semibold text-primary" href={pageOfList(list.slug)} target="_blank" rel="noreferrer">
            {pageOfList(list.slug)}
          </a>
        ) : (
          <label className="flex items-center gap-1 text-sm">
            /
            <input aria-label="Address of the new list" placeholder="partners" className={`${CONSOLE_FIELD} w-36`} value={form.slug} onChange={(event) => setForm({ ...form, slug: event.target.value })} />
          </label>
        )}
        <input aria-label={`Currency of ${name}`} disabled={isDefault} className={`${CONSOLE_FIELD} w-16 uppercase`} value={form.currency} onChange={(event) => setForm({ ...form, currency: event.target.value })} />
        {isDefault ? null : (
          <input aria-label={`Header of ${name}`} placeholder={list?.slug === 'eu' ? 'header (empty: the EU offer note)' : 'header above the navigation (optional)'} className={`${CONSOLE_FIELD} min-w-64 flex-1`} value={form.header} onChange={(event) => setForm({ ...form, header: event.target.value })} />
        )}
      </div>
      <div className="flex flex-wrap gap-3">
        {catalogue.plans
          .filter((plan) => !plan.archived || form.sold[plan.slug])
          .map((plan) => (
            <label key={plan.slug} className="flex items-center gap-1 text-sm">
              <input type="checkbox" aria-label={`${name} sells ${plan.slug}`} checked={form.sold[plan.slug] ?? false} onChange={(event) => setForm({ ...form, sold: { ...form.sold, [plan.slug]: event.target.checked } })} />
              <span className="font-mono text-xs">{plan.slug}</span>
              <input
                aria-label={`${plan.slug} price on ${name}`}
                placeholder="29.00"
                disabled={!form.sold[plan.slug]}
                className={`${CONSOLE_FIELD} w-24`}
                value={form.prices[plan.slug] ?? ''}
                onChange={(event) => setForm({ ...form, prices: { ...form.prices, [plan.slug]: event.target.value } })}
              />
            </label>
          ))}
      </div>
      <div className="flex items-center gap-3">
        <Button type="submit" size="sm" disabled={add.isPending || save.isPending}>
          {list ? 'Save list' : 'Add price list'}
        </Button>
        <OutcomeLine outcome={outcome} />
      </div>
    </form>
  );
}

function PriceListsCard({ catalogue }: { catalogue: Catalogue }) {
  return (
    <Card className="space-y-3" aria-label="Price lists">
      <CardTitle>Price lists</CardTitle>
      <CardDescription>
        Each page sells its list's plans at the list's prices in its currency, charged whenever no sale runs (new buyers; members keep the price they bought at). A list you add is served at its own address with its header above the navigation.
      </CardDescription>
      {catalogue.priceLists.map((list) => (
        <PriceListForm key={list.slug} catalogue={catalogue} list={list} />
      ))}
      <PriceListForm key="new" catalogue={catalogue} list={null} />
    </Card>
  );
}

/** The console's three catalogue pages: each edits one part, beside the live preview of the cards. */
export type CatalogueSection = 'plans' | 'price-lists' | 'sales';

const SECTIONS: Record<CatalogueSection, { title: string; description: string }> = {
  plans: { title: 'Plans', description: 'What you sell: each plan, its card and its price, as buyers see them.' },
  'price-lists': { title: 'Price lists', description: 'Your pages: the plans each one sells, at its prices, in its currency.' },
  sales: { title: 'Sales', description: 'Named campaigns with their own prices on one price list, for a time.' },
};

export function CataloguePage({ section }: { section: CatalogueSection }) {
  const query = useCatalogueQuery();
  const [draft, setDrafts] = useState<Draft>({});
  const setDraft = (slug: string, changes: PlanChanges & { price?: string }) => setDrafts((current) => ({ ...current, [slug]: changes }));
  const catalogue = query.data?.catalogue as Catalogue | undefined;
  // the preview shows the draft: each row's unsaved changes applied with the same rules
  const previewed = useMemo(() => {
    if (!catalogue) return null;
    let next: Catalogue = catalogue;
    for (const [slug, { price, ...changes }] of Object.entries(draft)) {
      const edited = updatePlan(next, slug, changes);
      if ('catalogue' in edited) next = edited.catalogue;
      const cents = price === undefined ? NaN : centsOf(price);
      if (Number.isFinite(cents) && cents > 0) {
        next = { ...next, priceLists: next.priceLists.map((list) => ({ ...list, entries: list.entries.map((entry) => (entry.plan === slug ? { ...entry, price: cents } : entry)) })) };
      }
    }
    return next;
  }, [catalogue, draft]);

  return (
    <div className="space-y-6">
      <AdminPageHeader title={SECTIONS[section].title} description={SECTIONS[section].description} />
      {query.isError ? <LoadError what="the catalogue" /> : null}
      {!catalogue || !previewed ? (
        query.isLoading ? <Spinner /> : null
      ) : (
        <div className="grid gap-6 xl:grid-cols-[3fr_2fr]">
          <div className="space-y-6">
            {section === 'plans' ? (
              <>
                <Card className="space-y-2" aria-label="Plans">
                  <CardTitle>Plans</CardTitle>
                  <TableScroll>
                    <table className="w-full text-left">
                      <tbody>
                        {[...catalogue.plans]
                          .sort((a, b) => a.order - b.order)
                          .map((plan) => (
                            <PlanRow key={plan.slug} plan={plan} catalogue={catalogue} draft={draft} setDraft={setDraft} />
                          ))}
                      </tbody>
                    </table>
                  </TableScroll>
                </Card>
                <AddPlanForm catalogue={catalogue} />
                <PublishToStripe />
              </>
            ) : null}
            {section === 'price-lists' ? <PriceListsCard catalogue={catalogue} /> : null}
            {section === 'sales' ? <SalesCard catalogue={catalogue} /> : null}
          </div>
          <Preview catalogue={previewed} />
        </div>
      )}
    </div>
  );
}
