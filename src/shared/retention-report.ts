// The console's retention numbers (issue 47, decision 057): which months an operator may ask for,
// and the rules that turn the database's grouped counts (a snapshot, see modules/retention-report)
// into the report: cohorts by month of first payment, churn split by why it happened, MRR
// movement, LTV per plan, trial conversion, refund and dispute rates, revenue per promotion code
// and per affiliate. Pure: the server builds the report with these, tests pin them in tables.
import { z } from 'zod';
import { CANCELLATION_OUTCOMES, CANCELLATION_REASONS, type CancellationOutcome, type CancellationReason } from './retention';

/** How far back the snapshot reaches, in months including the current one. */
export const REPORT_MONTHS_MAX = 24;
/** The window the page opens with. */
export const REPORT_MONTHS_DEFAULT = 12;

export const RETENTION_REPORT_PATH = '/api/admin/retention/report';

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** A UTC month as YYYY-MM. */
export function monthKey(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** The month `count` months after `month` (negative: before). */
export function addMonths(month: string, count: number): string {
  const [, year, mon] = MONTH.exec(month)!;
  return monthKey(new Date(Date.UTC(Number(year), Number(mon) - 1 + count, 1)));
}

/** The first instant of a month. */
export function monthStart(month: string): Date {
  return new Date(`${month}-01T00:00:00.000Z`);
}

/** The months from `from` to `to`, both included, oldest first. */
export function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  for (let month = from; month <= to; month = addMonths(month, 1)) months.push(month);
  return months;
}

const monthField = z.string().regex(MONTH, 'A month is written YYYY-MM, e.g. 2026-03.');
export const retentionReportQuerySchema = z.object({ from: monthField.optional(), to: monthField.optional() }).strict();
export type RetentionReportQuery = z.infer<typeof retentionReportQuerySchema>;

/**
 * The months asked for, or why they cannot be shown: `to` defaults to the current month and
 * `from` to REPORT_MONTHS_DEFAULT months before it; neither may lie in the future, `from` not after
 * `to`, and not before the snapshot's first month.
 */
export function reportRange(query: RetentionReportQuery, now: Date): { from: string; to: string } | { error: string } {
  const current = monthKey(now);
  const earliest = addMonths(current, -(REPORT_MONTHS_MAX - 1));
  const to = query.to ?? current;
  const from = query.from ?? (addMonths(to, -(REPORT_MONTHS_DEFAULT - 1)) < earliest ? earliest : addMonths(to, -(REPORT_MONTHS_DEFAULT - 1)));
  if (to > current) return { error: `The range cannot end after the current month (${current}).` };
  if (from > to) return { error: `The range starts (${from}) after it ends (${to}).` };
  if (from < earliest) return { error: `The range reaches back at most ${REPORT_MONTHS_MAX} months: start at ${earliest} or later.` };
  return { from, to };
}

// ---- The snapshot: grouped counts the database returns, kept as one JSON document ----

/** Why a member's access ended, in the rows' words (the row that lasted longest). */
export type EndedRow = { status: string; cancelAtPeriodEnd: boolean; revokedReason: string | null; canceledByMember: boolean };

/** The snapshot's shape: a stored one of another version is counted again rather than misread. */
export const SNAPSHOT_VERSION = 1;

export type RetentionSnapshot = {
  version: number;
  computedAt: string;
  /** The oldest month counted (REPORT_MONTHS_MAX back from computedAt's). */
  firstMonth: string;
  /** Cohort `cohort` (month of first payment): how many members had reached `after` months by computedAt, and how many of them had access then. */
  cohorts: { cohort: string; after: number; eligible: number; retained: number }[];
  cohortSizes: { cohort: string; members: number }[];
  /** Members whose last access ended in `month`, grouped by how the row ended. */
  churned: (EndedRow & { month: string; members: number })[];
  /** Paying members with access at the start of each month. */
  payingAtStart: { month: string; members: number }[];
  /** Members grouped by their MRR (minor units a month) at the start of `month` and at its end (or now), and whether they had paid before `month`. */
  mrr: { month: string; currency: string; before: number; after: number; paidBefore: boolean; members: number }[];
  cancellations: { month: string; reason: CancellationReason; outcome: CancellationOutcome; count: number }[];
  /** Per plan of each member's first payment: members and what they paid in all (refunded and disputed payments left out). */
  lifetimeValue: { plan: string; currency: string; members: number; revenue: number }[];
  /** Trials by month they ended and how. */
  trials: { month: string; outcome: string; count: number }[];
  /** Orders by month of payment and status (paid, refunded, disputed). */
  orders: { month: string; status: string; count: number; amount: number; currency: string }[];
  promotions: { month: string; code: string; currency: string; orders: number; revenue: number; discount: number }[];
  affiliates: { month: string; code: string; currency: string; orders: number; revenue: number }[];
};

// ---- The rules ----

export const CHURN_KINDS = ['voluntary', 'involuntary', 'reversed', 'operator'] as const;
export type ChurnKind = (typeof CHURN_KINDS)[number];

export const CHURN_KIND_LABELS: Record<ChurnKind, string> = {
  voluntary: 'Voluntary (canceled)',
  involuntary: 'Involuntary (payment failed)',
  reversed: 'Refunded or disputed',
  operator: 'Ended by an operator',
};

const FAILED_PAYMENT_STATUSES: ReadonlySet<string> = new Set(['past_due', 'unpaid', 'incomplete', 'incomplete_expired']);

/**
 * Why access ended. A refund or dispute, and an operator's revocation or ban, say so themselves;
 * a member who canceled (at period end, or through the cancellation flow) left by choice, as did one
 * whose one-time period simply ran out. A subscription the provider ended while collecting
 * (past due, unpaid) or canceled without the member asking (Stripe does after its retries) ended
 * because payment failed.
 */
export function churnKind(row: EndedRow): ChurnKind {
  if (row.revokedReason === 'refunded' || row.revokedReason === 'disputed') return 'reversed';
  if (row.revokedReason === 'operator' || row.revokedReason === 'banned') return 'operator';
  if (row.cancelAtPeriodEnd || row.canceledByMember) return 'voluntary';
  if (FAILED_PAYMENT_STATUSES.has(row.status) || row.status === 'canceled') return 'involuntary';
  return 'voluntary';
}

export const MRR_MOVEMENTS = ['new', 'expansion', 'contraction', 'churn', 'reactivation'] as const;
export type MrrMovement = (typeof MRR_MOVEMENTS)[number];

export const MRR_MOVEMENT_LABELS: Record<MrrMovement, string> = {
  new: 'New',
  expansion: 'Expansion',
  contraction: 'Contraction',
  churn: 'Churn',
  reactivation: 'Reactivation',
};

/** What a member's MRR did over a month, and by how much (churn and contraction negative); null when nothing moved. */
export function mrrMovement(before: number, after: number, paidBefore: boolean): { kind: MrrMovement; amount: number } | null {
  if (before === after) return null;
  if (before === 0) return { kind: paidBefore ? 'reactivation' : 'new', amount: after };
  if (after === 0) return { kind: 'churn', amount: -before };
  return { kind: after > before ? 'expansion' : 'contraction', amount: after - before };
}

/** A share in percent with one decimal; null when there is nothing to share. */
export function percent(part: number, whole: number): number | null {
  return whole > 0 ? Math.round((part / whole) * 1000) / 10 : null;
}

// ---- The report ----

const cohortCellSchema = z.object({ after: z.number().int(), eligible: z.number().int(), retained: z.number().int(), share: z.number().nullable() });
const mrrMonthSchema = z.object({
  month: z.string(),
  currency: z.string(),
  start: z.number(),
  end: z.number(),
  ...Object.fromEntries(MRR_MOVEMENTS.map((kind) => [kind, z.number()])) as Record<MrrMovement, z.ZodNumber>,
});

export const retentionReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  computedAt: z.string(),
  cohorts: z.array(z.object({ cohort: z.string(), members: z.number().int(), after: z.array(cohortCellSchema) })),
  churn: z.array(
    z.object({
      month: z.string(),
      payingAtStart: z.number().int(),
      ...Object.fromEntries(CHURN_KINDS.map((kind) => [kind, z.number().int()])) as Record<ChurnKind, z.ZodNumber>,
      rate: z.number().nullable(),
    }),
  ),
  reasons: z.array(z.object({ reason: z.enum(CANCELLATION_REASONS), total: z.number().int(), ...Object.fromEntries(CANCELLATION_OUTCOMES.map((o) => [o, z.number().int()])) as Record<CancellationOutcome, z.ZodNumber> })),
  mrr: z.array(mrrMonthSchema),
  lifetimeValue: z.array(z.object({ plan: z.string(), currency: z.string(), members: z.number().int(), revenue: z.number(), perMember: z.number() })),
  trials: z.array(z.object({ month: z.string(), converted: z.number().int(), canceled: z.number().int(), rate: z.number().nullable() })),
  reversals: z.array(z.object({ month: z.string(), orders: z.number().int(), refunded: z.number().int(), disputed: z.number().int(), refundRate: z.number().nullable(), disputeRate: z.number().nullable() })),
  promotions: z.array(z.object({ code: z.string(), currency: z.string(), orders: z.number().int(), revenue: z.number(), discount: z.number() })),
  affiliates: z.array(z.object({ code: z.string(), currency: z.string(), orders: z.number().int(), revenue: z.number() })),
});
export type RetentionReport = z.infer<typeof retentionReportSchema>;
export type MrrMonth = RetentionReport['mrr'][number];

/** Sums `rows` per key, keeping the first row's other fields. */
function sumBy<T, K extends string>(rows: readonly T[], key: (row: T) => string, fields: readonly K[], value: (row: T, field: K) => number): Map<string, { first: T; sums: Record<K, number> }> {
  const groups = new Map<string, { first: T; sums: Record<K, number> }>();
  for (const row of rows) {
    const group = groups.get(key(row)) ?? { first: row, sums: Object.fromEntries(fields.map((field) => [field, 0])) as Record<K, number> };
    for (const field of fields) group.sums[field] += value(row, field);
    groups.set(key(row), group);
  }
  return groups;
}

/** The report for months `from`..`to` out of a snapshot (LTV is all time: a member's value is not a month's). */
export function retentionReport(snapshot: RetentionSnapshot, range: { from: string; to: string }): RetentionReport {
  const months = monthsBetween(range.from, range.to);
  const inRange = (month: string) => month >= range.from && month <= range.to;

  const cohorts = months
    .map((cohort) => ({
      cohort,
      members: snapshot.cohortSizes.find((row) => row.cohort === cohort)?.members ?? 0,
      after: snapshot.cohorts
        .filter((row) => row.cohort === cohort && row.eligible > 0)
        .sort((a, b) => a.after - b.after)
        .map(({ after, eligible, retained }) => ({ after, eligible, retained, share: percent(retained, eligible) })),
    }))
    .filter((row) => row.members > 0);

  const churn = months.map((month) => {
    const counts = Object.fromEntries(CHURN_KINDS.map((kind) => [kind, 0])) as Record<ChurnKind, number>;
    for (const row of snapshot.churned) if (row.month === month) counts[churnKind(row)] += row.members;
    const payingAtStart = snapshot.payingAtStart.find((row) => row.month === month)?.members ?? 0;
    const total = CHURN_KINDS.reduce((sum, kind) => sum + counts[kind], 0);
    return { month, payingAtStart, ...counts, rate: percent(total, payingAtStart) };
  });

  const reasons = CANCELLATION_REASONS.map((reason) => {
    const outcomes = Object.fromEntries(CANCELLATION_OUTCOMES.map((outcome) => [outcome, 0])) as Record<CancellationOutcome, number>;
    for (const row of snapshot.cancellations) if (row.reason === reason && inRange(row.month)) outcomes[row.outcome] += row.count;
    return { reason, total: CANCELLATION_OUTCOMES.reduce((sum, outcome) => sum + outcomes[outcome], 0), ...outcomes };
  });

  const currencies = [...new Set(snapshot.mrr.map((row) => row.currency))].sort();
  const mrr = currencies.flatMap((currency) =>
    months.map((month) => {
      const line: MrrMonth = { month, currency, start: 0, end: 0, new: 0, expansion: 0, contraction: 0, churn: 0, reactivation: 0 };
      for (const row of snapshot.mrr) {
        if (row.month !== month || row.currency !== currency) continue;
        line.start += row.before * row.members;
        line.end += row.after * row.members;
        const movement = mrrMovement(row.before, row.after, row.paidBefore);
        if (movement) line[movement.kind] += movement.amount * row.members;
      }
      return line;
    }),
  );

  const lifetimeValue = snapshot.lifetimeValue
    .map((row) => ({ ...row, perMember: row.members > 0 ? Math.round(row.revenue / row.members) : 0 }))
    .sort((a, b) => a.plan.localeCompare(b.plan) || a.currency.localeCompare(b.currency));

  const trials = months.map((month) => {
    const of = (outcome: string) => snapshot.trials.filter((row) => row.month === month && row.outcome === outcome).reduce((sum, row) => sum + row.count, 0);
    const converted = of('converted');
    const canceled = of('canceled');
    return { month, converted, canceled, rate: percent(converted, converted + canceled) };
  });

  const reversals = months.map((month) => {
    const of = (status: string) => snapshot.orders.filter((row) => row.month === month && row.status === status).reduce((sum, row) => sum + row.count, 0);
    const orders = snapshot.orders.filter((row) => row.month === month).reduce((sum, row) => sum + row.count, 0);
    const refunded = of('refunded');
    const disputed = of('disputed');
    return { month, orders, refunded, disputed, refundRate: percent(refunded, orders), disputeRate: percent(disputed, orders) };
  });

  const byRevenue = (a: { revenue: number; code: string }, b: { revenue: number; code: string }) => b.revenue - a.revenue || a.code.localeCompare(b.code);
  const promotions = [...sumBy(snapshot.promotions.filter((row) => inRange(row.month)), (row) => `${row.code} ${row.currency}`, ['orders', 'revenue', 'discount'] as const, (row, field) => row[field]).values()]
    .map(({ first, sums }) => ({ code: first.code, currency: first.currency, ...sums }))
    .sort(byRevenue);
  const affiliates = [...sumBy(snapshot.affiliates.filter((row) => inRange(row.month)), (row) => `${row.code} ${row.currency}`, ['orders', 'revenue'] as const, (row, field) => row[field]).values()]
    .map(({ first, sums }) => ({ code: first.code, currency: first.currency, ...sums }))
    .sort(byRevenue);

  return { from: range.from, to: range.to, computedAt: snapshot.computedAt, cohorts, churn, reasons, mrr, lifetimeValue, trials, reversals, promotions, affiliates };
}
