// Money rules: a buyer (one e-mail or account) holds at most one paid subscription,
// what a second payment gets back, and which reversals end access. Pure; billing applies them.
import { isRecurring, neverExpires, type PlanType } from './plans';

/** A duplicate payment's refund: waiting for the provider, then done. */
export type DuplicateStatus = 'refund_pending' | 'refunded';

/**
 * Why a row gives no access whatever the provider's snapshot says ('operator': taken away in the
 * operator console; 'banned': the member was banned there, the provider subscription canceled).
 */
export type RevokedReason = 'duplicate' | 'replaced' | 'refunded' | 'disputed' | 'operator' | 'banned';

/** A plan the buyer already holds that grants access now. */
export type Holding = {
  planType: PlanType;
  /** Will not renew (cancel at period end, or ended by the provider with paid time left). */
  canceled: boolean;
};

/**
 * What a completed payment does, given the buyer's other holdings:
 * - grant: nothing else is held (or only plans that will not renew, for a recurring purchase);
 * - duplicate: the buyer already holds lifetime, or a renewing subscription and bought another
 *   recurring plan (changing plans is the plan-change flow): refund in full, cancel, no access;
 * - replace: lifetime bought over recurring plans: grant it and end those with a prorated refund.
 */
export type PaymentVerdict = 'grant' | 'duplicate' | 'replace';

export function judgePayment(planType: PlanType, holdings: readonly Holding[]): PaymentVerdict {
  if (holdings.some((held) => neverExpires(held.planType))) return 'duplicate';
  if (isRecurring(planType)) return holdings.some((held) => !held.canceled) ? 'duplicate' : 'grant';
  return holdings.length > 0 ? 'replace' : 'grant';
}

/**
 * The unused part of a paid period, in minor units, refunded when a lifetime purchase replaces
 * the subscription at `at`: the paid amount times the share of the period still ahead, rounded
 * down (never more than was paid, never negative).
 */
export function unusedPeriodRefund(input: { amountPaid: number; periodStart: Date; periodEnd: Date; at: Date }): number {
  const { amountPaid, periodStart, periodEnd, at } = input;
  const length = periodEnd.getTime() - periodStart.getTime();
  if (amountPaid <= 0 || length <= 0) return 0;
  const left = Math.min(Math.max(periodEnd.getTime() - at.getTime(), 0), length);
  return Math.floor((amountPaid * left) / length);
}

/** A dispute as the provider reports it, reduced to what access depends on. */
export type DisputeOutcome = 'open' | 'won' | 'lost';

/** Stripe's dispute statuses: warnings that closed and prevented disputes leave the money with the vendor. */
export function disputeOutcome(status: string): DisputeOutcome {
  if (status === 'won' || status === 'warning_closed' || status === 'prevented') return 'won';
  if (status === 'lost') return 'lost';
  return 'open';
}

/**
 * Whether a payment's charge takes access away: a full refund, or a dispute not won. A partial
 * refund is goodwill and keeps access; a dispute the vendor won gives access back.
 */
export function chargeRevokes(charge: { amount: number; amountRefunded: number; refunded: boolean; dispute: DisputeOutcome | null }): RevokedReason | null {
  const fullyRefunded = charge.refunded || (charge.amount > 0 && charge.amountRefunded >= charge.amount);
  if (fullyRefunded) return 'refunded';
  if (charge.dispute === 'open' || charge.dispute === 'lost') return 'disputed';
  return null;
}
