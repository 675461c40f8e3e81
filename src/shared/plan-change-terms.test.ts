import { describe, expect, it } from 'vitest';
import { isPlanDowngrade, planChangeTerms } from './plan-change-terms';

const preview = { currentPlan: 'monthly', newPlan: 'quarterly', prorationCredit: 2400, newPlanCharge: 7200, totalDue: 4800, currency: 'usd' } as const;

describe('planChangeTerms (#46)', () => {
  it('an upgrade: says what the credit is and that it is used in full today', () => {
    expect(planChangeTerms(preview)).toEqual({
      isDowngrade: false,
      leftover: 0,
      credit: "The credit of $24.00 is what you paid for the rest of your current Monthly period, which you will not use: it is taken off the new plan's charge.",
      unusedValue: 'The credit is used in full. $48.00 is charged today to the payment method on your subscription.',
    });
  });

  it('a downgrade with credit left over: nothing today, the rest kept for the next invoices, never paid out', () => {
    const terms = planChangeTerms({ ...preview, currentPlan: 'yearly', newPlan: 'monthly', prorationCredit: 15000, newPlanCharge: 3600, totalDue: 0 });
    expect(terms.isDowngrade).toBe(true);
    expect(terms.leftover).toBe(11400);
    expect(terms.unusedValue).toBe(
      "The new plan's charge is less than your credit: nothing is charged today, and the $114.00 left over stays on your account as credit and is taken off your next invoices. It is not paid out.",
    );
  });

  it('no unused time: no credit to speak of', () => {
    const terms = planChangeTerms({ ...preview, prorationCredit: 0, totalDue: 7200 });
    expect(terms.credit).toBe('Your current Monthly period has no unused time left to credit.');
    expect(terms.unusedValue).toBe('$72.00 is charged today to the payment method on your subscription.');
  });

  it.each([
    ['yearly', 'monthly', true],
    ['quarterly', 'monthly', true],
    ['monthly', 'yearly', false],
    ['euQuarterly', 'euMonthly', true],
    ['monthly', 'lifetime', false],
  ] as const)('%s → %s is a downgrade: %s', (from, to, downgrade) => {
    expect(isPlanDowngrade(from, to)).toBe(downgrade);
  });
});
