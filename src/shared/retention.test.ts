import { describe, expect, it } from 'vitest';
import { CANCELLATION_REASONS, describeOffer, discountMonths, eligibleOffer, offerProblem, pauseWindow, STRIPE_FEEDBACK } from './retention';

describe('retention offers', () => {
  it('a pause keeps the paid period and resumes the chosen months after it (month ends clamp)', () => {
    const end = new Date('2026-01-31T12:00:00Z');
    expect(pauseWindow(end, 2)).toEqual({ accessUntil: end, resumesAt: new Date('2026-03-31T12:00:00Z') });
    expect(pauseWindow(end, 1).resumesAt).toEqual(new Date('2026-02-28T12:00:00Z'));
  });

  it('offers a discount once per member and a pause only to a plan not paused already', () => {
    const discount = { kind: 'discount' as const, percentOff: 50, periods: 2 };
    const pause = { kind: 'pause' as const, months: 3 };
    expect(eligibleOffer(discount, { discountUsed: false, paused: false })).toBe(discount);
    expect(eligibleOffer(discount, { discountUsed: true, paused: false })).toBeNull();
    expect(eligibleOffer(pause, { discountUsed: true, paused: false })).toBe(pause);
    expect(eligibleOffer(pause, { discountUsed: false, paused: true })).toBeNull();
    expect(eligibleOffer(null, { discountUsed: false, paused: false })).toBeNull();
  });

  it('refuses offers out of range in words', () => {
    expect(offerProblem({ kind: 'pause', months: 4 })).toMatch(/1 to 3 months/);
    expect(offerProblem({ kind: 'pause', months: 2 })).toBeNull();
    expect(offerProblem({ kind: 'discount', percentOff: 150, periods: 2 })).toMatch(/5 to 100 %/);
    expect(offerProblem({ kind: 'discount', percentOff: 50, periods: 0 })).toMatch(/1 to 12 billing periods/);
    expect(offerProblem({ kind: 'discount', percentOff: 50, periods: 2 })).toBeNull();
  });

  it('says the offer in a sentence and turns renewals into coupon months', () => {
    expect(describeOffer({ kind: 'discount', percentOff: 50, periods: 2 })).toBe('50 % off your next 2 payments');
    expect(describeOffer({ kind: 'discount', percentOff: 20, periods: 1 })).toBe('20 % off your next payment');
    expect(describeOffer({ kind: 'pause', months: 1 })).toBe('Pause for up to 1 month');
    expect(discountMonths(2, 1)).toBe(2);
    expect(discountMonths(2, 3)).toBe(6);
  });

  it("maps every reason to one of Stripe's cancellation feedback values", () => {
    const stripe = ['customer_service', 'low_quality', 'missing_features', 'other', 'switched_service', 'too_complex', 'too_expensive', 'unused'];
    for (const reason of CANCELLATION_REASONS) expect(stripe).toContain(STRIPE_FEEDBACK[reason]);
  });
});
