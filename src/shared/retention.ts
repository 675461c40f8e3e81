// Keeping members: the reasons a member gives for cancelling, the offers an operator attaches to a
// reason (a retention discount, once per member, or a pause of 1–3 months), and the rules both
// sides share. The server applies them at the payment provider (decision record 052).
import { addMonthsUtc } from './catalogue';

export const CANCELLATION_REASONS = ['too_expensive', 'not_trading', 'missing_features', 'technical_problems', 'switching', 'other'] as const;
export type CancellationReason = (typeof CANCELLATION_REASONS)[number];

export const CANCELLATION_REASON_LABELS: Record<CancellationReason, string> = {
  too_expensive: 'Too expensive',
  not_trading: 'Not trading now',
  missing_features: 'Missing features',
  technical_problems: 'Technical problems',
  switching: 'Switching to another service',
  other: 'Other',
};

/** Stripe's `cancellation_details.feedback` for each reason, so the dashboard's churn report reads the same. */
export const STRIPE_FEEDBACK: Record<CancellationReason, string> = {
  too_expensive: 'too_expensive',
  not_trading: 'unused',
  missing_features: 'missing_features',
  technical_problems: 'low_quality',
  switching: 'switched_service',
  other: 'other',
};

/** The member's own words: a paragraph, not an essay (Stripe keeps a comment of up to 5,000). */
export const REASON_TEXT_MAX = 500;

export const PAUSE_MONTHS_MIN = 1;
export const PAUSE_MONTHS_MAX = 3;
export const DISCOUNT_PERCENT_MIN = 5;
export const DISCOUNT_PERCENT_MAX = 100;
export const DISCOUNT_PERIODS_MIN = 1;
export const DISCOUNT_PERIODS_MAX = 12;

/** A discount of `percentOff` on the next `periods` renewals; or a pause of up to `months` months. */
export type RetentionOffer = { kind: 'discount'; percentOff: number; periods: number } | { kind: 'pause'; months: number };
export type RetentionOffers = Record<CancellationReason, RetentionOffer | null>;

/** What the member chose: to cancel anyway, or the offer shown for their reason. */
export const CANCELLATION_OUTCOMES = ['declined', 'discount', 'pause'] as const;
export type CancellationOutcome = (typeof CANCELLATION_OUTCOMES)[number];

export const CANCELLATION_OUTCOME_LABELS: Record<CancellationOutcome, string> = {
  declined: 'Canceled at period end',
  discount: 'Took the discount',
  pause: 'Paused',
};

export const isCancellationReason = (value: unknown): value is CancellationReason => CANCELLATION_REASONS.includes(value as CancellationReason);

/** A problem with one offer as an operator set it, in words; null when it is fine. */
export function offerProblem(offer: RetentionOffer): string | null {
  const whole = (n: number) => Number.isInteger(n);
  if (offer.kind === 'pause') {
    return whole(offer.months) && offer.months >= PAUSE_MONTHS_MIN && offer.months <= PAUSE_MONTHS_MAX ? null : `A pause lasts ${PAUSE_MONTHS_MIN} to ${PAUSE_MONTHS_MAX} months.`;
  }
  if (!whole(offer.percentOff) || offer.percentOff < DISCOUNT_PERCENT_MIN || offer.percentOff > DISCOUNT_PERCENT_MAX) return `A discount takes ${DISCOUNT_PERCENT_MIN} to ${DISCOUNT_PERCENT_MAX} % off.`;
  if (!whole(offer.periods) || offer.periods < DISCOUNT_PERIODS_MIN || offer.periods > DISCOUNT_PERIODS_MAX) return `A discount lasts ${DISCOUNT_PERIODS_MIN} to ${DISCOUNT_PERIODS_MAX} billing periods.`;
  return null;
}

/** The offer in a sentence, for the member's dialog and the console. */
export function describeOffer(offer: RetentionOffer): string {
  if (offer.kind === 'pause') return `Pause for up to ${offer.months} month${offer.months === 1 ? '' : 's'}`;
  return `${offer.percentOff} % off your next ${offer.periods === 1 ? 'payment' : `${offer.periods} payments`}`;
}

/**
 * A pause keeps what was paid: access and the plan run to the end of the current period, nothing
 * is charged for `months` months after it, then the plan renews as before.
 */
export function pauseWindow(periodEnd: Date, months: number): { accessUntil: Date; resumesAt: Date } {
  return { accessUntil: periodEnd, resumesAt: addMonthsUtc(periodEnd, months) };
}

/**
 * What a member may be offered for a reason: a discount only once per member, a pause only on a
 * plan that renews and is not paused already. null: cancel without an offer.
 */
export function eligibleOffer(offer: RetentionOffer | null, member: { discountUsed: boolean; paused: boolean }): RetentionOffer | null {
  if (!offer) return null;
  if (offer.kind === 'discount') return member.discountUsed ? null : offer;
  return member.paused ? null : offer;
}

/** Coupon months for a discount of `periods` renewals of a plan billed every `intervalMonths` months. */
export const discountMonths = (periods: number, intervalMonths: number) => periods * Math.max(1, intervalMonths);
