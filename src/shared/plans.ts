// Plan catalogue: plan types, list prices, pricing cards and the EU mapping.
// Behaviour asks the rules here (isRecurring, neverExpires, basePlan…), never a plan's name.
// Adding a plan: one entry in PLAN_TYPES and in PLANS, its prices (FALLBACK_PRICES,
// ADVERTISED_PRICES; env keys STRIPE_PRICE_<PLAN> and PRICE_<PLAN> in .env.example, README,
// docs/going-live.md), its texts (its card below, its label in client/features/admin/format.ts).
// The count before and after, and what still names 'lifetime': docs/decisions/018-typed-plans.md.

export const PLAN_TYPES = [
  'monthly',
  'quarterly',
  'yearly',
  'lifetime',
  'euMonthly',
  'euQuarterly',
] as const;

export type PlanType = (typeof PLAN_TYPES)[number];

/** Where a checkout starts; the EU landing page sells the EU variants of the recurring plans. */
export type OriginPage = '/' | '/eu';

export function isPlanType(value: unknown): value is PlanType {
  return typeof value === 'string' && (PLAN_TYPES as readonly string[]).includes(value);
}

export type PlanInterval = { months: 1 | 3 | 12 };

type PlanDefinition = {
  /** The name buyers read. */
  displayName: string;
  /** Length of a billing period; null for a one-time purchase, which never expires (lifetime). */
  periodMonths: PlanInterval['months'] | null;
  /** The default page's plan an EU variant stands for; null for a plan sold on the default page. */
  euVariantOf: PlanType | null;
};

/** What each plan is. Behaviour asks the helpers below, which read this, never a plan's name. */
const PLANS: Record<PlanType, PlanDefinition> = {
  monthly: { displayName: 'Monthly', periodMonths: 1, euVariantOf: null },
  quarterly: { displayName: 'Quarterly', periodMonths: 3, euVariantOf: null },
  yearly: { displayName: 'Yearly', periodMonths: 12, euVariantOf: null },
  lifetime: { displayName: 'Lifetime', periodMonths: null, euVariantOf: null },
  // EU buyers see the same plan names; the variant only changes price and billing.
  euMonthly: { displayName: 'Monthly', periodMonths: 1, euVariantOf: 'monthly' },
  euQuarterly: { displayName: 'Quarterly', periodMonths: 3, euVariantOf: 'quarterly' },
};

/** A map with a value for each plan of `plans` (e.g. PLAN_TYPES), typed as complete. */
export function perPlan<Plan extends PlanType, T>(plans: readonly Plan[], value: (plan: Plan) => T): Record<Plan, T> {
  return Object.fromEntries(plans.map((plan) => [plan, value(plan)])) as Record<Plan, T>;
}

export function planDisplayName(planType: PlanType): string {
  return PLANS[planType].displayName;
}

/** Price per plan in minor units (cents) of USD. */
export type PlanPrices = Record<PlanType, number>;

export const PLAN_CURRENCY = 'usd';

/**
 * Fallback list prices, used when an order or its price is missing.
 * The yearly value is the yearly card's $17/month × 12 (20400), so a yearly
 * member with a missing order sees what the card advertised.
 */
export const FALLBACK_PRICES: PlanPrices = {
  monthly: 4999,
  quarterly: 8999,
  yearly: 20400,
  lifetime: 54999,
  euMonthly: 2999,
  euQuarterly: 5999,
};

/**
 * What each default card promises per billing period ($36 × 1, $24 × 3, $17 × 12; EU cards as
 * shown). The spec's monthly and quarterly fallback prices differ from the Black Friday cards,
 * so a checkout that charges FALLBACK_PRICES would charge more than the card says; charge these.
 */
export const ADVERTISED_PRICES: PlanPrices = {
  monthly: 3600,
  quarterly: 7200,
  yearly: 20400,
  lifetime: 54999,
  euMonthly: 2999,
  euQuarterly: 5999,
};

/**
 * Billed every period: it renews, can be cancelled, changes through the plan-change flow, and is
 * ended with a prorated refund when a plan that never expires is bought.
 */
export function isRecurring(planType: PlanType): boolean {
  return PLANS[planType].periodMonths !== null;
}

/**
 * A one-time purchase (lifetime): it grants access while active whatever its expiry says, has
 * nothing to renew, and nothing can be bought over it (the buyer already holds the top plan).
 */
export function neverExpires(planType: PlanType): boolean {
  return !isRecurring(planType);
}

export function isEuPlan(planType: PlanType): boolean {
  return PLANS[planType].euVariantOf !== null;
}

/** Checkout on the EU page buys the EU variant of monthly and quarterly (create-checkout). */
export function toEuPlan(planType: PlanType, originPage: string): PlanType {
  if (originPage !== '/eu') return planType;
  return PLAN_TYPES.find((plan) => PLANS[plan].euVariantOf === planType) ?? planType;
}

/** The plan a card stands for, ignoring the EU variant (euMonthly → monthly). */
export function basePlan(planType: PlanType): PlanType {
  return PLANS[planType].euVariantOf ?? planType;
}

/** Ad-pixel InitiateCheckout category: 'one-time' for lifetime, 'subscription' for the rest. */
export function checkoutCategory(planType: PlanType): 'one-time' | 'subscription' {
  return isRecurring(planType) ? 'subscription' : 'one-time';
}

/** Billing period of a recurring plan; null for lifetime, which never expires. */
export function planPeriodInterval(planType: PlanType): PlanInterval | null {
  const months = PLANS[planType].periodMonths;
  return months === null ? null : { months };
}

/**
 * Adds calendar months in UTC, clamping to the last day of a shorter month the way Stripe does
 * (Jan 31 + 1 month = Feb 28/29), so our sandbox periods match the real provider's.
 */
export function addMonthsUtc(date: Date, months: number): Date {
  const result = new Date(date.getTime());
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(
    Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0),
  ).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

/** End of the billing period that starts at `start`; null for lifetime. */
export function planPeriodEnd(planType: PlanType, start: Date): Date | null {
  const interval = planPeriodInterval(planType);
  return interval ? addMonthsUtc(start, interval.months) : null;
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
