// A member's access history as the operator console words it: one line per recorded access
// change (access-changes.ts names the kinds). Pure.
import type { AccessChangeKind } from './access-changes';
import { planDisplayName, type PlanType } from './plans';

/** What a label needs of a change; dates as the API sends them (ISO strings) or as Dates. */
export type AccessHistoryChange = {
  kind: AccessChangeKind;
  planType: PlanType;
  previousPlanType: PlanType | null;
  expiresAt: string | Date | null;
};

/** "Mar 1, 2026": the UTC day, as the console writes days. */
export const utcDayText = (at: Date) => at.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * The last day access lasts: the day of the last instant before the expiry, so access that ends
 * at midnight UTC (comp access "until" a day ends at the next midnight) shows the day it covers.
 */
export function lastDayOf(expiresAt: string | Date, dayText: (at: Date) => string = utcDayText): string {
  return dayText(new Date(new Date(expiresAt).getTime() - 1));
}

const untilText = (change: AccessHistoryChange, dayText: (at: Date) => string, words = 'access until') =>
  change.expiresAt === null ? '' : ` (${words} ${lastDayOf(change.expiresAt, dayText)})`;

const LABELS: Record<AccessChangeKind, (change: AccessHistoryChange, dayText: (at: Date) => string) => string> = {
  bought: (change) => `Bought ${planDisplayName(change.planType)}`,
  renewed: (change, dayText) => `Renewed${untilText(change, dayText)}`,
  plan_changed: (change) =>
    change.previousPlanType === null ? `Plan changed to ${planDisplayName(change.planType)}` : `Plan changed: ${planDisplayName(change.previousPlanType)} → ${planDisplayName(change.planType)}`,
  past_due: () => 'Payment failed (past due)',
  canceled: (change, dayText) => `Canceled${untilText(change, dayText)}`,
  resumed: () => 'Cancellation undone',
  ended: () => 'Ended',
  refunded: () => 'Refunded',
  disputed: () => 'Payment disputed',
  restored: () => 'Access restored',
  comp_given: (change, dayText) => `Complimentary access given${untilText(change, dayText, 'until')}`,
  comp_taken: () => 'Complimentary access taken away',
  revoked: () => 'Access revoked by an operator',
  ending_soon: (change, dayText) => `Ending soon${untilText(change, dayText)}`,
};

/** The console's line for a change, e.g. "Plan changed: Monthly → Quarterly", "Canceled (access until Mar 1, 2026)". */
export function accessChangeLabel(change: AccessHistoryChange, dayText: (at: Date) => string = utcDayText): string {
  return LABELS[change.kind](change, dayText);
}
