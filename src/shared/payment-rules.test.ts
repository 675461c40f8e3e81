import { describe, expect, it } from 'vitest';
import { chargeRevokes, disputeOutcome, judgePayment, unusedPeriodRefund, type Holding } from './payment-rules';

const monthly: Holding = { planType: 'monthly', canceled: false };
const monthlyEnding: Holding = { planType: 'monthly', canceled: true };
const yearly: Holding = { planType: 'yearly', canceled: false };
const lifetime: Holding = { planType: 'lifetime', canceled: false };

describe('judgePayment', () => {
  it.each([
    { bought: 'monthly', held: [], verdict: 'grant' },
    { bought: 'lifetime', held: [], verdict: 'grant' },
    { bought: 'monthly', held: [monthly], verdict: 'duplicate' },
    { bought: 'euMonthly', held: [monthly], verdict: 'duplicate' },
    { bought: 'yearly', held: [monthly], verdict: 'duplicate' },
    { bought: 'quarterly', held: [monthlyEnding], verdict: 'grant' },
    { bought: 'quarterly', held: [monthlyEnding, yearly], verdict: 'duplicate' },
    { bought: 'monthly', held: [lifetime], verdict: 'duplicate' },
    { bought: 'lifetime', held: [lifetime], verdict: 'duplicate' },
    { bought: 'lifetime', held: [monthly], verdict: 'replace' },
    { bought: 'lifetime', held: [monthlyEnding], verdict: 'replace' },
    { bought: 'lifetime', held: [monthly, yearly], verdict: 'replace' },
  ] as const)('$bought over $held.length holding(s) → $verdict', ({ bought, held, verdict }) => {
    expect(judgePayment(bought, held)).toBe(verdict);
  });
});

describe('unusedPeriodRefund', () => {
  const periodStart = new Date('2030-01-01T00:00:00Z');
  const periodEnd = new Date('2030-01-31T00:00:00Z');
  it.each([
    { at: '2030-01-01T00:00:00Z', amountPaid: 3600, refund: 3600 },
    { at: '2030-01-16T00:00:00Z', amountPaid: 3600, refund: 1800 },
    { at: '2030-01-21T00:00:00Z', amountPaid: 3600, refund: 1200 },
    { at: '2030-01-30T23:59:59Z', amountPaid: 3600, refund: 0 },
    { at: '2030-02-10T00:00:00Z', amountPaid: 3600, refund: 0 },
    { at: '2029-12-01T00:00:00Z', amountPaid: 3600, refund: 3600 },
    { at: '2030-01-16T00:00:00Z', amountPaid: 0, refund: 0 },
    { at: '2030-01-11T00:00:00Z', amountPaid: 1000, refund: 666 },
  ])('$amountPaid paid, at $at → $refund', ({ at, amountPaid, refund }) => {
    expect(unusedPeriodRefund({ amountPaid, periodStart, periodEnd, at: new Date(at) })).toBe(refund);
  });

  it('refunds nothing for an empty period', () => {
    expect(unusedPeriodRefund({ amountPaid: 3600, periodStart, periodEnd: periodStart, at: periodStart })).toBe(0);
  });
});

describe('disputeOutcome', () => {
  it.each([
    ['won', 'won'],
    ['warning_closed', 'won'],
    ['prevented', 'won'],
    ['lost', 'lost'],
    ['needs_response', 'open'],
    ['under_review', 'open'],
    ['warning_needs_response', 'open'],
    ['warning_under_review', 'open'],
  ])('%s → %s', (status, outcome) => {
    expect(disputeOutcome(status)).toBe(outcome);
  });
});

describe('chargeRevokes', () => {
  const paid = { amount: 3600, amountRefunded: 0, refunded: false, dispute: null };
  it.each([
    { name: 'a paid charge', charge: paid, reason: null },
    { name: 'a partial refund', charge: { ...paid, amountRefunded: 1000 }, reason: null },
    { name: 'a full refund', charge: { ...paid, amountRefunded: 3600, refunded: true }, reason: 'refunded' },
    { name: 'refunded amounts adding up to the charge', charge: { ...paid, amountRefunded: 3600 }, reason: 'refunded' },
    { name: 'an open dispute', charge: { ...paid, dispute: 'open' }, reason: 'disputed' },
    { name: 'a lost dispute', charge: { ...paid, dispute: 'lost' }, reason: 'disputed' },
    { name: 'a won dispute', charge: { ...paid, dispute: 'won' }, reason: null },
    { name: 'a won dispute of a fully refunded charge', charge: { ...paid, refunded: true, dispute: 'won' }, reason: 'refunded' },
  ] as const)('$name → $reason', ({ charge, reason }) => {
    expect(chargeRevokes(charge)).toBe(reason);
  });
});
