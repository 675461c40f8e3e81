// Plan-change proration as Stripe computes it (proration_behavior 'always_invoice'), so that the
// sandbox previews and charges what the real provider would:
// - unused time on the current price is credited by the second: amount × remaining / period;
// - same billing interval: the new price is charged for the same remaining time, the period stays;
// - different interval (monthly → yearly): the billing cycle resets to the proration date and the
//   new price is charged in full for a fresh period.
// A negative invoice total is not refunded: it becomes customer balance used by later invoices.
import { addMonthsUtc, addPeriod, type BillingPeriod } from '@shared/catalogue';

export type InvoiceLine = { description: string; amount: number; proration: boolean };

export type ProrationInput = {
  current: { amount: number; intervalMonths: number; name: string };
  /** `period`: the new plan's own (a week…); without it, `intervalMonths` months. */
  next: { amount: number; intervalMonths: number; name: string; period?: BillingPeriod };
  periodStart: Date;
  periodEnd: Date;
  prorationDate: Date;
  /** Customer balance before this invoice: 0 or negative (credit). */
  balance?: number;
};

export type ProrationResult = {
  /** Positive amount credited for unused time on the current price. */
  prorationCredit: number;
  /** Positive amount charged for the new price. */
  newPlanCharge: number;
  /** What the customer pays now: never negative. */
  totalDue: number;
  /** Customer balance after this invoice (0 or negative). */
  balanceAfter: number;
  resetsBillingCycle: boolean;
  newPeriodStart: Date;
  newPeriodEnd: Date;
  lines: InvoiceLine[];
};

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** Share of the period still ahead at `at`, by whole seconds, between 0 and 1. */
export function remainingFraction(periodStart: Date, periodEnd: Date, at: Date): number {
  const start = seconds(periodStart);
  const end = seconds(periodEnd);
  const now = Math.min(Math.max(seconds(at), start), end);
  if (end <= start) return 0;
  return (end - now) / (end - start);
}

function formatDay(date: Date): string {
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** Applies a balance (≤ 0) to an invoice total: what is due now and the balance left after. */
export function applyBalance(total: number, balance: number): { amountDue: number; balanceAfter: number } {
  const applied = total + Math.min(balance, 0);
  return { amountDue: Math.max(0, applied), balanceAfter: Math.min(0, applied) };
}

/** The customer's credit balance after a sequence of invoices, oldest first (0 or negative). */
export function customerBalance(invoices: readonly { lines: readonly InvoiceLine[] }[]): number {
  let balance = 0;
  for (const invoice of invoices) {
    const total = invoice.lines.reduce((sum, line) => sum + line.amount, 0);
    balance = applyBalance(total, balance).balanceAfter;
  }
  return balance;
}

export function computeProration(input: ProrationInput): ProrationResult {
  const { current, next, periodStart, periodEnd, prorationDate } = input;
  const fraction = remainingFraction(periodStart, periodEnd, prorationDate);
  const resetsBillingCycle = current.intervalMonths !== next.intervalMonths;
  const credit = Math.round(current.amount * fraction);
  const since = formatDay(prorationDate);
  const lines: InvoiceLine[] = [];
  if (credit > 0) lines.push({ description: `Unused time on ${current.name} after ${since}`, amount: -credit, proration: true });

  let charge: number;
  let newPeriodStart = periodStart;
  let newPeriodEnd = periodEnd;
  if (resetsBillingCycle) {
    charge = next.amount;
    newPeriodStart = new Date(seconds(prorationDate) * 1000);
    newPeriodEnd = next.period ? addPeriod(newPeriodStart, next.period) : addMonthsUtc(newPeriodStart, next.intervalMonths);
    lines.push({ description: `1 × ${next.name} (${formatDay(newPeriodStart)} – ${formatDay(newPeriodEnd)})`, amount: charge, proration: false });
  } else {
    charge = Math.round(next.amount * fraction);
    if (charge > 0) lines.push({ description: `Remaining time on ${next.name} after ${since}`, amount: charge, proration: true });
  }

  const { amountDue, balanceAfter } = applyBalance(charge - credit, input.balance ?? 0);
  return {
    prorationCredit: credit,
    newPlanCharge: charge,
    totalDue: amountDue,
    balanceAfter,
    resetsBillingCycle,
    newPeriodStart,
    newPeriodEnd,
    lines,
  };
}
