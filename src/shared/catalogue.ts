// The catalogue as data (decision record 045): plans, price lists and sales, the one place for a
// billing period's arithmetic, and the rules an edit must pass. The operator edits it (console,
// `npm run admin -- plans`); until the first edit a shop sells the seed's catalogue, built from
// today's constants and environment. Behaviour asks a plan's record, never its name.

export const PERIOD_UNITS = ['day', 'week', 'month', 'year'] as const;
export type PeriodUnit = (typeof PERIOD_UNITS)[number];

/** How often a recurring plan bills: every `count` `unit`s. */
export type BillingPeriod = { unit: PeriodUnit; count: number };

export type CataloguePlan = {
  slug: string;
  /** The name buyers read. */
  name: string;
  /** Billing period; null for a one-time purchase, which never expires. */
  period: BillingPeriod | null;
  /** The plan the card stands for on another list (the seed's EU variants: euMonthly → monthly); null for itself. */
  variantOf: string | null;
  /** The struck-through price shown when no sale runs (the EU cards' $89.97); null: none. */
  regularPrice: number | null;
  /** The savings badge's own text; null: computed from the prices ('Save 23%'). */
  badge: string | null;
  /** "Most popular": the highlighted card. */
  popular: boolean;
  /** The card's button; null: 'Start now'. */
  buttonText: string | null;
  features: readonly string[];
  /** Position among the cards (ascending). */
  order: number;
  /** The card's period text ('/Month', 'per 3 months'); null: computed from the period. */
  periodLabel: string | null;
  /** The card shows the per-month equivalent of the period's price ('$24' '/month' for a quarter). */
  perMonth: boolean;
  /** Free-trial days of this plan; null: the shop's TRIAL_DAYS/TRIAL_PLANS decide. */
  trialDays: number | null;
  /** Discord roles the plan gives beside the members' roles. */
  discordRoleIds: readonly string[];
  /** Archived: kept for the members who hold it, gone from the cards and plan changes. */
  archived: boolean;
};

export type PriceListEntry = { plan: string; price: number };

export type PriceList = {
  /** '/' is the default page; any other is its page's path without the slash ('eu' for /eu). */
  slug: string;
  currency: string;
  /** The page's header above the cards; null: the default page's. */
  header: string | null;
  /** Whether a running sale on this list shows the countdown. */
  countdown: boolean;
  /** The plans it sells, at their price on this list (charged whenever no sale runs). */
  entries: readonly PriceListEntry[];
};

export type Sale = {
  id: string;
  label: string;
  /** ISO instant; null: from the start. */
  startsAt: string | null;
  /** ISO instant; null: the demo's rolling sale, which always ends in a few days. */
  endsAt: string | null;
  countdown: boolean;
  list: string;
  prices: readonly PriceListEntry[];
};

export type Catalogue = {
  plans: readonly CataloguePlan[];
  priceLists: readonly PriceList[];
  sales: readonly Sale[];
};

export const DEFAULT_LIST = '/';

// ---------------------------------------------------------------------------------------------
// Period arithmetic: the one place (sandbox, doctor, reports, promotions, trials, fake Stripe).

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Adds calendar months in UTC, clamping to the last day of a shorter month the way Stripe does
 * (Jan 31 + 1 month = Feb 28/29), so our sandbox periods match the real provider's.
 */
export function addMonthsUtc(date: Date, months: number): Date {
  const result = new Date(date.getTime());
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

/** The end of one period that starts at `start`. */
export function addPeriod(start: Date, period: BillingPeriod): Date {
  switch (period.unit) {
    case 'day':
      return new Date(start.getTime() + period.count * DAY_MS);
    case 'week':
      return new Date(start.getTime() + period.count * 7 * DAY_MS);
    case 'month':
      return addMonthsUtc(start, period.count);
    case 'year':
      return addMonthsUtc(start, period.count * 12);
  }
}

const DAYS_PER_MONTH = 365.25 / 12;

/** How many months one period lasts (a week: 0.23…), for per-month equivalents. */
export function periodMonths(period: BillingPeriod): number {
  switch (period.unit) {
    case 'day':
      return period.count / DAYS_PER_MONTH;
    case 'week':
      return (period.count * 7) / DAYS_PER_MONTH;
    case 'month':
      return period.count;
    case 'year':
      return period.count * 12;
  }
}

/** A whole number of months when the period is one (month, year), else null. */
export function wholeMonths(period: BillingPeriod): number | null {
  return period.unit === 'month' || period.unit === 'year' ? periodMonths(period) : null;
}

/** The per-month equivalent of one period's price, in minor units. */
export function perMonthAmount(amount: number, period: BillingPeriod | null): number {
  return period === null ? amount : Math.round(amount / periodMonths(period));
}

/** Stripe's `recurring` for a period: { interval: 'week', interval_count: 2 }. */
export function stripeRecurring(period: BillingPeriod): { interval: PeriodUnit; interval_count: number } {
  return { interval: period.unit, interval_count: period.count };
}

/** A Stripe price's recurring as a period; null for a one-time price or an interval we do not know. */
export function periodOfStripe(recurring: { interval: string; interval_count: number } | null | undefined): BillingPeriod | null {
  if (!recurring || !(PERIOD_UNITS as readonly string[]).includes(recurring.interval)) return null;
  return { unit: recurring.interval as PeriodUnit, count: recurring.interval_count };
}

export function samePeriod(a: BillingPeriod | null, b: BillingPeriod | null): boolean {
  return a === null || b === null ? a === b : a.unit === b.unit && a.count === b.count;
}

/** 'month', '3 months', 'week', '2 weeks'. */
export function periodText(period: BillingPeriod): string {
  return period.count === 1 ? period.unit : `${period.count} ${period.unit}s`;
}

/** '/month', '/year', '/week', ' every 3 months': how a plan's full charge repeats. */
export function chargePeriodText(period: BillingPeriod): string {
  return period.count === 1 ? `/${period.unit}` : ` every ${periodText(period)}`;
}

/** 'per month', 'every 3 months', 'per week': the sandbox checkout's and portal's words. */
export function billingPeriodWords(period: BillingPeriod | null): string {
  if (period === null) return 'one-time payment';
  return period.count === 1 ? `per ${period.unit}` : `every ${periodText(period)}`;
}

/** The member's Settings line: 'Billed every month', 'Billed every 2 weeks', 'Billed every 3 months'; 'One-time payment'. */
export function billedEveryText(period: BillingPeriod | null): string {
  return period === null ? 'One-time payment' : `Billed every ${periodText(period)}`;
}

/** `--every` of the command line: '1w', '3m', '14d', '1y'. */
export function parseEvery(text: string): BillingPeriod | string {
  const match = /^(\d+)([a-z]+)$/i.exec(text.trim());
  if (!match) return `--every must be a count and a unit (d, w, m or y), e.g. 1w or 3m; got "${text}".`;
  const units: Record<string, PeriodUnit> = { d: 'day', w: 'week', m: 'month', y: 'year' };
  const unit = units[match[2]!.toLowerCase()];
  if (!unit) return `Unknown period unit "${match[2]}": use d, w, m or y.`;
  const count = Number(match[1]);
  if (count < 1) return 'The period count must be at least 1.';
  return { unit, count };
}

// ---------------------------------------------------------------------------------------------
// The rules an edit passes (console: 400; command line: exit 2), each with its reason.

export const MAX_PRICE = 100_000_000;
/** Longest trial a plan may give (Stripe's limit on trial_period_days; trials.ts's MAX_TRIAL_DAYS). */
export const MAX_PLAN_TRIAL_DAYS = 730;
/** Longest period a plan may bill (Stripe's limit is three years). */
const MAX_PERIOD_MONTHS = 36;

export function priceProblem(price: unknown): string | null {
  if (typeof price !== 'number' || !Number.isInteger(price)) return 'A price is a whole number of cents.';
  if (price <= 0) return 'A price must be more than 0.';
  if (price > MAX_PRICE) return 'A price may be at most 1,000,000.00.';
  return null;
}

export function periodProblem(period: unknown): string | null {
  if (period === null) return null;
  if (typeof period !== 'object') return 'A period is { unit, count } or one-time.';
  const { unit, count } = period as { unit?: unknown; count?: unknown };
  if (!(PERIOD_UNITS as readonly unknown[]).includes(unit)) return `Unknown period unit "${String(unit)}": use day, week, month or year.`;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) return 'The period count must be a whole number of at least 1.';
  if (periodMonths({ unit: unit as PeriodUnit, count }) > MAX_PERIOD_MONTHS) return 'A period may last at most three years.';
  return null;
}

const SLUG = /^[a-z0-9][a-zA-Z0-9_-]{0,39}$/;

export function slugProblem(slug: string, existing: readonly string[]): string | null {
  if (!SLUG.test(slug)) return `"${slug}" is not URL-safe: use letters, digits, - and _ (starting with a lower-case letter or digit, at most 40).`;
  if (existing.includes(slug)) return `A plan "${slug}" exists already.`;
  return null;
}

/** Whether a sale's window [startsAt, endsAt) meets another's on the same list. */
function overlaps(a: Pick<Sale, 'startsAt' | 'endsAt'>, b: Pick<Sale, 'startsAt' | 'endsAt'>): boolean {
  const start = (sale: Pick<Sale, 'startsAt'>) => (sale.startsAt === null ? -Infinity : Date.parse(sale.startsAt));
  const end = (sale: Pick<Sale, 'endsAt'>) => (sale.endsAt === null ? Infinity : Date.parse(sale.endsAt));
  return start(a) < end(b) && start(b) < end(a);
}

/** Every rule a whole catalogue obeys; the first broken one's reason, or null. */
export function catalogueProblem(catalogue: Catalogue): string | null {
  const slugs = catalogue.plans.map((plan) => plan.slug);
  for (const plan of catalogue.plans) {
    if (!SLUG.test(plan.slug)) return `"${plan.slug}" is not URL-safe.`;
    if (slugs.indexOf(plan.slug) !== slugs.lastIndexOf(plan.slug)) return `A plan "${plan.slug}" exists already.`;
    if (plan.name.trim() === '') return `Plan ${plan.slug} needs a name.`;
    const period = periodProblem(plan.period);
    if (period) return period;
    if (plan.regularPrice !== null && priceProblem(plan.regularPrice)) return `Regular price of ${plan.slug}: ${priceProblem(plan.regularPrice)}`;
  }
  if (!catalogue.plans.some((plan) => !plan.archived && catalogue.priceLists.some((list) => list.entries.some((entry) => entry.plan === plan.slug)))) {
    return 'At least one plan must stay visible: archiving the last one would leave nothing to buy.';
  }
  const lists = catalogue.priceLists.map((list) => list.slug);
  if (!lists.includes(DEFAULT_LIST)) return 'The default price list "/" cannot go.';
  for (const list of catalogue.priceLists) {
    if (list.slug !== DEFAULT_LIST && !SLUG.test(list.slug)) return `"${list.slug}" is not URL-safe.`;
    for (const entry of list.entries) {
      if (!slugs.includes(entry.plan)) return `Price list ${list.slug} sells an unknown plan "${entry.plan}".`;
      const problem = priceProblem(entry.price);
      if (problem) return `${entry.plan} on ${list.slug}: ${problem}`;
    }
  }
  for (const sale of catalogue.sales) {
    if (sale.label.trim() === '') return 'A sale needs a label.';
    if (!lists.includes(sale.list)) return `Sale ${sale.label} is on an unknown price list "${sale.list}".`;
    if (sale.startsAt !== null && sale.endsAt !== null && Date.parse(sale.endsAt) <= Date.parse(sale.startsAt)) return `Sale ${sale.label} ends before it starts.`;
    for (const entry of sale.prices) {
      if (!catalogue.priceLists.find((list) => list.slug === sale.list)!.entries.some((listed) => listed.plan === entry.plan)) {
        return `Sale ${sale.label}: ${entry.plan} is not sold on ${sale.list}.`;
      }
      const problem = priceProblem(entry.price);
      if (problem) return `Sale ${sale.label}, ${entry.plan}: ${problem}`;
    }
    const other = catalogue.sales.slice(0, catalogue.sales.indexOf(sale)).find((candidate) => candidate.list === sale.list && overlaps(candidate, sale));
    if (other) return `Sales ${other.label} and ${sale.label} overlap on ${sale.list}: at most one runs on a list at a time.`;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Reading a catalogue.

export function findPlan(catalogue: Catalogue, slug: string): CataloguePlan | undefined {
  return catalogue.plans.find((plan) => plan.slug === slug);
}

export function findList(catalogue: Catalogue, slug: string): PriceList | undefined {
  return catalogue.priceLists.find((list) => list.slug === slug);
}

/** The list a page sells: '/' for the default page, 'eu' for /eu. */
export function listOfPage(page: string): string {
  const slug = page.replace(/^\/+|\/+$/g, '');
  return slug === '' ? DEFAULT_LIST : slug;
}

/** The page of a list: '/', '/eu'. */
export function pageOfList(list: string): string {
  return list === DEFAULT_LIST ? '/' : `/${list}`;
}

/** The first list (default first) that sells a plan, with the plan's price there. */
export function homeEntry(catalogue: Catalogue, plan: string): { list: PriceList; entry: PriceListEntry } | null {
  const ordered = [...catalogue.priceLists].sort((a, b) => Number(b.slug === DEFAULT_LIST) - Number(a.slug === DEFAULT_LIST));
  for (const list of ordered) {
    const entry = list.entries.find((candidate) => candidate.plan === plan);
    if (entry) return { list, entry };
  }
  return null;
}

/** The demo's rolling sale (a sale with no end) ends at the end of the UTC day this many days ahead. */
export const ROLLING_SALE_DAYS = 3;

/** Where a rolling sale ends, seen at `now`: always between 3 and 4 days away. */
export function rollingSaleEnd(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + ROLLING_SALE_DAYS, 23, 59, 59));
}

/** The sale running on a list at `now`, if any. */
export function runningSale(catalogue: Catalogue, list: string, now: Date, rollingEnd: (now: Date) => Date): Sale | null {
  return (
    catalogue.sales.find((sale) => {
      if (sale.list !== list) return false;
      const start = sale.startsAt === null ? -Infinity : Date.parse(sale.startsAt);
      const end = sale.endsAt === null ? rollingEnd(now).getTime() : Date.parse(sale.endsAt);
      return start <= now.getTime() && now.getTime() < end;
    }) ?? null
  );
}

/** The plans a list shows as cards, in order: listed there and not archived. */
export function visiblePlans(catalogue: Catalogue, list: string): CataloguePlan[] {
  const entries = findList(catalogue, list)?.entries ?? [];
  return catalogue.plans
    .filter((plan) => !plan.archived && entries.some((entry) => entry.plan === plan.slug))
    .sort((a, b) => a.order - b.order);
}

// ---------------------------------------------------------------------------------------------
// The catalogue in effect in this process: the server sets it when it loads or reloads the
// catalogue, the browser from the site settings; until then the seed's (decision record 045).

let active: Catalogue | null = null;
let fallback: () => Catalogue = () => {
  throw new Error('catalogue: no seed registered');
};

/** Registers the seed used before any catalogue is set (plans.ts does it with the seed's catalogue). */
export function registerSeedCatalogue(seed: () => Catalogue): void {
  fallback = seed;
}

export function setActiveCatalogue(catalogue: Catalogue | null): void {
  active = catalogue;
}

export function activeCatalogue(): Catalogue {
  return active ?? fallback();
}

// ---------------------------------------------------------------------------------------------
// Edits: each returns the new catalogue or the reason it is refused (nothing is saved then).

export type Edit = { catalogue: Catalogue } | { problem: string };

function withPlans(catalogue: Catalogue, plans: readonly CataloguePlan[]): Catalogue {
  return { ...catalogue, plans };
}

function listProblem(catalogue: Catalogue, list: string): string | null {
  return findList(catalogue, list) ? null : `Unknown price list "${list}" (lists: ${catalogue.priceLists.map((candidate) => candidate.slug).join(', ')}).`;
}

export type NewPlan = { slug: string; name: string; price: number; period: BillingPeriod | null; list?: string };

/** A new plan, sold on `list` ('/' by default) at `price`, shown after the others. */
export function addPlan(catalogue: Catalogue, input: NewPlan): Edit {
  const list = input.list ?? DEFAULT_LIST;
  const problem =
    slugProblem(input.slug, catalogue.plans.map((plan) => plan.slug)) ??
    (input.name.trim() === '' ? 'A plan needs a name.' : null) ??
    priceProblem(input.price) ??
    periodProblem(input.period) ??
    listProblem(catalogue, list);
  if (problem) return { problem };
  const plan: CataloguePlan = {
    slug: input.slug,
    name: input.name.trim(),
    period: input.period,
    variantOf: null,
    regularPrice: null,
    badge: null,
    popular: false,
    buttonText: null,
    features: [],
    order: Math.max(0, ...catalogue.plans.map((candidate) => candidate.order)) + 1,
    periodLabel: null,
    perMonth: false,
    trialDays: null,
    discordRoleIds: [],
    archived: false,
  };
  return {
    catalogue: {
      ...withPlans(catalogue, [...catalogue.plans, plan]),
      priceLists: catalogue.priceLists.map((candidate) => (candidate.slug === list ? { ...candidate, entries: [...candidate.entries, { plan: plan.slug, price: input.price }] } : candidate)),
    },
  };
}

/** A plan's price on a list (charged whenever no sale runs); a plan the list did not sell is added to it. */
export function setPrice(catalogue: Catalogue, slug: string, price: number, list: string = DEFAULT_LIST): Edit {
  const problem = (findPlan(catalogue, slug) ? null : `Unknown plan "${slug}".`) ?? priceProblem(price) ?? listProblem(catalogue, list);
  if (problem) return { problem };
  return {
    catalogue: {
      ...catalogue,
      priceLists: catalogue.priceLists.map((candidate) => {
        if (candidate.slug !== list) return candidate;
        const sold = candidate.entries.some((entry) => entry.plan === slug);
        return { ...candidate, entries: sold ? candidate.entries.map((entry) => (entry.plan === slug ? { ...entry, price } : entry)) : [...candidate.entries, { plan: slug, price }] };
      }),
    },
  };
}

/** Archives a plan: gone from the cards and plan changes, still valid for the members who hold it. */
export function archivePlan(catalogue: Catalogue, slug: string): Edit {
  const plan = findPlan(catalogue, slug);
  if (!plan) return { problem: `Unknown plan "${slug}".` };
  if (plan.archived) return { problem: `Plan ${slug} is archived already.` };
  const next = withPlans(catalogue, catalogue.plans.map((candidate) => (candidate.slug === slug ? { ...candidate, archived: true } : candidate)));
  if (!next.plans.some((candidate) => !candidate.archived)) return { problem: 'At least one plan must stay visible: archiving the last one would leave nothing to buy.' };
  return { catalogue: next };
}

/** What the console may change on a plan (its slug and period stay: members and prices hold them). */
export type PlanChanges = Partial<Pick<CataloguePlan, 'name' | 'regularPrice' | 'badge' | 'popular' | 'buttonText' | 'features' | 'order' | 'periodLabel' | 'perMonth' | 'trialDays' | 'discordRoleIds' | 'archived'>>;

export function updatePlan(catalogue: Catalogue, slug: string, changes: PlanChanges): Edit {
  const plan = findPlan(catalogue, slug);
  if (!plan) return { problem: `Unknown plan "${slug}".` };
  if (changes.name !== undefined && changes.name.trim() === '') return { problem: 'A plan needs a name.' };
  if (changes.trialDays !== undefined && changes.trialDays !== null) {
    if (!Number.isInteger(changes.trialDays) || changes.trialDays < 0 || changes.trialDays > MAX_PLAN_TRIAL_DAYS) return { problem: `Trial days are a whole number from 0 to ${MAX_PLAN_TRIAL_DAYS}.` };
    if (plan.period === null && changes.trialDays > 0) return { problem: `${plan.name} is a one-time purchase: it has no free trial.` };
  }
  if (changes.regularPrice !== undefined && changes.regularPrice !== null) {
    const problem = priceProblem(changes.regularPrice);
    if (problem) return { problem: `Regular price: ${problem}` };
  }
  const next = withPlans(catalogue, catalogue.plans.map((candidate) => (candidate.slug === slug ? { ...candidate, ...changes } : candidate)));
  if (!next.plans.some((candidate) => !candidate.archived)) return { problem: 'At least one plan must stay visible: archiving the last one would leave nothing to buy.' };
  return { catalogue: next };
}

/** Adds or replaces a sale (by id); its window may not meet another sale's on the same list. */
export function saveSale(catalogue: Catalogue, sale: Sale): Edit {
  if (sale.startsAt !== null && sale.endsAt !== null && Date.parse(sale.endsAt) <= Date.parse(sale.startsAt)) return { problem: `Sale ${sale.label} ends before it starts.` };
  const next = { ...catalogue, sales: [...catalogue.sales.filter((candidate) => candidate.id !== sale.id), sale] };
  const problem = catalogueProblem(next);
  return problem ? { problem } : { catalogue: next };
}

export function removeSale(catalogue: Catalogue, id: string): Edit {
  if (!catalogue.sales.some((sale) => sale.id === id)) return { problem: `Unknown sale "${id}".` };
  return { catalogue: { ...catalogue, sales: catalogue.sales.filter((sale) => sale.id !== id) } };
}
