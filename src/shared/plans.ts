// Plan rules over the catalogue (catalogue.ts): plan types are the catalogue's slugs, and behaviour
// asks the plan's record (isRecurring, neverExpires, basePlan…), never its name. The seed's six
// plans (PLAN_TYPES) are the catalogue a shop sells until its operator edits it (decision 045).
import {
  activeCatalogue,
  addMonthsUtc,
  addPeriod,
  DEFAULT_LIST,
  findPlan,
  periodMonths,
  registerSeedCatalogue,
  homeEntry,
  pageOfList,
  type BillingPeriod,
  type Catalogue,
  type CataloguePlan,
} from './catalogue';

export { addMonthsUtc };

/** The seed's plans: the catalogue's first rows and the names of their environment keys (PRICE_MONTHLY…). */
export const PLAN_TYPES = [
  'monthly',
  'quarterly',
  'yearly',
  'lifetime',
  'euMonthly',
  'euQuarterly',
] as const;

export type SeedPlan = (typeof PLAN_TYPES)[number];

/** A plan: a slug of the catalogue, validated at the edge (isPlanType). */
export type PlanType = string;

/** Where a checkout starts: '/' or a price list's page ('/eu'). */
export type OriginPage = string;

function planRecord(planType: PlanType): CataloguePlan | undefined {
  return findPlan(activeCatalogue(), planType);
}

/** A slug of the catalogue in effect (archived plans included: members hold them). */
export function isPlanType(value: unknown): value is PlanType {
  return typeof value === 'string' && planRecord(value) !== undefined;
}

/** The slugs of the catalogue in effect (archived included), in the catalogue's order. */
export function planTypes(): PlanType[] {
  return activeCatalogue().plans.map((plan) => plan.slug);
}

export type PlanInterval = { months: number };

/** A map with a value for each plan of `plans` (e.g. PLAN_TYPES), typed as complete. */
export function perPlan<Plan extends PlanType, T>(plans: readonly Plan[], value: (plan: Plan) => T): Record<Plan, T> {
  return Object.fromEntries(plans.map((plan) => [plan, value(plan)])) as Record<Plan, T>;
}

export function planDisplayName(planType: PlanType): string {
  return planRecord(planType)?.name ?? planType;
}

/** Price per plan in minor units (cents) of USD. */
export type PlanPrices = Record<PlanType, number>;

export const PLAN_CURRENCY = 'usd';

/**
 * Fallback list prices of the seed's plans, used when an order or its price is missing.
 * The yearly value is the yearly card's $17/month × 12 (20400), so a yearly
 * member with a missing order sees what the card advertised.
 */
export const FALLBACK_PRICES: PlanPrices & Record<SeedPlan, number> = {
  monthly: 4999,
  quarterly: 8999,
  yearly: 20400,
  lifetime: 54999,
  euMonthly: 2999,
  euQuarterly: 5999,
};

/**
 * What each default card promises per billing period ($36 × 1, $24 × 3, $17 × 12; EU cards as
 * shown): the seed's sale prices (PRICE_* by default).
 */
export const ADVERTISED_PRICES: PlanPrices & Record<SeedPlan, number> = {
  monthly: 3600,
  quarterly: 7200,
  yearly: 20400,
  lifetime: 54999,
  euMonthly: 2999,
  euQuarterly: 5999,
};

/**
 * Billed every period: it renews, can be cancelled, changes through the plan-change flow, and is
 * ended with a prorated refund when a plan that never expires is bought. An unknown slug reads as recurring.
 */
export function isRecurring(planType: PlanType): boolean {
  return planRecord(planType)?.period !== null;
}

/**
 * A one-time purchase (never_expires on its record): it grants access while active whatever its
 * expiry says, has nothing to renew, and nothing can be bought over it.
 */
export function neverExpires(planType: PlanType): boolean {
  return !isRecurring(planType);
}

/** A plan that stands for another plan's card on its own price list (the seed's EU variants). */
export function isEuPlan(planType: PlanType): boolean {
  return (planRecord(planType)?.variantOf ?? null) !== null;
}

/** Checkout on a list's page buys that list's variant of the card's plan (euMonthly for Monthly on /eu). */
export function toEuPlan(planType: PlanType, originPage: string): PlanType {
  const catalogue = activeCatalogue();
  const list = catalogue.priceLists.find((candidate) => pageOfList(candidate.slug) === originPage);
  if (!list || list.slug === DEFAULT_LIST) return planType;
  const entries = list.entries;
  return entries.find((entry) => findPlan(catalogue, entry.plan)?.variantOf === planType)?.plan ?? planType;
}

/** The plan a card stands for, ignoring a list's variant (euMonthly → monthly). */
export function basePlan(planType: PlanType): PlanType {
  return planRecord(planType)?.variantOf ?? planType;
}

/** The page whose cards sell a plan: '/' or its own list's ('/eu' for euMonthly). */
export function homePage(planType: PlanType): OriginPage {
  const home = homeEntry(activeCatalogue(), planType);
  return home ? pageOfList(home.list.slug) : '/';
}

/** The catalogue's first visible one-time plan (the settings' offer under the cards), or null. */
export function oneTimePlan(): PlanType | null {
  return activeCatalogue().plans.find((plan) => plan.period === null && !plan.archived)?.slug ?? null;
}

/** Ad-pixel InitiateCheckout category: 'one-time' for a plan that never expires, 'subscription' for the rest. */
export function checkoutCategory(planType: PlanType): 'one-time' | 'subscription' {
  return isRecurring(planType) ? 'subscription' : 'one-time';
}

/** Billing period of a recurring plan; null for a one-time plan (and for an unknown slug: a month). */
export function planPeriod(planType: PlanType): BillingPeriod | null {
  const record = planRecord(planType);
  if (!record) return { unit: 'month', count: 1 };
  return record.period;
}

/** Months in a recurring plan's period (a week: 0.23…); null for a one-time plan. */
export function planPeriodInterval(planType: PlanType): PlanInterval | null {
  const period = planPeriod(planType);
  return period === null ? null : { months: periodMonths(period) };
}

/** End of the billing period that starts at `start`; null for a plan that never expires. */
export function planPeriodEnd(planType: PlanType, start: Date): Date | null {
  const period = planPeriod(planType);
  return period ? addPeriod(start, period) : null;
}

function currencyFormatter(currency: string, fractionDigits?: number): Intl.NumberFormat {
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: currency.toUpperCase(),
    ...(fractionDigits === undefined
      ? {}
      : { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits }),
  });
}

export function minorUnitDivisor(currency: string): number {
  // Zero-decimal currencies (JPY…) store whole units; ask Intl rather than assuming cents.
  return 10 ** (currencyFormatter(currency).resolvedOptions().maximumFractionDigits ?? 2);
}

/** Formats minor units for display: formatMoney(4999, 'usd') → '$49.99'. */
export function formatMoney(minor: number, currency: string): string {
  return currencyFormatter(currency).format(minor / minorUnitDivisor(currency));
}

/**
 * Card-style price in the plans' currency (US dollars): whole amounts drop the cents ('$36'),
 * others keep them ('$29.99'). Written out rather than asked of Intl: a page's first
 * Intl.NumberFormat loads the locale data, 25-70 ms of a browser's main thread in one piece, and
 * the landing page formats its cards as it hydrates (its tests hold it equal to Intl's).
 */
export function formatCardPrice(minor: number): string {
  const dollars = String(Math.floor(minor / 100)).replace(/\B(?=(\d{3})+$)/g, ',');
  const cents = minor % 100;
  return cents === 0 ? `$${dollars}` : `$${dollars}.${String(cents).padStart(2, '0')}`;
}

export const PLAN_FEATURES = [
  'Premium Indicators',
  'Community Access',
  'Strategies & Update Guides',
  'Active Product Updates',
  'Trading Setups & Ideas',
  '24/7 Support',
  'VIP Discord',
] as const;

export type PricingCard = {
  name: string;
  planType: PlanType;
  /** Price as shown, e.g. '$36'. */
  price: string;
  period: string;
  originalPrice?: string;
  savings?: string;
  features: readonly string[];
  isPopular: boolean;
  buttonText?: string;
  label?: string;
};

export const DEFAULT_START_TEXT = 'Start now';

const BLACK_FRIDAY = 'Black Friday';

export const DEFAULT_CARDS: readonly PricingCard[] = [
  {
    name: 'Monthly',
    planType: 'monthly',
    price: '$36',
    period: '/month',
    originalPrice: '$47',
    savings: 'Save 23%',
    features: PLAN_FEATURES,
    isPopular: false,
    label: BLACK_FRIDAY,
  },
  {
    name: 'Quarterly',
    planType: 'quarterly',
    price: '$24',
    period: '/month',
    originalPrice: '$47',
    savings: 'Save 49%',
    features: PLAN_FEATURES,
    isPopular: true,
    label: BLACK_FRIDAY,
  },
  {
    name: 'Yearly',
    planType: 'yearly',
    price: '$17',
    period: '/month',
    originalPrice: '$47',
    savings: 'Save 64%',
    features: PLAN_FEATURES,
    isPopular: false,
    label: BLACK_FRIDAY,
  },
];

// EU cards name the base plan types; checkout maps them with toEuPlan(…, '/eu').
export const EU_CARDS: readonly PricingCard[] = [
  {
    name: 'Monthly',
    planType: 'monthly',
    price: '$29.99',
    period: '/Month',
    features: PLAN_FEATURES,
    isPopular: false,
  },
  {
    name: 'Quarterly',
    planType: 'quarterly',
    price: '$59.99',
    period: 'per 3 months',
    originalPrice: '$89.97',
    savings: 'Save 33%',
    features: PLAN_FEATURES,
    isPopular: true,
  },
  {
    name: 'Lifetime',
    planType: 'lifetime',
    price: '$549.99',
    period: 'one time',
    originalPrice: '$1,699.99',
    savings: 'Save 70%',
    features: PLAN_FEATURES,
    isPopular: false,
  },
];

function parseCardPrice(price: string): number | null {
  const amount = Number(price.replace(/[^0-9.]/g, ''));
  return price.trim() === '' || Number.isNaN(amount) ? null : Math.round(amount * 100);
}

/** 'Save N%' of `price` against `original`, rounded to a whole percent. */
export function savingsLabel(priceMinor: number, originalMinor: number): string | undefined {
  if (originalMinor <= 0 || priceMinor >= originalMinor) return undefined;
  return `Save ${Math.round((1 - priceMinor / originalMinor) * 100)}%`;
}

/**
 * Re-prices cards for plans whose price the server overrides (vendor configuration). Cards shown
 * '/month' show the monthly equivalent of the period price; savings are recomputed against the
 * card's original price. Plans without an override, or whose override matches the card, keep the
 * spec's card text unchanged, so passing ADVERTISED_PRICES yields the spec's cards.
 */
export function applyPriceOverrides(
  cards: readonly PricingCard[],
  overrides: Partial<PlanPrices>,
  originPage: OriginPage,
): PricingCard[] {
  return cards.map((card) => {
    const override = overrides[toEuPlan(card.planType, originPage)];
    if (override === undefined) return card;
    const interval = planPeriodInterval(card.planType);
    const perMonth = /month/i.test(card.period) && card.period.startsWith('/');
    const shown = perMonth && interval ? Math.round(override / interval.months) : override;
    // An override equal to what the card already shows keeps the spec's text (e.g. 'Save 70%').
    if (parseCardPrice(card.price) === shown) return card;
    const original = card.originalPrice ? parseCardPrice(card.originalPrice) : null;
    const savings = original === null ? card.savings : savingsLabel(shown, original);
    const repriced: PricingCard = { ...card, price: formatCardPrice(shown) };
    if (savings === undefined) delete repriced.savings;
    else repriced.savings = savings;
    return repriced;
  });
}

// ---------------------------------------------------------------------------------------------
// The seed's catalogue: today's plans, cards, prices and sale as data (decision record 045).

/** The seed's sale: the default page's recurring plans. */
export const SEED_SALE_PLANS = ['monthly', 'quarterly', 'yearly'] as const;
export type SeedSalePlan = (typeof SEED_SALE_PLANS)[number];

export const DEFAULT_SALE_LABEL = 'Black Friday';

/** The spec's cards strike through $47 a month on every plan: that is the regular price. */
export const DEFAULT_REGULAR_PRICES: Record<SeedSalePlan, number> = { monthly: 4700, quarterly: 14100, yearly: 56400 };

/** The EU Lifetime card's struck price and badge ('Save 70%' is the spec's, not computed). */
const LIFETIME_REGULAR = 169999;
const LIFETIME_BADGE = 'Save 70%';

export type SeedInput = {
  /** PRICE_*: the sale's prices of the default page's plans, the standing prices of the others. */
  prices: Record<SeedPlan, number>;
  /** REGULAR_PRICE_*: the default page's prices when no sale runs. */
  regularPrices: Record<SeedSalePlan, number>;
  saleEndsAt: string | null;
  saleLabel: string;
  /** DISCORD_ROLE_IDS_<PLAN>. */
  discordRoleIds?: Partial<Record<SeedPlan, readonly string[]>>;
};

export const DEFAULT_SEED_INPUT: SeedInput = {
  prices: ADVERTISED_PRICES,
  regularPrices: DEFAULT_REGULAR_PRICES,
  saleEndsAt: null,
  saleLabel: DEFAULT_SALE_LABEL,
};

type SeedPlanShape = Omit<CataloguePlan, 'discordRoleIds' | 'features' | 'archived' | 'trialDays' | 'buttonText'>;

const SEED_PLANS: readonly SeedPlanShape[] = [
  { slug: 'monthly', name: 'Monthly', period: { unit: 'month', count: 1 }, variantOf: null, regularPrice: null, badge: null, popular: false, order: 1, periodLabel: null, perMonth: true },
  { slug: 'quarterly', name: 'Quarterly', period: { unit: 'month', count: 3 }, variantOf: null, regularPrice: null, badge: null, popular: true, order: 2, periodLabel: null, perMonth: true },
  { slug: 'yearly', name: 'Yearly', period: { unit: 'year', count: 1 }, variantOf: null, regularPrice: null, badge: null, popular: false, order: 3, periodLabel: null, perMonth: true },
  { slug: 'lifetime', name: 'Lifetime', period: null, variantOf: null, regularPrice: LIFETIME_REGULAR, badge: LIFETIME_BADGE, popular: false, order: 6, periodLabel: 'one time', perMonth: false },
  { slug: 'euMonthly', name: 'Monthly', period: { unit: 'month', count: 1 }, variantOf: 'monthly', regularPrice: null, badge: null, popular: false, order: 4, periodLabel: '/Month', perMonth: false },
  { slug: 'euQuarterly', name: 'Quarterly', period: { unit: 'month', count: 3 }, variantOf: 'quarterly', regularPrice: 8997, badge: null, popular: true, order: 5, periodLabel: 'per 3 months', perMonth: false },
];

/** The seed's catalogue from today's prices and sale (PRICE_*, REGULAR_PRICE_*, SALE_ENDS_AT, SALE_LABEL). */
export function seedCatalogue(input: SeedInput = DEFAULT_SEED_INPUT): Catalogue {
  const plans: CataloguePlan[] = SEED_PLANS.map((plan) => ({
    ...plan,
    // the spec's badge belongs to the spec's price; another PRICE_LIFETIME computes its own
    badge: plan.badge !== null && input.prices[plan.slug as SeedPlan] === ADVERTISED_PRICES[plan.slug as SeedPlan] ? plan.badge : null,
    buttonText: null,
    features: PLAN_FEATURES,
    trialDays: null,
    discordRoleIds: [...(input.discordRoleIds?.[plan.slug as SeedPlan] ?? [])],
    archived: false,
  }));
  return {
    plans,
    priceLists: [
      { slug: DEFAULT_LIST, currency: PLAN_CURRENCY, header: null, countdown: true, entries: SEED_SALE_PLANS.map((plan) => ({ plan, price: input.regularPrices[plan] })) },
      {
        slug: 'eu',
        currency: PLAN_CURRENCY,
        header: null,
        countdown: false,
        entries: (['euMonthly', 'euQuarterly', 'lifetime'] as const).map((plan) => ({ plan, price: input.prices[plan] })),
      },
    ],
    sales: [
      {
        id: 'seed',
        label: input.saleLabel,
        startsAt: null,
        endsAt: input.saleEndsAt,
        countdown: true,
        list: DEFAULT_LIST,
        prices: SEED_SALE_PLANS.map((plan) => ({ plan, price: input.prices[plan] })),
      },
    ],
  };
}

const DEFAULT_SEED = seedCatalogue();
registerSeedCatalogue(() => DEFAULT_SEED);
