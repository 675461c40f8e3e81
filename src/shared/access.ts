// The access rule, shared by the server and the client: a row grants access while it is switched on
// and its access_until lies ahead (null: no end). Its one other form is SQL's
// subscription_access_until (migrations 0040, 0051 and 0061, decisions 059 and 066); access-rule.test.ts holds
// the two together. Nothing else spells the rule out: ask accessUntil or grantsAccess.
import { isRecurring, neverExpires, type PlanType } from './plans';

export const SUBSCRIPTION_STATUSES = ['active', 'trialing', 'canceled'] as const;

export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** The fields of a subscription row that the access rules read. */
export type SubscriptionRow = {
  planType: PlanType;
  // Provider statuses beyond the three the spec names (past_due, incomplete…) can be stored.
  status: SubscriptionStatus | (string & {});
  isActive: boolean;
  expiresAt: Date | null;
  cancelAtPeriodEnd: boolean;
  createdAt: Date;
  updatedAt: Date;
};

type AccessFields = Pick<SubscriptionRow, 'planType' | 'isActive' | 'expiresAt'>;

/**
 * Until when a switched-on row gives access: never ends (null) for a one-time plan (lifetime) or a
 * recurring row whose expiry is not known yet, else its expiry. A switched-off row's access ended
 * when it was switched off (SQL reads its updated_at; grantsAccess never asks).
 */
export function accessUntil(row: Pick<SubscriptionRow, 'planType' | 'expiresAt'>): Date | null {
  return neverExpires(row.planType) ? null : row.expiresAt;
}

/** Whether `until` (an accessUntil, null: no end) lies after `now`. */
export function lastsBeyond(until: Date | null, now: Date): boolean {
  return until === null || until.getTime() > now.getTime();
}

/** A switched-on row whose access_until lies after `now`. */
export function grantsAccess(row: AccessFields, now: Date): boolean {
  return row.isActive && lastsBeyond(accessUntil(row), now);
}

/** Canceled subscriptions keep access until expiry; this only says the plan will not renew. */
export function isCanceled(row: Pick<SubscriptionRow, 'status' | 'cancelAtPeriodEnd'>): boolean {
  return row.cancelAtPeriodEnd || row.status === 'canceled';
}

export function isCurrentlyActive(row: SubscriptionRow, now: Date): boolean {
  return grantsAccess(row, now) && !isCanceled(row);
}

export function canCancel(row: Pick<SubscriptionRow, 'planType' | 'status' | 'cancelAtPeriodEnd'>): boolean {
  return (
    !isCanceled(row) &&
    (row.status === 'active' || row.status === 'trialing') &&
    isRecurring(row.planType)
  );
}

export function hasPremiumAccess(rows: readonly AccessFields[], now: Date): boolean {
  return rows.some((row) => grantsAccess(row, now));
}
