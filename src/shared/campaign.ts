// The sale campaign (hero banner, pricing cards, countdown): when it ends, what it is called, what each plan costs while
// it runs and after, and every text that advertises it. One place, so the cards, the hero, the
// offer bar, the checkout and the amount charged can never disagree. See decision record 011.
import {
  ADVERTISED_PRICES,
  applyPriceOverrides,
  DEFAULT_CARDS,
  EU_CARDS,
  formatCardPrice,
  planPeriodInterval,
  savingsLabel,
  type OriginPage,
  type PlanPrices,
  type PlanType,
  type PricingCard,
} from './plans';

/**
 * The plans on sale: the default landing page's cards. The EU page's prices are a standing offer
 * "only available through the ad you saw", with no countdown and no end; lifetime is one of them.
 */
export const CAMPAIGN_PLANS = ['monthly', 'quarterly', 'yearly'] as const;

export type CampaignPlan = (typeof CAMPAIGN_PLANS)[number];

export type Campaign = {
  /** The end as an ISO instant; null is the demo's rolling sale, which always ends in a few days. */
  saleEndsAt: string | null;
  /** 'Black Friday': on the cards and in the countdown ('Black Friday Sale ends in'). */
  saleLabel: string;
  /** What each plan costs while the sale runs (PRICE_*); plans outside the sale always cost this. */
  prices: PlanPrices;
  /** What the sale's plans cost after the end (REGULAR_PRICE_*), struck through while it runs. */
  regularPrices: Record<CampaignPlan, number>;
};

export const DEFAULT_SALE_LABEL = 'Black Friday';

/** The spec's cards strike through $47 a month on every plan: that is the regular price. */
export const DEFAULT_REGULAR_PRICES: Record<CampaignPlan, number> = { monthly: 4700, quarterly: 14100, yearly: 56400 };

/** The demo's rolling sale ends at the end of the UTC day this many days ahead. */
export const ROLLING_SALE_DAYS = 3;

/** The hero's sale banner, shown as written while the default sale prices apply. */
export const SPEC_SALE_BANNER = 'Save up to 65%';

export function isCampaignPlan(planType: PlanType): planType is CampaignPlan {
  return (CAMPAIGN_PLANS as readonly string[]).includes(planType);
}

/** When the sale ends, seen at `now`; a rolling sale is always between 3 and 4 days from its end. */
export function saleEnd(campaign: Pick<Campaign, 'saleEndsAt'>, now: Date): Date {
  if (campaign.saleEndsAt !== null) return new Date(campaign.saleEndsAt);
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + ROLLING_SALE_DAYS, 23, 59, 59));
}

export function isSaleRunning(campaign: Pick<Campaign, 'saleEndsAt'>, now: Date): boolean {
  return now.getTime() < saleEnd(campaign, now).getTime();
}

/** The price of every plan in effect: what the cards show and what a checkout charges. */
export function currentPrices(campaign: Campaign, running: boolean): PlanPrices {
  return running ? campaign.prices : { ...campaign.prices, ...campaign.regularPrices };
}

const perMonth = (amount: number, planType: PlanType) => Math.round(amount / (planPeriodInterval(planType)?.months ?? 1));

/** Sale and regular price of a plan's card, per month where the card says '/month'. */
function cardAmounts(campaign: Campaign, plan: CampaignPlan) {
  return { sale: perMonth(campaign.prices[plan], plan), regular: perMonth(campaign.regularPrices[plan], plan) };
}

function campaignCard(card: PricingCard, campaign: Campaign, running: boolean): PricingCard {
  if (!isCampaignPlan(card.planType)) return card;
  const { originalPrice: _original, savings: _savings, label: _label, ...plain } = card;
  const { sale, regular } = cardAmounts(campaign, card.planType);
  if (!running) return { ...plain, price: formatCardPrice(regular) };
  const savings = savingsLabel(sale, regular);
  // A sale price at or above the regular one is no sale: no struck-through price, badge or label.
  if (savings === undefined) return { ...plain, price: formatCardPrice(sale) };
  return { ...plain, price: formatCardPrice(sale), originalPrice: formatCardPrice(regular), savings, label: campaign.saleLabel };
}

/** The pricing cards of a page: the sale's cards while it runs, regular prices without sale wording after. */
export function landingCards(campaign: Campaign, originPage: OriginPage, running: boolean): PricingCard[] {
  if (originPage === '/eu') return applyPriceOverrides(EU_CARDS, campaign.prices, '/eu');
  return DEFAULT_CARDS.map((card) => campaignCard(card, campaign, running));
}

function isSpecPricing(campaign: Campaign): boolean {
  return CAMPAIGN_PLANS.every(
    (plan) => campaign.prices[plan] === ADVERTISED_PRICES[plan] && campaign.regularPrices[plan] === DEFAULT_REGULAR_PRICES[plan],
  );
}

/** The hero's banner: the spec's text for the spec's prices, the cards' best saving otherwise; none after the end. */
export function saleBanner(campaign: Campaign, running: boolean): string | null {
  if (!running) return null;
  if (isSpecPricing(campaign)) return SPEC_SALE_BANNER;
  const best = Math.max(
    0,
    ...CAMPAIGN_PLANS.map((plan) => {
      const { sale, regular } = cardAmounts(campaign, plan);
      return Math.round((1 - sale / regular) * 100);
    }),
  );
  return best > 0 ? `Save up to ${best}%` : null;
}

/** The offer bar's words before the countdown: 'Black Friday Sale ends in'. */
export function countdownTitle(campaign: Pick<Campaign, 'saleLabel'>): string {
  return `${campaign.saleLabel} Sale`;
}
