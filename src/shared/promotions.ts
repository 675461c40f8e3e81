// Promotion codes: their format, the terms an operator may give one, what a code takes off a
// price (rounded as Stripe rounds), when it applies, and how long it lasts on a subscription.
// Pure and free of zod, so the landing page can price its cards with it after hydration.
import { addMonthsUtc, formatCardPrice, formatMoney, isPlanType, planDisplayName, planPeriodInterval, toEuPlan, type OriginPage, type PlanPrices, type PlanType, type PricingCard } from './plans';

export const PROMOTION_DURATIONS = ['once', 'repeating', 'forever'] as const;
export type PromotionDuration = (typeof PROMOTION_DURATIONS)[number];

export const PROMOTION_CODE_MIN_LENGTH = 3;
export const PROMOTION_CODE_MAX_LENGTH = 40;
/** Months a repeating discount may last: Stripe's coupons allow up to 12 years of them. */
export const PROMOTION_MAX_MONTHS = 120;

/** Longer input is refused before it is read as a code (a request's size bound, not the format). */
export const PROMOTION_INPUT_MAX_LENGTH = 200;
export const PROMOTION_CODE_LENGTH_TEXT = `A promotion code has ${PROMOTION_CODE_MIN_LENGTH} to ${PROMOTION_CODE_MAX_LENGTH} characters.`;

/** What Stripe accepts in a promotion code (letters, digits, dashes; no underscore), so every code can be mirrored. */
const CODE_PATTERN = /^[A-Z0-9-]+$/;

/** Codes are case-insensitive: stored and compared upper-case ('bf20' is BF20). */
export function normalizePromotionCode(raw: string): string {
  return raw.trim().toUpperCase();
}

/** Why `raw` cannot be a promotion code, or null when it can (after normalizing). */
export function promotionCodeProblem(raw: string): string | null {
  const code = normalizePromotionCode(raw);
  if (code.length < PROMOTION_CODE_MIN_LENGTH || code.length > PROMOTION_CODE_MAX_LENGTH) {
    return PROMOTION_CODE_LENGTH_TEXT;
  }
  if (!CODE_PATTERN.test(code)) return 'A promotion code may contain only letters, digits and dashes.';
  return null;
}

/** How much a code takes off: a percentage, or a fixed amount in one currency. */
export type Discount = { percentOff: number | null; amountOff: number | null; currency: string | null };

/** A code's terms as the operator set them; `expiresAt` null never expires, `plans` null applies to all. */
export type PromotionTerms = Discount & {
  code: string;
  duration: PromotionDuration;
  /** Months of a repeating discount; null otherwise. */
  durationInMonths: number | null;
  plans: PlanType[] | null;
  firstTimeOnly: boolean;
  /** Win-back: only for a member whose access ended (had it once, has none now). */
  churnedOnly: boolean;
  maxRedemptions: number | null;
  expiresAt: Date | null;
};

/** What an operator typed (console form, command line), before validation. */
export type PromotionTermsInput = {
  code: string;
  percentOff?: number | null | undefined;
  amountOff?: number | null | undefined;
  currency?: string | null | undefined;
  duration?: string | null | undefined;
  durationInMonths?: number | null | undefined;
  plans?: readonly string[] | null | undefined;
  firstTimeOnly?: boolean | undefined;
  churnedOnly?: boolean | undefined;
  maxRedemptions?: number | null | undefined;
  /** A calendar day, YYYY-MM-DD: the code works to the end of that day (UTC). */
  expires?: string | null | undefined;
};

export type TermsProblem = { path: keyof PromotionTermsInput; message: string };

const isWhole = (value: number) => Number.isSafeInteger(value);
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The end (last millisecond, UTC) of a YYYY-MM-DD day; null when it is no real day. */
export function endOfDay(day: string): Date | null {
  const match = DAY.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const end = new Date(Date.UTC(year, month - 1, date, 23, 59, 59, 999));
  return end.getUTCMonth() === month - 1 && end.getUTCDate() === date ? end : null;
}

/**
 * Checks what an operator typed and answers the terms, or every problem with a message that says
 * what to change (a percent of 0, a negative amount, an unknown plan, months without repeating…).
 */
export function validatePromotionTerms(input: PromotionTermsInput, now: Date): { ok: true; terms: PromotionTerms } | { ok: false; problems: TermsProblem[] } {
  const problems: TermsProblem[] = [];
  const problem = (path: TermsProblem['path'], message: string) => problems.push({ path, message });

  const codeProblem = promotionCodeProblem(input.code);
  if (codeProblem) problem('code', codeProblem);

  const percentOff = input.percentOff ?? null;
  const amountOff = input.amountOff ?? null;
  const currency = input.currency?.trim().toLowerCase() || null;
  if (percentOff === null && amountOff === null) problem('percentOff', 'Give either a percent off or an amount off.');
  if (percentOff !== null && amountOff !== null) problem('amountOff', 'Give either a percent off or an amount off, not both.');
  if (percentOff !== null && (!isWhole(percentOff) || percentOff < 1 || percentOff > 100)) problem('percentOff', 'Percent off must be a whole number from 1 to 100.');
  if (amountOff !== null) {
    if (!isWhole(amountOff) || amountOff < 1) problem('amountOff', 'Amount off must be a positive whole number of cents (minor units).');
    if (!currency) problem('currency', 'An amount off needs its currency, e.g. usd.');
  }
  if (currency !== null && !/^[a-z]{3}$/.test(currency)) problem('currency', 'Currency must be a three-letter code such as usd.');
  if (currency !== null && amountOff === null && percentOff !== null) problem('currency', 'A currency goes with an amount off only.');

  const duration = (input.duration ?? 'once') as PromotionDuration;
  const months = input.durationInMonths ?? null;
  if (!(PROMOTION_DURATIONS as readonly string[]).includes(duration)) problem('duration', 'Duration must be once, repeating or forever.');
  else if (duration === 'repeating') {
    if (months === null) problem('durationInMonths', 'A repeating discount needs its number of months.');
    else if (!isWhole(months) || months < 1 || months > PROMOTION_MAX_MONTHS) problem('durationInMonths', `Months must be a whole number from 1 to ${PROMOTION_MAX_MONTHS}.`);
  } else if (months !== null) problem('durationInMonths', 'Months go with a repeating discount only (--duration repeating).');

  let plans: PlanType[] | null = null;
  if (input.plans && input.plans.length > 0) {
    const unknown = input.plans.filter((plan) => !isPlanType(plan));
    if (unknown.length > 0) problem('plans', `Unknown plan: ${unknown.join(', ')}.`);
    else plans = [...new Set(input.plans as PlanType[])];
  }

  if (input.firstTimeOnly && input.churnedOnly) problem('churnedOnly', 'A code is for first-time buyers or for members whose access ended, not both.');

  const maxRedemptions = input.maxRedemptions ?? null;
  if (maxRedemptions !== null && (!isWhole(maxRedemptions) || maxRedemptions < 1)) problem('maxRedemptions', 'Maximum redemptions must be a positive whole number.');

  let expiresAt: Date | null = null;
  if (input.expires) {
    expiresAt = endOfDay(input.expires);
    if (!expiresAt) problem('expires', 'The expiry date must be a day written YYYY-MM-DD.');
    else if (expiresAt.getTime() <= now.getTime()) problem('expires', 'The expiry date must be in the future.');
  }

  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    terms: {
      code: normalizePromotionCode(input.code),
      percentOff,
      amountOff,
      currency: amountOff === null ? null : currency,
      duration,
      durationInMonths: duration === 'repeating' ? months : null,
      plans,
      firstTimeOnly: input.firstTimeOnly ?? false,
      churnedOnly: input.churnedOnly ?? false,
      maxRedemptions,
      expiresAt,
    },
  };
}

/**
 * What the code takes off `amount` (minor units of `currency`): a percentage rounded to the
 * nearest minor unit as Stripe rounds, or the fixed amount (never more than the price). A fixed
 * amount in another currency takes nothing off.
 */
export function discountAmount(amount: number, currency: string, discount: Discount): number {
  if (discount.percentOff !== null) return Math.round((amount * discount.percentOff) / 100);
  if (discount.amountOff !== null && discount.currency === currency.toLowerCase()) return Math.min(discount.amountOff, amount);
  return 0;
}

/** The price after the code: Monthly's 3600 with 20 % off is 2880. */
export function discountedPrice(amount: number, currency: string, discount: Discount): number {
  return amount - discountAmount(amount, currency, discount);
}

/** '20% off', '$10.00 off'. */
export function discountLabel(discount: Discount): string {
  if (discount.percentOff !== null) return `${discount.percentOff}% off`;
  return `${formatMoney(discount.amountOff ?? 0, discount.currency ?? 'usd')} off`;
}

/** How long a subscription keeps it: 'on the first payment', 'for 3 months', 'for as long as you subscribe'. */
export function durationLabel(terms: Pick<PromotionTerms, 'duration' | 'durationInMonths'>): string {
  if (terms.duration === 'forever') return 'for as long as you subscribe';
  if (terms.duration === 'repeating') return `for ${terms.durationInMonths} month${terms.durationInMonths === 1 ? '' : 's'}`;
  return 'on the first payment';
}

/** The landing page's banner: '20% off with BF20 (on the first payment)'. */
export function promotionBanner(terms: Pick<PromotionTerms, 'code' | 'percentOff' | 'amountOff' | 'currency' | 'duration' | 'durationInMonths' | 'firstTimeOnly'> & { churnedOnly?: boolean }): string {
  const first = terms.firstTimeOnly ? ', first purchase only' : terms.churnedOnly ? ', returning members only' : '';
  return `${discountLabel(terms)} with ${terms.code} (${durationLabel(terms)}${first})`;
}

export function appliesToPlan(terms: Pick<PromotionTerms, 'plans'>, planType: PlanType): boolean {
  return terms.plans === null || terms.plans.includes(planType);
}

/** A code as it stands now: its terms, whether an operator switched it off, and how often it was redeemed. */
export type PromotionState = PromotionTerms & { active: boolean; redemptions: number };

export type PromotionRefusal = 'unknown' | 'inactive' | 'expired' | 'exhausted' | 'plan' | 'first_time' | 'churned_only' | 'churned_sign_in';

/** The buyer's text for each reason a code cannot be used. */
export function refusalMessage(reason: PromotionRefusal, code: string, planType?: PlanType): string {
  switch (reason) {
    case 'unknown':
      return `The code ${code} is not valid.`;
    case 'inactive':
      return `The code ${code} is no longer available.`;
    case 'expired':
      return `The code ${code} has expired.`;
    case 'exhausted':
      return `The code ${code} has been fully redeemed.`;
    case 'plan':
      return `The code ${code} does not apply to the ${planType ? planDisplayName(planType) : 'chosen'} plan.`;
    case 'first_time':
      return `The code ${code} is for first-time buyers only.`;
    case 'churned_only':
      return `The code ${code} is for returning members only: it works once your access has ended.`;
    case 'churned_sign_in':
      return `The code ${code} is for returning members only: sign in first, then choose your plan.`;
  }
}

/**
 * Why the code cannot be used now, or null when it can. `planType` is checked when given;
 * `returningBuyer` (the buyer paid before) and `churned` (the buyer's access ended: they had
 * access once and have none now) when known — neither is known before the buyer's e-mail is.
 */
export function promotionRefusal(promo: PromotionState, at: { now: Date; planType?: PlanType; returningBuyer?: boolean; churned?: boolean }): PromotionRefusal | null {
  if (!promo.active) return 'inactive';
  if (promo.expiresAt && promo.expiresAt.getTime() <= at.now.getTime()) return 'expired';
  if (promo.maxRedemptions !== null && promo.redemptions >= promo.maxRedemptions) return 'exhausted';
  if (at.planType && !appliesToPlan(promo, at.planType)) return 'plan';
  if (promo.firstTimeOnly && at.returningBuyer === true) return 'first_time';
  if (promo.churnedOnly && at.churned === false) return 'churned_only';
  return null;
}

/**
 * The code a provider keeps for ours. A churned-only code is checked by the shop before the
 * checkout starts (no provider knows who churned), so at the provider it hides under a name no
 * buyer can type on the payment page: ours with a suffix made from our row's id.
 */
export function providerCodeOf(terms: Pick<PromotionTerms, 'code' | 'churnedOnly'>, promotionId: string): string {
  return terms.churnedOnly ? `${terms.code}-${promotionId.replaceAll('-', '').slice(0, 12).toUpperCase()}` : terms.code;
}

/**
 * Whether a subscription's discount, which started at `start`, applies to the invoice of a period
 * starting at `periodStart`: once to the first invoice only, repeating while the months last
 * (Stripe ends it at start + N months), forever always.
 */
export function discountAppliesToPeriod(terms: Pick<PromotionTerms, 'duration' | 'durationInMonths'>, start: Date, periodStart: Date): boolean {
  if (terms.duration === 'forever') return true;
  if (terms.duration === 'once') return periodStart.getTime() <= start.getTime();
  return periodStart.getTime() < addMonthsUtc(start, terms.durationInMonths ?? 0).getTime();
}

/**
 * What a subscription's next period will charge, for MRR: the list amount (`gross`), less the
 * discount if it still applies then. A forever code lowers it; a once code does not.
 */
export function nextPeriodAmount(gross: number, currency: string, promo: (Discount & Pick<PromotionTerms, 'duration' | 'durationInMonths'>) | null, start: Date | null, nextPeriodStart: Date | null): number {
  if (!promo || !start || !nextPeriodStart) return gross;
  return discountAppliesToPeriod(promo, start, nextPeriodStart) ? discountedPrice(gross, currency, promo) : gross;
}

const perMonth = (amount: number, planType: PlanType) => Math.round(amount / (planPeriodInterval(planType)?.months ?? 1));

/**
 * The cards of a page with a code applied: each plan the code covers shows its discounted price
 * (per month where the card says '/month') with the price before the code struck through. `prices`
 * are what checkout charges now (campaign.currentPrices).
 */
export function promotedCards(cards: readonly PricingCard[], prices: PlanPrices, originPage: OriginPage, promo: Discount & Pick<PromotionTerms, 'code' | 'plans'>, currency: string): PricingCard[] {
  return cards.map((card) => {
    const planType = toEuPlan(card.planType, originPage);
    if (!appliesToPlan(promo, planType)) return card;
    const full = prices[planType];
    if (full === undefined) return card;
    const off = discountAmount(full, currency, promo);
    if (off === 0) return card;
    const shownPerMonth = /month/i.test(card.period) && card.period.startsWith('/') && planPeriodInterval(planType) !== null;
    const shown = (amount: number) => formatCardPrice(shownPerMonth ? perMonth(amount, planType) : amount);
    return { ...card, price: shown(full - off), originalPrice: shown(full), savings: `${discountLabel(promo)} with ${promo.code}` };
  });
}
