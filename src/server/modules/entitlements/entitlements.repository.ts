// The only Drizzle user of the entitlement tables (checkout_sessions, orders, user_subscriptions,
// processed_events). Every function takes the database or a transaction: inside a transaction,
// pass the transaction (PGlite has one connection; a query on `db` there would wait forever).
import { and, desc, eq, gte, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { DuplicateStatus, RevokedReason } from '@shared/payment-rules';
import type { PlanType } from '@shared/plans';
import { ACTIVE_ROWS_LIMIT, RECENT_ROWS_LIMIT, type OrderSummary } from '@shared/subscription-view';
import type { Db } from '../../db/client';
import { checkoutSessions, orders, processedEvents, user, userSubscriptions } from '../../db/schema';

export type CheckoutSessionRow = typeof checkoutSessions.$inferSelect;
export type SubscriptionRecord = typeof userSubscriptions.$inferSelect;
export type OrderRecord = typeof orders.$inferSelect;

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

/** The TradingView username on file: the most recently updated one of any of the user's rows. */
export async function latestTradingviewUsername(db: Db, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ username: userSubscriptions.tradingviewUsername })
    .from(userSubscriptions)
    .where(and(eq(userSubscriptions.userId, userId), isNotNull(userSubscriptions.tradingviewUsername)))
    .orderBy(desc(userSubscriptions.updatedAt))
    .limit(1);
  return row?.username ?? null;
}

// ---------------------------------------------------------------- checkout sessions

export async function insertCheckoutSession(db: Db, values: typeof checkoutSessions.$inferInsert): Promise<void> {
  await db.insert(checkoutSessions).values(values);
}

/** Drops a row whose provider session could not be created (createCheckout). */
export async function deleteCheckoutSession(db: Db, id: string): Promise<void> {
  await db.delete(checkoutSessions).where(eq(checkoutSessions.id, id));
}

export async function findCheckoutSession(db: Db, id: string): Promise<CheckoutSessionRow | null> {
  const [row] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id)).limit(1);
  return row ?? null;
}

/** Reads the session row and locks it until the transaction ends (claims and fulfilment queue here). */
export async function lockCheckoutSession(tx: Db, id: string): Promise<CheckoutSessionRow | null> {
  const [row] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, id)).for('update').limit(1);
  return row ?? null;
}

export async function updateCheckoutSession(tx: Db, id: string, values: Partial<typeof checkoutSessions.$inferInsert>): Promise<void> {
  await tx.update(checkoutSessions).set({ ...values, updatedAt: sql`now()` }).where(eq(checkoutSessions.id, id));
}

/** Unpaid sessions for an e-mail started since `since`: the ones a missed webhook could leave behind. */
export async function openSessionsForEmail(db: Db, email: string, since: Date): Promise<CheckoutSessionRow[]> {
  return db
    .select()
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.email, email.toLowerCase()), eq(checkoutSessions.paymentStatus, 'unpaid'), gte(checkoutSessions.createdAt, since)))
    .orderBy(desc(checkoutSessions.createdAt))
    .limit(10);
}

// ---------------------------------------------------------------- orders

/** One order per checkout session; returns its id whether it was just written or existed. */
export async function ensureCheckoutOrder(
  tx: Db,
  values: {
    checkoutSessionId: string;
    planType: PlanType;
    amount: number;
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

export async function findOrderByPaymentId(db: Db, providerPaymentId: string): Promise<OrderRecord | null> {
  const [row] = await db.select().from(orders).where(eq(orders.providerPaymentId, providerPaymentId)).limit(1);
  return row ?? null;
}

/** The order a charge or refund is about: it names the payment intent, orders may be keyed by invoice. */
export async function findOrderByAnyPaymentId(db: Db, paymentId: string): Promise<OrderRecord | null> {
  const [row] = await db
    .select()
    .from(orders)
    .where(or(eq(orders.providerPaymentIntentId, paymentId), eq(orders.providerPaymentId, paymentId)))
    .limit(1);
  return row ?? null;
}

export async function insertOrder(tx: Db, values: typeof orders.$inferInsert): Promise<void> {
  await tx.insert(orders).values(values);
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

/**
 * Writes a recurring subscription's state from a provider snapshot, creating the row on first
 * sight. State columns change only when the snapshot is not older than the row's; links (user,
 * checkout, order) are filled once and never overwritten. A change of plan unlinks the order,
 * whose amount was for the old plan (the view then shows list prices).
 */
export async function upsertRecurringRow(tx: Db, subscriptionId: string, state: ProviderState, link: Link): Promise<string | null> {
  const [row] = await tx
    .insert(us)
    .values({ ...snapshotColumns(state, link), cancelAtPeriodEnd: state.cancelAtPeriodEnd, providerSubscriptionId: subscriptionId, checkoutSessionId: link.checkoutSessionId })
    .onConflictDoUpdate({
      target: us.providerSubscriptionId,
      set: {
        planType: keepUnlessFresh('plan_type'),
        status: keepUnlessFresh('status'),
        isActive: activeUnlessRevoked,
        expiresAt: keepUnlessFresh('expires_at'),
        cancelAtPeriodEnd: keepUnlessFresh('cancel_at_period_end'),
        orderId: sql`CASE WHEN ${fresh} AND ${us.planType} <> excluded.plan_type THEN NULL ELSE COALESCE(${us.orderId}, excluded.order_id) END`,
        checkoutSessionId: sql`COALESCE(${us.checkoutSessionId}, excluded.checkout_session_id)`,
        ...mergedOnConflict(),
      },
    })
    .returning({ userId: us.userId });
  return row?.userId ?? null;
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

export async function findRowBySubscriptionId(db: Db, subscriptionId: string): Promise<SubscriptionRecord | null> {
  const [row] = await db.select().from(us).where(eq(us.providerSubscriptionId, subscriptionId)).limit(1);
  return row ?? null;
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

/** Fills the username on rows that have none (a claimed purchase inherits the member's username). */
export async function fillTradingviewUsername(tx: Db, rowIds: string[], username: string): Promise<void> {
  if (rowIds.length === 0) return;
  await tx
    .update(us)
    .set({ tradingviewUsername: username })
    .where(and(inArray(us.id, rowIds), isNull(us.tradingviewUsername)));
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
  tradingviewUsername: us.tradingviewUsername,
  providerCustomerId: us.providerCustomerId,
  providerLivemode: us.providerLivemode,
};

export type SubscriptionViewRecord = Omit<SubscriptionRecord, 'userId' | 'providerUpdatedAt' | 'planType'> & { planType: PlanType };

/** The rows of the subscription view, as the spec's two queries return them, and each row's order. */
export type SubscriptionViewRows = { active: SubscriptionViewRecord[]; recent: SubscriptionViewRecord[]; orders: Map<string, OrderSummary> };

/**
 * The subscription view's reads in one prepared statement: the active query (
 * is_active, status active/trialing/canceled; canceled first, newest first; at most 5), its
 * fallback query (the 10 newest rows of any kind) and the order of each row they return. It was
 * three round trips per /api/subscription. The union's order is not SQL's promise: the shared
 * view rules (subscription-view.ts) order each list again.
 */
export function createSubscriptionViewQuery(db: Db) {
  const userId = sql.placeholder('userId');
  const columns = { ...viewColumns, orderAmount: orders.amount, orderCurrency: orders.currency, orderCreatedAt: orders.createdAt };
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
    for (const { orderAmount, orderCurrency, orderCreatedAt, active: fromActive, ...row } of rows) {
      (fromActive ? view.active : view.recent).push(row as SubscriptionViewRecord);
      if (row.orderId && orderCreatedAt) view.orders.set(row.orderId, { amount: orderAmount, currency: orderCurrency, createdAt: orderCreatedAt });
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

// ---------------------------------------------------------------- processed events

export async function isEventProcessed(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: processedEvents.id }).from(processedEvents).where(eq(processedEvents.id, id)).limit(1);
  return row !== undefined;
}

/**
 * Records an event inside the transaction that applies it. False when it was already recorded;
 * a concurrent delivery of the same event waits here until the first one commits.
 */
export async function recordProcessedEvent(tx: Db, event: { id: string; source: string; type: string }): Promise<boolean> {
  const inserted = await tx.insert(processedEvents).values(event).onConflictDoNothing().returning({ id: processedEvents.id });
  return inserted.length > 0;
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
    inArray(us.checkoutSessionId, tx.select({ id: checkoutSessions.id }).from(checkoutSessions).where(eq(checkoutSessions.email, address))),
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

export async function setDuplicateStatus(db: Db, sessionId: string, status: DuplicateStatus): Promise<void> {
  await db.update(checkoutSessions).set({ duplicateStatus: status, updatedAt: sql`now()` }).where(eq(checkoutSessions.id, sessionId));
}

/** Records when our records first saw a session paid, in the database's time like `created_at`. */
export async function markCheckoutCompleted(tx: Db, id: string): Promise<void> {
  await tx.update(checkoutSessions).set({ completedAt: sql`COALESCE(${checkoutSessions.completedAt}, now())` }).where(eq(checkoutSessions.id, id));
}

/** Unpaid checkouts of an e-mail still open at the provider, started before `before`. */
export async function openCheckoutsOfEmail(db: Db, email: string, provider: string, before: Date): Promise<CheckoutSessionRow[]> {
  return db
    .select()
    .from(checkoutSessions)
    .where(
      and(
        eq(checkoutSessions.email, email.trim().toLowerCase()),
        eq(checkoutSessions.provider, provider),
        eq(checkoutSessions.status, 'open'),
        eq(checkoutSessions.paymentStatus, 'unpaid'),
        lte(checkoutSessions.createdAt, before),
      ),
    )
    .limit(20);
}

/** Takes access from rows for `reason`; a reason already recorded is kept (the first one explains it). */
export async function revokeRows(
  tx: Db,
  rows: { checkoutSessionId?: string | null; subscriptionId?: string | null; orderId?: string | null; rowIds?: string[] },
  reason: RevokedReason,
): Promise<(string | null)[]> {
  const match = or(
    rows.checkoutSessionId ? eq(us.checkoutSessionId, rows.checkoutSessionId) : undefined,
    rows.subscriptionId ? eq(us.providerSubscriptionId, rows.subscriptionId) : undefined,
    rows.orderId ? eq(us.orderId, rows.orderId) : undefined,
    rows.rowIds && rows.rowIds.length > 0 ? inArray(us.id, rows.rowIds) : undefined,
  );
  if (!match) return [];
  const updated = await tx
    .update(us)
    .set({
      isActive: false,
      // a one-time purchase has no provider status to fall back on: it reads as canceled
      status: sql`CASE WHEN ${us.providerSubscriptionId} IS NULL THEN 'canceled' ELSE ${us.status} END`,
      revokedReason: sql`COALESCE(${us.revokedReason}, ${reason})`,
      updatedAt: sql`now()`,
    })
    .where(match)
    .returning({ userId: us.userId });
  return updated.map((row) => row.userId);
}

/** Gives access back to rows revoked only for `reason` (a dispute the vendor won). */
export async function restoreRows(tx: Db, rows: { checkoutSessionId: string | null; subscriptionId: string | null; orderId: string }, reason: RevokedReason): Promise<(string | null)[]> {
  const match = or(
    rows.checkoutSessionId ? eq(us.checkoutSessionId, rows.checkoutSessionId) : undefined,
    rows.subscriptionId ? eq(us.providerSubscriptionId, rows.subscriptionId) : undefined,
    eq(us.orderId, rows.orderId),
  );
  const updated = await tx
    .update(us)
    .set({
      isActive: true,
      status: sql`CASE WHEN ${us.providerSubscriptionId} IS NULL THEN 'active' ELSE ${us.status} END`,
      revokedReason: null,
      updatedAt: sql`now()`,
    })
    .where(and(eq(us.revokedReason, reason), match))
    .returning({ userId: us.userId });
  return updated.map((row) => row.userId);
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
