import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { isPlanType } from '@shared/plans';
import type { Db } from '../../db/client';
import { orders, user } from '../../db/schema';
import { checkoutEmailOf } from '../provider-records/checkout-session-reads';

export type OrderQuery = { plan?: string; status?: string; from?: Date; before?: Date; limit: number };

/** Orders newest first with the buyer's e-mail (the account's, else the checkout's). */
export async function findOrders(db: Db, query: OrderQuery) {
  const conditions: SQL[] = [];
  // The filter is free text: a word that names no plan matches no order.
  if (query.plan) conditions.push(isPlanType(query.plan) ? eq(orders.planType, query.plan) : sql`false`);
  if (query.status) conditions.push(eq(orders.status, query.status));
  if (query.from) conditions.push(gte(orders.createdAt, query.from));
  if (query.before) conditions.push(lt(orders.createdAt, query.before));
  return db
    .select({
      id: orders.id,
      createdAt: orders.createdAt,
      planType: orders.planType,
      amount: orders.amount,
      currency: orders.currency,
      status: orders.status,
      accountEmail: user.email,
      checkoutEmail: checkoutEmailOf(orders.checkoutSessionId),
      providerPaymentId: orders.providerPaymentId,
      userId: orders.userId,
    })
    .from(orders)
    .leftJoin(user, eq(user.id, orders.userId))
    .where(and(...conditions))
    .orderBy(desc(orders.createdAt))
    .limit(query.limit);
}

/** What a refund of one order needs: its state, amount, owner and the payment to refund (the intent when known). */
export async function findOrderForRefund(db: Db, orderId: string) {
  const [row] = await db
    .select({
      id: orders.id,
      status: orders.status,
      amount: orders.amount,
      currency: orders.currency,
      userId: orders.userId,
      providerPaymentId: sql<string | null>`COALESCE(${orders.providerPaymentIntentId}, ${orders.providerPaymentId})`,
    })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  return row ?? null;
}
