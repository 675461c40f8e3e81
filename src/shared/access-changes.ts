// What a member's entitlement is, and how a change of it is named. The entitlements core compares a
// member's entitlement before and after each write and records the change under one of these
// kinds; integrations (TradingView, mail, Discord…) subscribe to the lifecycle callbacks below.
// Besides the changes, one notice: a canceled plan's or complimentary access's last days began.
import { accessUntil, grantsAccess, isCanceled, type SubscriptionRow } from './access';
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

/** The row that carries the member's access at `at` (the access rule of access.ts), or null without access. */
export function accessRowOf<Row extends EntitlementRow>(rows: readonly Row[], at: Date): Row | null {
  let best: Row | null = null;
  for (const row of rows) {
    if (!grantsAccess(row, at)) continue;
    // A paid row wins a tie with complimentary access: the member is a customer.
    if (!best || lastsUntil(row) > lastsUntil(best) || (lastsUntil(row) === lastsUntil(best) && best.provider === COMP_PROVIDER)) best = row;
  }
  return best;
}

/** The entitlement a row carries. */
export function entitlementOfRow(row: EntitlementRow): Entitlement {
  return { planType: row.planType, status: row.status, expiresAt: row.expiresAt, cancelAtPeriodEnd: row.cancelAtPeriodEnd, complimentary: row.provider === COMP_PROVIDER };
}

/** The member's entitlement at `at`, or null without access. */
export function entitlementOf(rows: readonly EntitlementRow[], at: Date): Entitlement | null {
  const best = accessRowOf(rows, at);
  return best ? entitlementOfRow(best) : null;
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
  'ending_soon',
] as const;
export type AccessChangeKind = (typeof ACCESS_CHANGE_KINDS)[number];

/**
 * The kinds that tell of access about to change, not of a change: `ending_soon`, recorded once per
 * row and period end when a canceled plan or complimentary access enters its last
 * ENDING_NOTICE_MS. The member's access is what it was, so followers of access skip them.
 */
export const NOTICE_KINDS = ['ending_soon'] as const satisfies readonly AccessChangeKind[];

/** How long before a canceled row's period end `ending_soon` is recorded (the mails' "ends on {date}" notice). */
export const ENDING_NOTICE_MS = 3 * 24 * 60 * 60 * 1000;

/** The rows of a member whose last days began at `at`: canceled (set to end, or comp), granting access, ending within ENDING_NOTICE_MS. */
export function rowsEndingSoon<Row extends EntitlementRow>(rows: readonly Row[], at: Date): Row[] {
  return rows.filter((row) => {
    const until = accessUntil(row);
    return isCanceled(row) && grantsAccess(row, at) && until !== null && until.getTime() <= at.getTime() + ENDING_NOTICE_MS;
  });
}

/**
 * Why a write took or gave access, when the rows alone cannot tell: a refund and an expiry both
 * switch access off, a won dispute and a purchase both switch it on.
 */
export type AccessChangeCause = 'refunded' | 'disputed' | 'restored' | 'comp_given' | 'revoked';

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
  /**
   * The subscription row behind the change: the one carrying access after it, or for a change
   * that ended access (and `ending_soon`), the one whose access ends. Null in changes recorded
   * before migration 0058. The mails name it: their dedupe keys are per row and period end.
   */
  rowId: string | null;
  /** That row as it stood after the change: set not to renew (canceled at period end, canceled, or comp access). */
  canceled: boolean;
  /** That row is complimentary access an operator gave, not a bought plan. */
  complimentary: boolean;
  /** The end of that row's period (its access_until while switched on; null: it never ends). */
  periodEnd: Date | null;
};

/** What a change records of the row behind it, as that row stands after the change. */
export function rowFacts(row: EntitlementRow & { id: string }): Pick<AccessChange, 'rowId' | 'canceled' | 'complimentary' | 'periodEnd'> {
  return { rowId: row.id, canceled: isCanceled(row), complimentary: row.provider === COMP_PROVIDER, periodEnd: accessUntil(row) };
}

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
  ending_soon: 'onAccessEnding',
} as const satisfies Record<AccessChangeKind, string>;
export type AccessCallback = (typeof CALLBACK_OF_KIND)[AccessChangeKind];

/**
 * An integration that follows members' access. Each callback is named for the moment of the
 * lifecycle it is called at; a subscriber implements the ones it cares about. Delivery is at least
 * once: a callback may see a change again after a crash, so it must be safe to repeat.
 */
export type AccessSubscriber = { name: string } & Partial<Record<AccessCallback, (change: AccessChange) => Promise<void>>>;

/** The callbacks of the kinds that change access (all but the notices). */
export const CHANGE_CALLBACKS: readonly AccessCallback[] = [
  ...new Set(ACCESS_CHANGE_KINDS.filter((kind) => !(NOTICE_KINDS as readonly AccessChangeKind[]).includes(kind)).map((kind) => CALLBACK_OF_KIND[kind])),
];

/** A subscriber that brings a member's state in line with their access whatever the change (TradingView, whose grants carry the access's end); notices change nothing to bring in line. */
export function followsAccess(name: string, sync: (userId: string) => Promise<void>): AccessSubscriber {
  const callback = (change: AccessChange) => sync(change.userId);
  const subscriber: AccessSubscriber = { name };
  for (const callbackName of CHANGE_CALLBACKS) subscriber[callbackName] = callback;
  return subscriber;
}

/**
 * The kinds after which a member holds the plan they held before, with access before and after
 * (accessChangeOf names no other change so): only the period's end, its renewal or its payment moved.
 */
export const SAME_PLAN_KINDS = ['renewed', 'past_due', 'canceled', 'resumed'] as const satisfies readonly AccessChangeKind[];

/**
 * A subscriber whose state follows the member's plan and whether they have access, not until when
 * (a community's roles or chats, by plan): a change of SAME_PLAN_KINDS leaves that as it was, so none
 * is delivered to it (a renewal's costs it no statement). What such a change follows was brought
 * in line by the delivery of the change before it, which reads the member's access when it runs.
 */
export function followsPlan(name: string, sync: (userId: string) => Promise<void>): AccessSubscriber {
  const subscriber = followsAccess(name, sync);
  for (const kind of SAME_PLAN_KINDS) delete subscriber[CALLBACK_OF_KIND[kind]];
  return subscriber;
}
