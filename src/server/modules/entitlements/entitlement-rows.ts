// The writes that can change what a member is entitled to: subscription rows and orders. Only the
// entitlements core (entitlements.ts) calls these, inside a transaction it watches, so that every
// change of access is recorded as an event; src/server/modules/entitlements/one-writer.test.ts
// keeps it so.
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { RevokedReason } from '@shared/payment-rules';
import { COMP_PROVIDER } from '@shared/admin-reports';
import type { PlanType } from '@shared/plans';
import type { Db } from '../../db/client';
import { orders, userSubscriptions } from '../../db/schema';
import { ENTITLEMENT_COLUMNS, type SubscriptionRecord } from './entitlements.repository';
import type { CheckoutSessionRow } from '../provider-records/checkout-sessions.repository';

// ---------------------------------------------------------------- orders

/** One order per checkout session; returns its id whether it was just written or existed. */
export async function ensureCheckoutOrder(
  tx: Db,
  values: {
    checkoutSessionId: string;
    planType: PlanType;
    amount: number;
    /** The tax part of amount (null: not known). */
    amountTax: number | null;
    /** The promotion code of the payment and what it took off (amount is after it). */
    promotionCode: string | null;
    amountDiscount: number;
    currency: string;
    providerPaymentId: string | null;
    providerPaymentIntentId: string | null;
    providerSubscriptionId: string | null;
    userId: string | null;
  },
): Promise<string> {
  await tx.insert(orders).values({ ...values, status: 'paid' }).onConflictDoNothing({ target: orders.checkoutSessionId });
  // An order written before its payment intent was known (older rows, a late invoice) learns it now.
  if (values.providerPaymentIntentId) {
    await tx
      .update(orders)
      .set({ providerPaymentIntentId: values.providerPaymentIntentId })
      .where(and(eq(orders.checkoutSessionId, values.checkoutSessionId), isNull(orders.providerPaymentIntentId)));
  }
  const [row] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.checkoutSessionId, values.checkoutSessionId)).limit(1);
  if (!row) throw new Error(`order for ${values.checkoutSessionId} vanished`);
  return row.id;
}

/**
 * A paid invoice's order, unless an order of that payment exists already (a repeated event):
 * the check and the insert in one statement.
 */
export async function insertOrderOfPayment(tx: Db, values: typeof orders.$inferInsert & { providerPaymentId: string }): Promise<void> {
  await tx.execute(
    sql`INSERT INTO orders (user_id, plan_type, amount, amount_tax, promotion_code, amount_discount, currency, status, provider_payment_id, provider_payment_intent_id, provider_subscription_id)
        SELECT ${values.userId ?? null}::uuid, ${values.planType}, ${values.amount}::int, ${values.amountTax ?? null}::int, ${values.promotionCode ?? null}, ${values.amountDiscount ?? 0}::int, ${values.currency},
               ${values.status ?? 'paid'}, ${values.providerPaymentId}, ${values.providerPaymentIntentId ?? null}, ${values.providerSubscriptionId ?? null}
        WHERE NOT EXISTS (SELECT 1 FROM orders WHERE provider_payment_id = ${values.providerPaymentId})`,
  );
}

export async function setOrderStatus(tx: Db, id: string, status: string): Promise<void> {
  await tx.update(orders).set({ status }).where(eq(orders.id, id));
}

// ---------------------------------------------------------------- user_subscriptions

export type ProviderState = {
  planType: PlanType;
  status: string;
  isActive: boolean;
  expiresAt: Date | null;
  cancelAtPeriodEnd: boolean;
  /** A recurring plan whose collection is paused at the provider (one-time purchases: never). */
  collectionPaused?: boolean;
  /** The moment the provider's object was read: an older snapshot never overwrites a newer one. */
  asOf: Date;
};

type Link = {
  provider: string;
  providerCustomerId: string | null;
  /** The Stripe mode the customer id belongs to (false for the sandbox). */
  providerLivemode: boolean;
  userId: string | null;
  checkoutSessionId: string | null;
  orderId: string | null;
  /**
   * Where a subscription no checkout of this shop sold was bought (an import): the list its
   * provider price names and the currency it is billed in; written with the row, kept after.
   */
  boughtOn?: { list: string | null; currency: string } | null;
};

const us = userSubscriptions;
// True when the incoming snapshot is at least as new as the one the row was written from.
const fresh = sql`(${us.providerUpdatedAt} IS NULL OR ${us.providerUpdatedAt} <= excluded.provider_updated_at)`;
const keepUnlessFresh = (column: string) =>
  sql`CASE WHEN ${fresh} THEN ${sql.raw(`excluded."${column}"`)} ELSE ${sql.raw(`"user_subscriptions"."${column}"`)} END`;

// A revoked row (refunded, duplicate, replaced, disputed) stays inactive whatever the provider says.
const activeUnlessRevoked = sql`CASE WHEN ${us.revokedReason} IS NOT NULL THEN false ELSE ${keepUnlessFresh('is_active')} END`;

/** The columns both kinds of row take from the provider's snapshot and the payment's links. */
const snapshotColumns = (state: ProviderState, link: Omit<Link, 'checkoutSessionId'>) => ({
  userId: link.userId,
  planType: state.planType,
  status: state.status,
  isActive: state.isActive,
  expiresAt: state.expiresAt,
  orderId: link.orderId,
  provider: link.provider,
  providerCustomerId: link.providerCustomerId,
  providerLivemode: link.providerLivemode,
  providerUpdatedAt: state.asOf,
  collectionPaused: state.collectionPaused ?? false,
});

// On conflict, both kinds of row keep the user they were linked to, take the newest customer id
// and provider time, and count as updated only when the snapshot was fresh.
const mergedOnConflict = () => ({
  userId: sql`COALESCE(${us.userId}, excluded.user_id)`,
  providerCustomerId: sql`COALESCE(excluded.provider_customer_id, ${us.providerCustomerId})`,
  providerLivemode: sql`CASE WHEN excluded.provider_customer_id IS NULL THEN ${us.providerLivemode} ELSE excluded.provider_livemode END`,
  providerUpdatedAt: sql`GREATEST(${us.providerUpdatedAt}, excluded.provider_updated_at)`,
  updatedAt: sql`CASE WHEN ${fresh} THEN now() ELSE ${us.updatedAt} END`,
});

/** The row as written: its member (null while unclaimed) and its plan (an older snapshot keeps the row's). */
export type WrittenRow = { userId: string | null; planType: PlanType };

/**
 * Writes a recurring subscription's state from a provider snapshot, creating the row on first
 * sight. State columns change only when the snapshot is not older than the row's; links (user,
 * checkout, order) and where an import was bought are filled once and never overwritten. A
 * change of plan unlinks the order, whose amount was for the old plan (the view then shows list
 * prices).
 */
export async function upsertRecurringRow(tx: Db, subscriptionId: string, state: ProviderState, link: Link): Promise<WrittenRow | null> {
  const [row] = await tx
    .insert(us)
    .values({
      ...snapshotColumns(state, link),
      cancelAtPeriodEnd: state.cancelAtPeriodEnd,
      providerSubscriptionId: subscriptionId,
      checkoutSessionId: link.checkoutSessionId,
      boughtOnList: link.boughtOn?.list ?? null,
      boughtOnCurrency: link.boughtOn?.currency.toLowerCase() ?? null,
    })
    .onConflictDoUpdate({
      target: us.providerSubscriptionId,
      set: {
        planType: keepUnlessFresh('plan_type'),
        status: keepUnlessFresh('status'),
        isActive: activeUnlessRevoked,
        expiresAt: keepUnlessFresh('expires_at'),
        cancelAtPeriodEnd: keepUnlessFresh('cancel_at_period_end'),
        collectionPaused: keepUnlessFresh('collection_paused'),
        orderId: sql`CASE WHEN ${fresh} AND ${us.planType} <> excluded.plan_type THEN NULL ELSE COALESCE(${us.orderId}, excluded.order_id) END`,
        checkoutSessionId: sql`COALESCE(${us.checkoutSessionId}, excluded.checkout_session_id)`,
        // the list and currency are recorded together, once
        boughtOnList: sql`CASE WHEN ${us.boughtOnCurrency} IS NULL THEN excluded.bought_on_list ELSE ${us.boughtOnList} END`,
        boughtOnCurrency: sql`COALESCE(${us.boughtOnCurrency}, excluded.bought_on_currency)`,
        ...mergedOnConflict(),
      },
    })
    .returning({ userId: us.userId, planType: us.planType });
  return row ?? null;
}

/** The row of a one-time (lifetime) purchase, keyed by its checkout session. */
export async function upsertOneTimeRow(tx: Db, checkoutSessionId: string, state: ProviderState, link: Omit<Link, 'checkoutSessionId'>): Promise<string | null> {
  const [row] = await tx
    .insert(us)
    .values({ ...snapshotColumns(state, link), cancelAtPeriodEnd: false, checkoutSessionId })
    .onConflictDoUpdate({
      target: us.checkoutSessionId,
      set: {
        status: keepUnlessFresh('status'),
        isActive: activeUnlessRevoked,
        orderId: sql`COALESCE(${us.orderId}, excluded.order_id)`,
        ...mergedOnConflict(),
      },
    })
    .returning({ userId: us.userId });
  return row?.userId ?? null;
}

/** Links the rows and the order of a paid session to the account that claimed it. */
export async function linkSessionToUser(tx: Db, session: Pick<CheckoutSessionRow, 'id' | 'providerSubscriptionId'>, userId: string): Promise<string[]> {
  const rows = await tx
    .update(us)
    .set({ userId, updatedAt: sql`now()` })
    .where(
      and(
        isNull(us.userId),
        session.providerSubscriptionId ? or(eq(us.checkoutSessionId, session.id), eq(us.providerSubscriptionId, session.providerSubscriptionId)) : eq(us.checkoutSessionId, session.id),
      ),
    )
    .returning({ id: us.id });
  await tx.update(orders).set({ userId }).where(and(eq(orders.checkoutSessionId, session.id), isNull(orders.userId)));
  return rows.map((row) => row.id);
}

/** Rows of one payment (its checkout, its subscription, its order) or rows named by id. */
export type RowSelector = { checkoutSessionId?: string | null; subscriptionId?: string | null; orderId?: string | null; rowIds?: string[] };

const rowMatch = (rows: RowSelector) =>
  or(
    rows.checkoutSessionId ? eq(us.checkoutSessionId, rows.checkoutSessionId) : undefined,
    rows.subscriptionId ? eq(us.providerSubscriptionId, rows.subscriptionId) : undefined,
    rows.orderId ? eq(us.orderId, rows.orderId) : undefined,
    rows.rowIds && rows.rowIds.length > 0 ? inArray(us.id, rows.rowIds) : undefined,
  );

/** Takes access from rows for `reason`; a reason already recorded is kept (the first one explains it). */
export async function revokeRows(tx: Db, rows: RowSelector, reason: RevokedReason): Promise<void> {
  const match = rowMatch(rows);
  if (!match) return;
  await tx
    .update(us)
    .set({
      isActive: false,
      // a one-time purchase has no provider status to fall back on: it reads as canceled
      status: sql`CASE WHEN ${us.providerSubscriptionId} IS NULL THEN 'canceled' ELSE ${us.status} END`,
      revokedReason: sql`COALESCE(${us.revokedReason}, ${reason})`,
      updatedAt: sql`now()`,
    })
    .where(match);
}

/** Gives access back to rows revoked only for `reason` (a dispute the vendor won). */
export async function restoreRows(tx: Db, rows: RowSelector, reason: RevokedReason): Promise<void> {
  const match = rowMatch(rows);
  if (!match) return;
  await tx
    .update(us)
    .set({
      isActive: true,
      status: sql`CASE WHEN ${us.providerSubscriptionId} IS NULL THEN 'active' ELSE ${us.status} END`,
      revokedReason: null,
      updatedAt: sql`now()`,
    })
    .where(and(eq(us.revokedReason, reason), match));
}

/** Rows `revokeRows` and `restoreRows` would match: which members a reversal is about to touch. */
export async function ownersOfRows(tx: Db, rows: RowSelector): Promise<string[]> {
  const match = rowMatch(rows);
  if (!match) return [];
  const found = await tx.selectDistinct({ userId: us.userId }).from(us).where(match);
  return found.flatMap((row) => (row.userId ? [row.userId] : []));
}

/** The owner of the row a provider subscription or a one-time purchase is written to, if any. */
export async function ownerOfRow(tx: Db, key: { subscriptionId: string } | { checkoutSessionId: string }): Promise<string | null> {
  const where = 'subscriptionId' in key ? eq(us.providerSubscriptionId, key.subscriptionId) : eq(us.checkoutSessionId, key.checkoutSessionId);
  const [row] = await tx.select({ userId: us.userId }).from(us).where(where).limit(1);
  return row?.userId ?? null;
}

/** What the access rule and the change names read of every row of these members, with each row's id (the changes name it). */
export async function entitlementRowsOf(tx: Db, userIds: readonly string[]) {
  if (userIds.length === 0) return [];
  return tx
    .select({ id: us.id, userId: us.userId, ...ENTITLEMENT_COLUMNS })
    .from(us)
    .where(inArray(us.userId, [...userIds]));
}

/**
 * The row tracking a provider subscription together with every row of its member (none while
 * unclaimed), in one read: a write to that row reads the member's entitlement first anyway.
 */
export async function rowsAroundSubscription(tx: Db, subscriptionId: string): Promise<SubscriptionRecord[]> {
  const owner = tx.select({ userId: us.userId }).from(us).where(eq(us.providerSubscriptionId, subscriptionId));
  // `= (subquery)`, not IN: the owner is found once and both conditions use their index (IN made
  // the OR a sequential scan of every row, 32 events/s at 100,000 members)
  return tx
    .select()
    .from(us)
    .where(or(eq(us.providerSubscriptionId, subscriptionId), eq(us.userId, sql`(${owner})`)));
}

/** Complimentary access until `until`: a row with no provider behind it, ending on its own. */
export async function insertCompRow(tx: Db, userId: string, until: Date): Promise<void> {
  await tx.insert(us).values({
    userId,
    // Stored as a monthly row that will not renew, so that every reader of plan_type (the member's
    // settings, mails) keeps a plan it knows; the provider says it is comp.
    planType: 'monthly',
    provider: COMP_PROVIDER,
    status: 'canceled',
    cancelAtPeriodEnd: true,
    isActive: true,
    expiresAt: until,
  });
}
