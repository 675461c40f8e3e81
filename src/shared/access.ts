// The access rule (lifetime needs is_active; every other plan needs is_active and no expiry or a
// future one), shared by the SQL function's tests, the server and the client.
import { isRecurring, neverExpires, type PlanType } from './plans';

export const SUBSCRIPTION_STATUSES = ['active', 'trialing', 'canceled'] as const;

export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** The fields of a user_subscriptions row that the access rules read. */
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

/** Lifetime needs is_active; other plans need is_active and an expiry that is absent or in the future. */
export function grantsAccess(row: AccessFields, now: Date): boolean {
  if (!row.isActive) return false;
  if (neverExpires(row.planType)) return true;
  return row.expiresAt === null || row.expiresAt.getTime() > now.getTime();
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
