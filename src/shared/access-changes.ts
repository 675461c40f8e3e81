// What a member's entitlement is, and how a change of it is named. The entitlements core compares a
// member's entitlement before and after each write and records the change under one of these
// kinds; integrations (TradingView, mail, Discord…) subscribe to the lifecycle callbacks below.
import { accessUntil, grantsAccess, type SubscriptionRow } from './access';
import { COMP_PROVIDER } from './admin-reports';
import type { PlanType } from './plans';

/** The row that carries a member's access: the one that lasts longest (lifetime first). */
export type Entitlement = {
  planType: PlanType;
  status: string;
  expiresAt: Date | null;
  cancelAtPeriodEnd: boolean;
  complimentary: boolean;
};

export type EntitlementRow = Pick<SubscriptionRow, 'planType' | 'status' | 'isActive' | 'expiresAt' | 'cancelAtPeriodEnd'> & { provider: string };

const lastsUntil = (row: EntitlementRow) => accessUntil(row)?.getTime() ?? Number.POSITIVE_INFINITY;

/** The member's entitlement at `at`, or null without access (the access rule of access.ts). */
export function entitlementOf(rows: readonly EntitlementRow[], at: Date): Entitlement | null {
  let best: EntitlementRow | null = null;
  for (const row of rows) {
    if (!grantsAccess(row, at)) continue;
    // A paid row wins a tie with complimentary access: the member is a customer.
    if (!best || lastsUntil(row) > lastsUntil(best) || (lastsUntil(row) === lastsUntil(best) && best.provider === COMP_PROVIDER)) best = row;
  }
  if (!best) return null;
  return { planType: best.planType, status: best.status, expiresAt: best.expiresAt, cancelAtPeriodEnd: best.cancelAtPeriodEnd, complimentary: best.provider === COMP_PROVIDER };
}

export const ACCESS_CHANGE_KINDS = [
  'bought',
  'renewed',
  'plan_changed',
  'past_due',
  'canceled',
  'resumed',
  'ended',
  'refunded',
  'disputed',
  'restored',
  'comp_given',
  'comp_taken',
  'revoked',
] as const;
export type AccessChangeKind = (typeof ACCESS_CHANGE_KINDS)[number];

/**
 * Why a write took or gave access, when the rows alone cannot tell: a refund and an expiry both
 * switch access off, a won dispute and a purchase both switch it on.
 */
export type AccessChangeCause = 'refunded' | 'disputed' | 'restored' | 'comp_given' | 'revoked';

const isCanceled = (entitlement: Entitlement) => entitlement.cancelAtPeriodEnd || entitlement.status === 'canceled';

/** The name of the change from `before` to `after`, or null when nothing a member would notice changed. */
export function accessChangeOf(before: Entitlement | null, after: Entitlement | null, cause: AccessChangeCause | null): AccessChangeKind | null {
  if (!before && !after) return null;
  if (!before) {
    if (cause === 'restored') return 'restored';
    return after!.complimentary ? 'comp_given' : 'bought';
  }
  if (!after) {
    if (cause === 'refunded' || cause === 'disputed') return cause;
    if (cause === 'revoked') return before.complimentary ? 'comp_taken' : 'revoked';
    return 'ended';
  }
  if (before.complimentary !== after.complimentary) return after.complimentary ? 'comp_given' : 'bought';
  if (cause === 'comp_given') return 'comp_given';
  if (before.planType !== after.planType) return 'plan_changed';
  if (after.status === 'past_due' && before.status !== 'past_due') return 'past_due';
  if (isCanceled(after) && !isCanceled(before)) return 'canceled';
  if (!isCanceled(after) && isCanceled(before)) return 'resumed';
  const longer = after.expiresAt !== null && (before.expiresAt === null ? false : after.expiresAt.getTime() > before.expiresAt.getTime());
  if (longer) return 'renewed';
  return null;
}

/** One recorded change, as subscribers receive it. */
export type AccessChange = {
  id: string;
  userId: string;
  kind: AccessChangeKind;
  /** The plan after the change; for a change that ended access, the plan that ended. */
  planType: PlanType;
  previousPlanType: PlanType | null;
  hasAccess: boolean;
  expiresAt: Date | null;
  occurredAt: Date;
};

/** The lifecycle callbacks a subscriber may implement; each kind of change calls one of them. */
export const CALLBACK_OF_KIND = {
  bought: 'onAccessBought',
  renewed: 'onSubscriptionRenewed',
  plan_changed: 'onPlanChanged',
  past_due: 'onPaymentPastDue',
  canceled: 'onSubscriptionCanceled',
  resumed: 'onSubscriptionResumed',
  ended: 'onAccessEnded',
  refunded: 'onAccessEnded',
  disputed: 'onAccessEnded',
  comp_taken: 'onAccessEnded',
  revoked: 'onAccessEnded',
  restored: 'onAccessRestored',
  comp_given: 'onCompGiven',
} as const satisfies Record<AccessChangeKind, string>;
export type AccessCallback = (typeof CALLBACK_OF_KIND)[AccessChangeKind];

/**
 * An integration that follows members' access. Each callback is named for the moment of the
 * lifecycle it is called at; a subscriber implements the ones it cares about. Delivery is at least
 * once: a callback may see a change again after a crash, so it must be safe to repeat.
 */
export type AccessSubscriber = { name: string } & Partial<Record<AccessCallback, (change: AccessChange) => Promise<void>>>;

/** A subscriber that brings a member's state in line with their access whatever the change (TradingView, Discord). */
export function followsAccess(name: string, sync: (userId: string) => Promise<void>): AccessSubscriber {
  const callback = (change: AccessChange) => sync(change.userId);
  const subscriber: AccessSubscriber = { name };
  for (const callbackName of new Set(Object.values(CALLBACK_OF_KIND))) subscriber[callbackName] = callback;
  return subscriber;
}
