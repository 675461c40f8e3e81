// The sale campaign (hero banner, pricing cards, countdown): when it ends, what it is called, what each plan costs while
// it runs and after, and every text that advertises it. One place, so the cards, the hero, the
// offer bar, the checkout and the amount charged can never disagree. See decision record 011.
import {
  activeCatalogue,
  DEFAULT_LIST,
  findList,
  homeEntry,
  listOfPage,
  pageOfList,
  perMonthAmount,
  rollingSaleEnd,
  runningSale,
  visiblePlans,
  type Catalogue,
  type CataloguePlan,
  type Sale,
} from './catalogue';
import {
  ADVERTISED_PRICES,
  DEFAULT_REGULAR_PRICES,
  DEFAULT_SALE_LABEL,
  PLAN_CURRENCY,
  PLAN_FEATURES,
  savingsLabel,
  SEED_SALE_PLANS,
  type OriginPage,
  type PlanPrices,
  type PlanType,
  type PricingCard,
  type SeedSalePlan,
  toEuPlan,
} from './plans';
import { formatListPrice, ownListCharge, ownListPrice } from './price-lists';

export { DEFAULT_REGULAR_PRICES, DEFAULT_SALE_LABEL };

/** The seed's sale plans: the default landing page's cards (REGULAR_PRICE_* names them). */
export const CAMPAIGN_PLANS = SEED_SALE_PLANS;

export type CampaignPlan = SeedSalePlan;

export type Campaign = {
  /** The end as an ISO instant; null is the demo's rolling sale, which always ends in a few days. */
  saleEndsAt: string | null;
  /** 'Black Friday': on the cards and in the countdown ('Black Friday Sale ends in'). */
  saleLabel: string;
  /** What each plan costs while the sale runs; plans outside the sale always cost this. */
  prices: PlanPrices;
  /** What the sale's plans cost after the end (their price on the default list), struck through while it runs. */
  regularPrices: Partial<Record<PlanType, number>>;
  /** The catalogue the cards are laid out from; absent: the one in effect (catalogue.ts). */
  catalogue?: Catalogue;
};

export { ROLLING_SALE_DAYS } from './catalogue';

/** The hero's sale banner, shown as written while the default sale prices apply. */
export const SPEC_SALE_BANNER = 'Save up to 65%';

/** Whether a plan is on the campaign's sale (its price after the end is known). */
export function isCampaignPlan(campaign: Pick<Campaign, 'regularPrices'>, planType: PlanType): boolean {
  return campaign.regularPrices[planType] !== undefined;
}

/** When the sale ends, seen at `now`; a rolling sale is always between 3 and 4 days from its end. */
export function saleEnd(campaign: Pick<Campaign, 'saleEndsAt'>, now: Date): Date {
  return campaign.saleEndsAt !== null ? new Date(campaign.saleEndsAt) : rollingSaleEnd(now);
}

export function isSaleRunning(campaign: Pick<Campaign, 'saleEndsAt'>, now: Date): boolean {
  return now.getTime() < saleEnd(campaign, now).getTime();
}

/** The price of every plan in effect: what the cards show and what a checkout charges. */
export function currentPrices(campaign: Campaign, running: boolean): PlanPrices {
  if (running) return campaign.prices;
  const prices: PlanPrices = { ...campaign.prices };
  for (const [plan, price] of Object.entries(campaign.regularPrices)) if (price !== undefined) prices[plan] = price;
  return prices;
}

/** A card's period words: the plan's own, else '/month' for per-month cards, '/week', ' every 2 weeks', 'one time'. */
function cardPeriod(plan: CataloguePlan): string {
  if (plan.periodLabel !== null) return plan.periodLabel;
  if (plan.period === null) return 'one time';
  if (plan.perMonth) return '/month';
  return plan.period.count === 1 ? `/${plan.period.unit}` : `per ${plan.period.count} ${plan.period.unit}s`;
}

/** "$72 billed every 3 months": under a per-month price, what each period charges. */
export function billedText(plan: Pick<CataloguePlan, 'period' | 'perMonth'>, amount: number, currency: string = PLAN_CURRENCY): string | undefined {
  if (!plan.perMonth || plan.period === null) return undefined;
  if (plan.period.unit === 'month' && plan.period.count === 1) return undefined;
  const every = plan.period.count === 1 ? plan.period.unit : `${plan.period.count} ${plan.period.unit}s`;
  return `${formatListPrice(amount, currency)} billed every ${every}`;
}

/** The line under a card's per-month price: what its plan charges each period now ('$72 billed every 3 months'). */
export function cardBilled(card: Pick<PricingCard, 'planType'>, originPage: OriginPage, prices: PlanPrices, catalogue: Catalogue = activeCatalogue(), now: Date = new Date()): string | undefined {
  const slug = toEuPlan(card.planType, originPage);
  const plan = catalogue.plans.find((candidate) => candidate.slug === slug);
  // a vendor's own list charges its own price (its sale's while one runs) in its own currency (price-lists.ts)
  const own = ownListCharge(catalogue, slug, originPage, now);
  const amount = own?.amount ?? prices[slug];
  return plan && amount !== undefined ? billedText(plan, amount, own?.currency) : undefined;
}

function planCard(plan: CataloguePlan, campaign: Campaign, list: string, running: boolean, catalogue: Catalogue, now: Date): PricingCard {
  const card: PricingCard = {
    name: plan.name,
    planType: plan.variantOf ?? plan.slug,
    price: '',
    period: cardPeriod(plan),
    features: plan.features.length > 0 ? plan.features : PLAN_FEATURES,
    isPopular: plan.popular,
  };
  if (plan.buttonText !== null) card.buttonText = plan.buttonText;
  // a list's prices are in its currency ('€29' on a list in euros)
  const money = (amount: number) => formatListPrice(amount, findList(catalogue, list)?.currency ?? PLAN_CURRENCY);
  const shown = (amount: number) => (plan.perMonth ? perMonthAmount(amount, plan.period) : amount);
  const listed = findList(catalogue, list)?.entries.find((entry) => entry.plan === plan.slug)?.price;
  const regular = list === DEFAULT_LIST ? campaign.regularPrices[plan.slug] : undefined;
  if (regular !== undefined) {
    const sale = campaign.prices[plan.slug] ?? regular;
    if (!running) return { ...card, price: money(shown(regular)) };
    const savings = savingsLabel(shown(sale), shown(regular));
    // A sale price at or above the regular one is no sale: no struck-through price, badge or label.
    if (savings === undefined) return { ...card, price: money(shown(sale)) };
    return { ...card, price: money(shown(sale)), originalPrice: money(shown(regular)), savings: plan.badge ?? savings, label: campaign.saleLabel };
  }
  // a sale on a vendor's own list: its price, the list's struck through, while it runs
  const own = ownListPrice(catalogue, pageOfList(list), plan.slug, now);
  if (own?.sale) {
    const savings = savingsLabel(shown(own.amount), shown(own.listed));
    if (savings === undefined) return { ...card, price: money(shown(own.amount)) };
    return { ...card, price: money(shown(own.amount)), originalPrice: money(shown(own.listed)), savings: plan.badge ?? savings, label: own.sale.label };
  }
  const price = (list === DEFAULT_LIST ? campaign.prices[plan.slug] : undefined) ?? listed ?? campaign.prices[plan.slug] ?? 0;
  const priced: PricingCard = { ...card, price: money(shown(price)) };
  if (plan.regularPrice !== null && plan.regularPrice > price) {
    priced.originalPrice = money(shown(plan.regularPrice));
    const savings = plan.badge ?? savingsLabel(shown(price), shown(plan.regularPrice));
    if (savings !== undefined) priced.savings = savings;
  }
  return priced;
}

/**
 * The pricing cards of a page: the sale's cards while it runs, regular prices without sale wording
 * after. `running` is the default page's sale; a vendor's own list has its own sales, seen at `now`.
 */
export function landingCards(campaign: Campaign, originPage: OriginPage, running: boolean, now: Date = new Date()): PricingCard[] {
  const catalogue = campaign.catalogue ?? activeCatalogue();
  const list = listOfPage(originPage);
  return visiblePlans(catalogue, list).map((plan) => planCard(plan, campaign, list, running, catalogue, now));
}

function isSpecPricing(campaign: Campaign): boolean {
  const plans = Object.keys(campaign.regularPrices);
  return (
    plans.length === CAMPAIGN_PLANS.length &&
    CAMPAIGN_PLANS.every((plan) => campaign.prices[plan] === ADVERTISED_PRICES[plan] && campaign.regularPrices[plan] === DEFAULT_REGULAR_PRICES[plan])
  );
}

/** The hero's banner: the spec's text for the spec's prices, the cards' best saving otherwise; none after the end. */
export function saleBanner(campaign: Campaign, running: boolean): string | null {
  if (!running) return null;
  if (isSpecPricing(campaign)) return SPEC_SALE_BANNER;
  const catalogue = campaign.catalogue ?? activeCatalogue();
  const best = Math.max(
    0,
    ...Object.entries(campaign.regularPrices).map(([plan, regular]) => {
      const sale = campaign.prices[plan];
      if (regular === undefined || sale === undefined || regular <= 0) return 0;
      const record = catalogue.plans.find((candidate) => candidate.slug === plan);
      const shown = (amount: number) => (record?.perMonth ? perMonthAmount(amount, record.period) : amount);
      return Math.round((1 - shown(sale) / shown(regular)) * 100);
    }),
  );
  return best > 0 ? `Save up to ${best}%` : null;
}

/** The offer bar's words before the countdown: 'Black Friday Sale ends in'. */
export function countdownTitle(campaign: Pick<Campaign, 'saleLabel'>): string {
  return `${campaign.saleLabel} Sale`;
}

/** Long ago: the end of a campaign with no sale ever (isSaleRunning is false). */
const NO_SALE_END = '2000-01-01T00:00:00.000Z';

function saleOf(catalogue: Catalogue, now: Date): Sale | null {
  const onDefault = catalogue.sales.filter((sale) => sale.list === DEFAULT_LIST);
  const running = runningSale(catalogue, DEFAULT_LIST, now, (at) => saleEnd({ saleEndsAt: null }, at));
  if (running) return running;
  // after its end a sale is still the campaign's (its end and label), with the regular prices charged
  const ended = onDefault
    .filter((sale) => sale.endsAt !== null && Date.parse(sale.endsAt) <= now.getTime())
    .sort((a, b) => Date.parse(b.endsAt!) - Date.parse(a.endsAt!));
  return ended[0] ?? null;
}

/**
 * The campaign a catalogue makes at `now`: the default list's running (or last ended) sale, every
 * plan's price (its sale price on the default page while a sale runs), and the sale plans' prices
 * after it. The same for every instant until a sale starts or the catalogue changes.
 */
export function campaignOf(catalogue: Catalogue, now: Date): Campaign {
  const prices: PlanPrices = {};
  for (const plan of catalogue.plans) {
    const home = homeEntry(catalogue, plan.slug);
    if (home) prices[plan.slug] = home.entry.price;
  }
  const sale = saleOf(catalogue, now);
  if (sale === null) return { saleEndsAt: NO_SALE_END, saleLabel: DEFAULT_SALE_LABEL, prices, regularPrices: {}, catalogue };
  const regularPrices: Partial<Record<PlanType, number>> = {};
  for (const entry of sale.prices) {
    regularPrices[entry.plan] = prices[entry.plan];
    prices[entry.plan] = entry.price;
  }
  return { saleEndsAt: sale.endsAt, saleLabel: sale.label, prices, regularPrices, catalogue };
}

/** What the campaign's sale is at `now` and when that changes: the key of anything rendered from it. */
export function campaignKey(catalogue: Catalogue, now: Date): string {
  return saleOf(catalogue, now)?.id ?? '-';
}
