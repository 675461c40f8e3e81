import { describe, expect, it } from 'vitest';
import { applyBalance, computeProration, customerBalance, remainingFraction } from './proration';

const day = 24 * 60 * 60 * 1000;
const jan1 = new Date('2030-01-01T00:00:00Z');
const jan31 = new Date('2030-01-31T00:00:00Z'); // a 30-day period
const at = (days: number, extraSeconds = 0) => new Date(jan1.getTime() + days * day + extraSeconds * 1000);

const monthly = { amount: 3600, intervalMonths: 1, name: 'Monthly plan' };
const euMonthly = { amount: 2999, intervalMonths: 1, name: 'Monthly plan (EU)' };
const quarterly = { amount: 7200, intervalMonths: 3, name: 'Quarterly plan' };
const yearly = { amount: 20400, intervalMonths: 12, name: 'Yearly plan' };

describe('remainingFraction (by the second)', () => {
  it.each([
    { when: at(0), expected: 1 },
    { when: at(15), expected: 0.5 },
    { when: at(30), expected: 0 },
    { when: at(-3), expected: 1 }, // before the period: clamped
    { when: at(45), expected: 0 }, // after the period: clamped
    { when: at(15, 0.9), expected: 0.5 }, // sub-second time is ignored, as Stripe counts whole seconds
  ])('$when.toISOString → $expected', ({ when, expected }) => {
    expect(remainingFraction(jan1, jan31, when)).toBeCloseTo(expected, 12);
  });

  it('counts one second of difference', () => {
    const period = 30 * 24 * 3600;
    expect(remainingFraction(jan1, jan31, at(0, 1))).toBe((period - 1) / period);
  });
});

describe('computeProration (Stripe always_invoice)', () => {
  it.each([
    // interval change: the cycle resets, the new price is charged in full, unused time credited
    { name: 'monthly → yearly at mid-period', current: monthly, next: yearly, when: at(15), credit: 1800, charge: 20400, due: 18600, resets: true },
    { name: 'monthly → quarterly on day one', current: monthly, next: quarterly, when: at(0), credit: 3600, charge: 7200, due: 3600, resets: true },
    { name: 'quarterly-priced → monthly (downgrade) at mid-period', current: { ...quarterly, intervalMonths: 1 }, next: monthly, when: at(15), credit: 3600, charge: 1800, due: 0, resets: false },
    { name: 'yearly → monthly at the very end', current: yearly, next: monthly, when: at(30), credit: 0, charge: 3600, due: 3600, resets: true },
    // same interval: the period stays, both sides prorated over the remaining time
    { name: 'monthly → EU monthly, 10 of 30 days left', current: monthly, next: euMonthly, when: at(20), credit: 1200, charge: 1000, due: 0, resets: false },
    { name: 'EU monthly → monthly, a third left', current: euMonthly, next: monthly, when: at(20), credit: 1000, charge: 1200, due: 200, resets: false },
    // rounding to whole cents per line, half away from zero
    { name: 'odd cents: 2999 at half the period', current: { ...monthly, amount: 1 }, next: euMonthly, when: at(15), credit: 1, charge: 1500, due: 1499, resets: false },
  ])('$name', ({ current, next, when, credit, charge, due, resets }) => {
    const result = computeProration({ current, next, periodStart: jan1, periodEnd: jan31, prorationDate: when });
    expect(result).toMatchObject({ prorationCredit: credit, newPlanCharge: charge, totalDue: due, resetsBillingCycle: resets });
    expect(result.lines.reduce((sum, line) => sum + line.amount, 0)).toBe(charge - credit);
  });

  it('moves the period only when the interval changes', () => {
    const reset = computeProration({ current: monthly, next: yearly, periodStart: jan1, periodEnd: jan31, prorationDate: at(15, 0.5) });
    expect(reset.newPeriodStart.toISOString()).toBe('2030-01-16T00:00:00.000Z');
    expect(reset.newPeriodEnd.toISOString()).toBe('2031-01-16T00:00:00.000Z');
    const same = computeProration({ current: monthly, next: euMonthly, periodStart: jan1, periodEnd: jan31, prorationDate: at(15) });
    expect([same.newPeriodStart, same.newPeriodEnd]).toEqual([jan1, jan31]);
  });

  it('turns a downgrade credit into customer balance and spends a balance on what is due', () => {
    const downgrade = computeProration({ current: { ...yearly, intervalMonths: 1 }, next: monthly, periodStart: jan1, periodEnd: jan31, prorationDate: at(15) });
    expect(downgrade).toMatchObject({ prorationCredit: 10200, newPlanCharge: 1800, totalDue: 0, balanceAfter: -8400 });
    const withBalance = computeProration({ current: monthly, next: yearly, periodStart: jan1, periodEnd: jan31, prorationDate: at(15), balance: -8400 });
    expect(withBalance).toMatchObject({ totalDue: 10200, balanceAfter: 0 });
  });

  it('labels credit and charge lines as prorations and the fresh period as a plain line', () => {
    const result = computeProration({ current: monthly, next: yearly, periodStart: jan1, periodEnd: jan31, prorationDate: at(15) });
    expect(result.lines).toEqual([
      { description: 'Unused time on Monthly plan after Jan 16, 2030', amount: -1800, proration: true },
      { description: '1 × Yearly plan (Jan 16, 2030 – Jan 16, 2031)', amount: 20400, proration: false },
    ]);
  });
});

describe('customer balance', () => {
  it('applies a balance to what is due and keeps what is left', () => {
    expect(applyBalance(3600, -1000)).toEqual({ amountDue: 2600, balanceAfter: 0 });
    expect(applyBalance(3600, -5000)).toEqual({ amountDue: 0, balanceAfter: -1400 });
    expect(applyBalance(-300, 0)).toEqual({ amountDue: 0, balanceAfter: -300 });
  });

  it('folds a customer’s invoices in order', () => {
    const line = (amount: number) => ({ description: '', amount, proration: false });
    expect(customerBalance([])).toBe(0);
    expect(customerBalance([{ lines: [line(3600)] }, { lines: [line(-5000), line(1000)] }])).toBe(-4000);
    expect(customerBalance([{ lines: [line(-5000), line(1000)] }, { lines: [line(3600)] }])).toBe(-400);
    expect(customerBalance([{ lines: [line(-1000)] }, { lines: [line(3600)] }, { lines: [line(-200)] }])).toBe(-200);
  });
});
