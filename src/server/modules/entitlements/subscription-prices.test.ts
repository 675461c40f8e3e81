// Each subscription row's price_* columns (migration 0022, read by the console's MRR) follow every
// write of orders and rows: after each step they equal what the console used to work out from the
// orders at read time (the newest paid order of the subscription, its promotion code and when the
// subscription first had it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Database, Db } from '../../db/client';
import { queryRows } from '../../db/query';
import { checkoutSessions, orders } from '../../db/schema';
import { createTestDatabase } from '../../test-support/test-database';
import { ensureCheckoutOrder, setOrderStatus, upsertRecurringRow, upsertOneTimeRow, type ProviderState } from './entitlement-rows';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

// after the purchase's order, which is written at the database's now()
const at = (day: number) => new Date(Date.now() + day * 86_400_000);
const state = (planType: ProviderState['planType'], asOf: Date): ProviderState => ({
  planType,
  status: 'active',
  isActive: true,
  expiresAt: at(28),
  cancelAtPeriodEnd: false,
  asOf,
});
const link = (orderId: string | null, checkoutSessionId: string | null) => ({
  provider: 'sandbox',
  providerCustomerId: 'cus_1',
  providerLivemode: false,
  userId: null,
  checkoutSessionId,
  orderId,
});

/** The stored price of every row, and the same figures worked out from the orders as the console did before 0022. */
async function storedAndRecomputed(db: Db) {
  const stored = await queryRows(
    db,
    sql`SELECT id, price_amount AS amount, price_currency AS currency, price_discount AS discount, price_promotion_code AS code, price_promotion_since AS since
        FROM user_subscriptions ORDER BY id`,
  );
  const recomputed = await queryRows(
    db,
    sql`SELECT s.id, o.amount, o.currency, o.amount_discount AS discount, o.promotion_code AS code,
               (SELECT min(first.created_at) FROM orders first WHERE first.promotion_code = o.promotion_code
                  AND (first.id = s.order_id OR first.provider_subscription_id = s.provider_subscription_id)) AS since
        FROM user_subscriptions s
        LEFT JOIN LATERAL (
          SELECT amount, currency, amount_discount, promotion_code FROM orders o
          WHERE o.status = 'paid' AND (o.id = s.order_id OR (s.provider_subscription_id IS NOT NULL AND o.provider_subscription_id = s.provider_subscription_id))
          ORDER BY o.created_at DESC LIMIT 1
        ) o ON true
        ORDER BY s.id`,
  );
  return { stored, recomputed };
}

async function session(db: Db, id: string, planType: 'monthly' | 'lifetime') {
  await db.insert(checkoutSessions).values({ id, provider: 'sandbox', planType, status: 'complete', paymentStatus: 'paid', amountTotal: 3600, currency: 'usd' });
}

describe('the price kept on each subscription row', () => {
  it('follows a purchase, a promotion code, renewals, a plan change, a refund and a one-time purchase', async () => {
    const db = database.db;
    const steps: { step: string; price: unknown }[] = [];
    const check = async (step: string, subscription = 'sub_1') => {
      const { stored, recomputed } = await storedAndRecomputed(db);
      expect(stored, step).toEqual(recomputed);
      const [row] = await queryRows<{ amount: number | null }>(
        db,
        sql`SELECT price_amount AS amount FROM user_subscriptions WHERE provider_subscription_id = ${subscription}`,
      );
      steps.push({ step, price: row?.amount ?? null });
    };

    // a purchase with a code: the order is written before the row, the row learns its price
    await session(db, 'cs_1', 'monthly');
    const first = await ensureCheckoutOrder(db, {
      checkoutSessionId: 'cs_1',
      planType: 'monthly',
      amount: 2880,
      amountTax: null,
      promotionCode: 'SPRING',
      amountDiscount: 720,
      currency: 'usd',
      providerPaymentId: 'in_1',
      providerPaymentIntentId: 'pi_1',
      providerSubscriptionId: 'sub_1',
      userId: null,
    });
    await upsertRecurringRow(db, 'sub_1', state('monthly', at(1)), link(first, 'cs_1'));
    await check('purchase');
    // a renewal: the newest paid order of the subscription
    await db.insert(orders).values({
      planType: 'monthly',
      amount: 2880,
      promotionCode: 'SPRING',
      amountDiscount: 720,
      currency: 'usd',
      providerSubscriptionId: 'sub_1',
      providerPaymentId: 'in_2',
      createdAt: at(8),
    });
    await check('renewal');
    // a plan change: the row unlinks its order, the new plan's invoice sets the price
    await upsertRecurringRow(db, 'sub_1', state('quarterly', at(9)), link(null, null));
    await check('plan change');
    await db.insert(orders).values({ planType: 'quarterly', amount: 9700, currency: 'usd', providerSubscriptionId: 'sub_1', providerPaymentId: 'in_3', createdAt: at(9) });
    await check('plan change invoice');
    // a refund of the newest order: the price falls back to the one before
    const [newest] = await queryRows<{ id: string }>(db, sql`SELECT id FROM orders WHERE provider_payment_id = 'in_3'`);
    await setOrderStatus(db, newest!.id, 'refunded');
    await check('refund');
    await setOrderStatus(db, newest!.id, 'paid');
    await check('refund reversed');
    // a one-time purchase (lifetime) by its own order
    await session(db, 'cs_2', 'lifetime');
    const lifetime = await ensureCheckoutOrder(db, {
      checkoutSessionId: 'cs_2',
      planType: 'lifetime',
      amount: 29900,
      amountTax: null,
      promotionCode: null,
      amountDiscount: 0,
      currency: 'usd',
      providerPaymentId: 'pi_2',
      providerPaymentIntentId: 'pi_2',
      providerSubscriptionId: null,
      userId: null,
    });
    await upsertOneTimeRow(db, 'cs_2', { ...state('lifetime', at(10)), expiresAt: null }, link(lifetime, null));
    await check('one-time purchase');

    expect(steps.map(({ step, price }) => `${step}: ${price}`)).toEqual([
      'purchase: 2880',
      'renewal: 2880',
      'plan change: 2880',
      'plan change invoice: 9700',
      'refund: 2880',
      'refund reversed: 9700',
      'one-time purchase: 9700',
    ]);
  });
});
