// The entitlements core's queries of its tables (user_subscriptions, orders) beside the writes of
// entitlement-rows.ts and the reads of entitlement-reads.ts; checkout sessions and processed
// provider events are modules/provider-records' (decision 064). Every function takes the database
// or a transaction: inside a transaction, pass the transaction (PGlite has one connection; a query
// on `db` there would wait forever).
import { and, desc, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { PlanType } from '@shared/plans';
import { ACTIVE_ROWS_LIMIT, RECENT_ROWS_LIMIT, type OrderSummary } from '@shared/subscription-view';
import { entitlementOf, type Entitlement } from '@shared/access-changes';
import type { Db } from '../../db/client';
import { orders, user, userSubscriptions } from '../../db/schema';
import { originPageOf } from '../provider-records/checkout-session-reads';
import { sessionIdsOfEmail } from '../provider-records/checkout-sessions.repository';

export type SubscriptionRecord = typeof userSubscriptions.$inferSelect;
export type OrderRecord = typeof orders.$inferSelect;

const us = userSubscriptions;

/** The columns the access rule and the names of access changes read (access-changes.ts). */
export const ENTITLEMENT_COLUMNS = { planType: us.planType, status: us.status, isActive: us.isActive, expiresAt: us.expiresAt, cancelAtPeriodEnd: us.cancelAtPeriodEnd, provider: us.provider };

/** What a member is entitled to at `at`: the row that carries their access, or null. */
export async function memberEntitlement(db: Db, userId: string, at: Date): Promise<Entitlement | null> {
  return entitlementOf(await db.select(ENTITLEMENT_COLUMNS).from(us).where(eq(us.userId, userId)), at);
}

// ---------------------------------------------------------------- users

export type AccountSummary = { id: string; email: string; createdAt: Date };

export async function findAccountByEmail(db: Db, email: string): Promise<AccountSummary | null> {
  const [row] = await db
    .select({ id: user.id, email: user.email, createdAt: user.createdAt })
    .from(user)
    .where(eq(sql`lower(${user.email})`, email.trim().toLowerCase()))
    .limit(1);
  return row ?? null;
}

export async function findAccountById(db: Db, id: string): Promise<AccountSummary | null> {
  const [row] = await db.select({ id: user.id, email: user.email, createdAt: user.createdAt }).from(user).where(eq(user.id, id)).limit(1);
  return row ?? null;
}

// ---------------------------------------------------------------- orders

/** The order a charge or refund is about: it names the payment intent, orders may be keyed by invoice. */
export async function findOrderByAnyPaymentId(db: Db, paymentId: string): Promise<OrderRecord | null> {
  const [row] = await db
    .select()
    .from(orders)
    .where(or(eq(orders.providerPaymentIntentId, paymentId), eq(orders.providerPaymentId, paymentId)))
    .limit(1);
  return row ?? null;
}

export async function findRowBySubscriptionId(db: Db, subscriptionId: string): Promise<SubscriptionRecord | null> {
  const [row] = await db.select().from(us).where(eq(us.providerSubscriptionId, subscriptionId)).limit(1);
  return row ?? null;
}

/** What a row holds for a buyer: the columns both the views and the double-payment check read. */
const holdingColumns = {
  id: us.id,
  planType: us.planType,
  status: us.status,
  isActive: us.isActive,
  expiresAt: us.expiresAt,
  cancelAtPeriodEnd: us.cancelAtPeriodEnd,
  provider: us.provider,
  providerSubscriptionId: us.providerSubscriptionId,
  checkoutSessionId: us.checkoutSessionId,
};

const viewColumns = {
  ...holdingColumns,
  createdAt: us.createdAt,
  updatedAt: us.updatedAt,
  orderId: us.orderId,
  // The member's current TradingView username (the TradingView module's table), not the row's.
  // Spelled out: Drizzle leaves columns unqualified in a single-table select, which would make
  // the subquery compare its own user_id with itself.
  tradingviewUsername: sql<string | null>`(SELECT n.username FROM tradingview_usernames n
    WHERE n.user_id = "user_subscriptions"."user_id" AND n.replaced_at IS NULL)`.as('tradingview_username'),
  providerCustomerId: us.providerCustomerId,
  providerLivemode: us.providerLivemode,
};

export type SubscriptionViewRecord = Omit<SubscriptionRecord, 'userId' | 'providerUpdatedAt' | 'planType'> & { planType: PlanType; tradingviewUsername: string | null };

/** A row of the subscription view, with the page its checkout started on (null: none of this shop). */
type ViewedRow = SubscriptionViewRecord & { originPage: string | null };

/** The rows of the subscription view, as the spec's two queries return them, and each row's order. */
export type SubscriptionViewRows = { active: ViewedRow[]; recent: ViewedRow[]; orders: Map<string, OrderSummary> };

/**
 * The subscription view's reads in one prepared statement: the active query (
 * is_active, status active/trialing/canceled; canceled first, newest first; at most 5), its
 * fallback query (the 10 newest rows of any kind) and the order of each row they return. It was
 * three round trips per /api/subscription. The union's order is not SQL's promise: the shared
 * view rules (subscription-view.ts) order each list again.
 */
export function createSubscriptionViewQuery(db: Db) {
  const userId = sql.placeholder('userId');
  const columns = {
    ...viewColumns,
    // where it was bought, for the plan-change card's list: its checkout's page and the currency it
    // is billed in, or for an import (no checkout here) what the import recorded of its price
    originPage: originPageOf(us.checkoutSessionId).as('origin_page'),
    priceCurrency: us.priceCurrency,
    boughtOnList: us.boughtOnList,
    boughtOnCurrency: us.boughtOnCurrency,
    orderAmount: orders.amount,
    orderCurrency: orders.currency,
    orderCreatedAt: orders.createdAt,
    orderDiscount: orders.amountDiscount,
  };
  // which of the two queries a row comes from (a row can come from both)
  const rowsFrom = (active: boolean) => db.select({ ...columns, active: sql<boolean>`${sql.raw(String(active))}`.as('from_active') }).from(us).leftJoin(orders, eq(orders.id, us.orderId));
  const active = rowsFrom(true)
    .where(and(eq(us.userId, userId), eq(us.isActive, true), inArray(us.status, ['active', 'trialing', 'canceled'])))
    .orderBy(desc(us.cancelAtPeriodEnd), desc(us.updatedAt), desc(us.createdAt))
    .limit(ACTIVE_ROWS_LIMIT);
  const recent = rowsFrom(false).where(eq(us.userId, userId)).orderBy(desc(us.createdAt)).limit(RECENT_ROWS_LIMIT);
  const statement = unionAll(active, recent).prepare('subscription_view');

  return async (id: string): Promise<SubscriptionViewRows> => {
    const rows = await statement.execute({ userId: id });
    const view: SubscriptionViewRows = { active: [], recent: [], orders: new Map() };
    for (const { orderAmount, orderCurrency, orderCreatedAt, orderDiscount, active: fromActive, ...row } of rows) {
      (fromActive ? view.active : view.recent).push(row as ViewedRow);
      if (row.orderId && orderCreatedAt) view.orders.set(row.orderId, { amount: orderAmount, currency: orderCurrency, createdAt: orderCreatedAt, amountDiscount: orderDiscount ?? 0 });
    }
    return view;
  };
}

/** Every row still marked active: what purchase guards and plan changes look at. */
export async function activeFlagRowsOfUser(db: Db, userId: string): Promise<SubscriptionViewRecord[]> {
  const rows = await db.select(viewColumns).from(us).where(and(eq(us.userId, userId), eq(us.isActive, true))).orderBy(desc(us.createdAt));
  return rows as SubscriptionViewRecord[];
}

/** Rows whose provider state a sync re-reads: every recurring row not finally ended, and one-time rows. */
export async function syncableRowsOfUser(db: Db, userId: string): Promise<SubscriptionViewRecord[]> {
  const rows = await db
    .select(viewColumns)
    .from(us)
    .where(and(eq(us.userId, userId), or(eq(us.isActive, true), and(isNotNull(us.providerSubscriptionId), sql`${us.status} <> 'canceled'`))))
    .orderBy(desc(us.createdAt))
    .limit(20);
  return rows as SubscriptionViewRecord[];
}

/** The member's provider customer: from the newest row that has one for this provider. */
/**
 * The member's customer id at the provider, in the mode the provider runs in: ids made with a
 * test key are unknown to a live key. Rows written before the mode was recorded are tried too.
 */
export async function customerIdOfUser(db: Db, userId: string, provider: { kind: string; livemode: boolean }): Promise<string | null> {
  const [row] = await db
    .select({ customerId: us.providerCustomerId })
    .from(us)
    .where(
      and(
        eq(us.userId, userId),
        eq(us.provider, provider.kind),
        isNotNull(us.providerCustomerId),
        or(isNull(us.providerLivemode), eq(us.providerLivemode, provider.livemode)),
      ),
    )
    .orderBy(desc(us.isActive), desc(us.createdAt))
    .limit(1);
  return row?.customerId ?? null;
}

/**
 * Drops a customer id the provider no longer knows from the member's rows (test ids after going
 * live, a customer deleted in the dashboard); the next payment's customer takes its place.
 */
export async function forgetCustomerId(db: Db, userId: string, customerId: string): Promise<number> {
  const rows = await db
    .update(us)
    .set({ providerCustomerId: null, providerLivemode: null })
    .where(and(eq(us.userId, userId), eq(us.providerCustomerId, customerId)))
    .returning({ id: us.id });
  return rows.length;
}

// ---------------------------------------------------------------- one paid subscription per buyer

/**
 * Serialises, until the transaction ends, every payment decision about one buyer e-mail, across
 * instances: two sessions of one buyer completing at once are judged one after the other.
 */
export async function lockBuyer(tx: Db, email: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`candlewise:buyer:${email.trim().toLowerCase()}`}))`);
}

export type BuyerHolding = Pick<SubscriptionRecord, keyof typeof holdingColumns>;

/**
 * Rows still marked active of a buyer, by account (its e-mail) or by the e-mail that paid an
 * unclaimed session, leaving out the rows of the payment being judged.
 */
export async function activeRowsOfBuyer(tx: Db, email: string, except: { checkoutSessionId: string; subscriptionId: string | null }): Promise<BuyerHolding[]> {
  const address = email.trim().toLowerCase();
  const ofBuyer = or(
    inArray(us.userId, tx.select({ id: user.id }).from(user).where(eq(sql`lower(${user.email})`, address))),
    inArray(us.checkoutSessionId, sessionIdsOfEmail(tx, address)),
  );
  const notThisPayment = and(
    sql`${us.checkoutSessionId} IS DISTINCT FROM ${except.checkoutSessionId}`,
    except.subscriptionId ? sql`${us.providerSubscriptionId} IS DISTINCT FROM ${except.subscriptionId}` : undefined,
  );
  return tx
    .select(holdingColumns)
    .from(us)
    .where(and(eq(us.isActive, true), isNull(us.revokedReason), ofBuyer, notThisPayment));
}

/** Whether the purchase of a checkout still gives access (not refunded, disputed or replaced). */
export async function checkoutStillGrants(db: Db, checkoutSessionId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: us.id })
    .from(us)
    .where(and(eq(us.checkoutSessionId, checkoutSessionId), eq(us.isActive, true), isNull(us.revokedReason)))
    .limit(1);
  return row !== undefined;
}

// ---------------------------------------------------------------- plan changes in flight

/** A change to the same plan started this recently is a repeat of it (a double click, a retry). */
export const PLAN_CHANGE_REPEAT_MS = 10 * 60 * 1000;
/** A change still unfinished after this long is taken to have died with its instance. */
const PLAN_CHANGE_LEASE_MS = 2 * 60 * 1000;

/**
 * Claims the right to change a subscription's plan: one atomic update, so of concurrent changes
 * (on any instance) exactly one wins. Free when no change is in flight: none recorded, the last
 * one applied (the row has its plan), or its lease ran out. False when another change holds it.
 */
export async function beginPlanChange(db: Db, rowId: string, planType: PlanType, now: Date): Promise<boolean> {
  const leaseStart = new Date(now.getTime() - PLAN_CHANGE_LEASE_MS);
  const claimed = await db
    .update(us)
    .set({ planChangeTarget: planType, planChangeStartedAt: now })
    .where(
      and(
        eq(us.id, rowId),
        or(isNull(us.planChangeStartedAt), sql`${us.planChangeStartedAt} < ${leaseStart}`, sql`${us.planType} = ${us.planChangeTarget}`),
      ),
    )
    .returning({ id: us.id });
  return claimed.length > 0;
}

/** A failed change frees the subscription at once (a successful one is freed by its new plan). */
export async function abandonPlanChange(db: Db, rowId: string): Promise<void> {
  await db.update(us).set({ planChangeTarget: null, planChangeStartedAt: null }).where(eq(us.id, rowId));
}

export async function findPlanChange(db: Db, rowId: string): Promise<{ target: string | null; startedAt: Date | null } | null> {
  const [row] = await db.select({ target: us.planChangeTarget, startedAt: us.planChangeStartedAt }).from(us).where(eq(us.id, rowId)).limit(1);
  return row ?? null;
}
