import { formatMoney, type PlanType } from '@shared/plans';

const PLAN_LABELS: Record<PlanType | 'comp', string> = {
  monthly: 'Monthly',
  quarterly: 'Quarterly',
  yearly: 'Yearly',
  lifetime: 'Lifetime',
  euMonthly: 'EU Monthly',
  euQuarterly: 'EU Quarterly',
  comp: 'Comp',
};

const isLabelled = (plan: string): plan is keyof typeof PLAN_LABELS => Object.hasOwn(PLAN_LABELS, plan);

/** Operators tell the EU variants apart, unlike buyers (planDisplayName). */
export const planLabel = (plan: string | null) => (plan ? (isLabelled(plan) ? PLAN_LABELS[plan] : plan) : '—');

export const moneyText = (amounts: readonly { amount: number; currency: string }[]) =>
  amounts.length ? amounts.map((money) => formatMoney(money.amount, money.currency)).join(' + ') : formatMoney(0, 'usd');

// Dates and times in the operator's own locale and time zone (the browser's); tests pass both.
export const dateText = (iso: string | null, locale?: string, timeZone?: string) =>
  iso ? new Date(iso).toLocaleDateString(locale, { year: 'numeric', month: 'short', day: 'numeric', ...(timeZone ? { timeZone } : {}) }) : '—';

export const dateTimeText = (iso: string | null, locale?: string, timeZone?: string) =>
  iso ? new Date(iso).toLocaleString(locale, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short', ...(timeZone ? { timeZone } : {}) }) : '—';

/** "12 min", "3 h", "2 d": how long ago `iso` was. */
export function ageText(iso: string, now: Date = new Date()): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - new Date(iso).getTime()) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 48 * 60) return `${Math.floor(minutes / 60)} h`;
  return `${Math.floor(minutes / (24 * 60))} d`;
}

/** A stored word the console has no label for, still read as words ('dispute_lost' → 'Dispute lost'). */
const asWords = (value: string) => (value.charAt(0).toUpperCase() + value.slice(1)).replaceAll('_', ' ');
const labelled = (labels: Record<string, string>) => (value: string) => (Object.hasOwn(labels, value) ? labels[value]! : asWords(value));

/** An order's status in words ('dispute_lost' → 'Dispute lost'). */
export const orderStatusLabel = labelled({ paid: 'Paid', refunded: 'Refunded', disputed: 'Disputed', dispute_lost: 'Dispute lost', pending: 'Pending' });

/** A subscription's status at its provider, as the member standing calls it (past_due: 'Renewal failed'). */
export const subscriptionStatusLabel = labelled({
  active: 'Active',
  trialing: 'Free time before the next charge',
  past_due: 'Renewal failed',
  canceled: 'Canceled',
  incomplete: 'Awaiting first payment',
  incomplete_expired: 'First payment never made',
  unpaid: 'Unpaid',
  paused: 'Paused',
});

/** Why a subscription stopped giving access before its time (RevokedReason). */
export const revokedReasonLabel = labelled({
  duplicate: 'duplicate payment',
  replaced: 'replaced by another plan',
  refunded: 'refunded',
  disputed: 'disputed',
  operator: 'revoked by an operator',
  banned: 'banned',
});

/** Where a subscription was bought. */
export const providerLabel = labelled({ sandbox: 'Sandbox', stripe: 'Stripe', comp: 'Complimentary', import: 'Imported' });

/** A TradingView grant's state and what the shop wants of it. */
export const grantStatusLabel = labelled({ pending: 'Pending', processing: 'Being sent', granted: 'Granted', revoked: 'Revoked', failed: 'Failed' });
export const grantDesireLabel = labelled({ grant: 'access wanted', revoke: 'removal wanted' });

/** A grant in the TradingView page's queue: its state, and that it is a removal while one is under way. */
export const grantQueueLabel = (status: string, desired: string) =>
  desired === 'revoke' && status !== 'revoked' ? `${grantStatusLabel(status)} (${grantDesireLabel(desired)})` : grantStatusLabel(status);

/** A linked Discord account's roles, as the Discord page's counts name them (processing: a pass under way). */
/** A linked community account's state in words; `gives` is what the community gives it ('roles', 'chats'). */
export const accountStatusLabel = (gives: string) => labelled({ pending: 'Pending', processing: `Updating ${gives}`, synced: 'Synced', failed: 'Failed' });
/** Whether a community link is the member's own now, or an old one kept until what it was given is taken back. */
export const accountLinkLabel = (current: boolean) => (current ? 'Current' : 'Old');
/** What the Discord audit did to a role. */
export const roleChangeLabel = labelled({ added: 'Given back', removed: 'Taken away' });

/** A security event's name in words ('password_reset_requested' → 'Password reset requested'). */
export const eventLabel = asWords;
