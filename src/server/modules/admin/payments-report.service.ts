// The console's payments page: orders by plan, status and day, and the provider events
// with their failures. A failed event is replayed through the same handler webhooks use.
import type { OrderFilter, OrderItem, PaymentEvents } from '@shared/admin-ops-contract';
import { orderRefundBlock } from '@shared/order-refunds';
import { formatMoney } from '@shared/plans';
import type { Db } from '../../db/client';
import type { HandleResult, PaymentEventHandler } from '../fulfilment/fulfilment';
import { findEventFailure, listEventFailures, storedEvent } from '../fulfilment/payment-event-failures.repository';
import type { Operator, OperatorActions } from './operator-actions';
import type { PaymentsPort } from '../payments/payments.port';
import { recordOperatorAction } from './audit.repository';
import { findOrderForRefund, findOrders } from './payments-report.repository';
import { recentProcessedEvents } from '../provider-records/processed-events.repository';
import { serverError } from '../../http/server-errors';

const ORDER_PAGE = 200;
const EVENT_PAGE = 100;
const DAY_MS = 24 * 60 * 60 * 1000;

export type PaymentsReportDeps = { db: Db; handler: PaymentEventHandler; actions: OperatorActions; payments: Pick<PaymentsPort, 'refundPayment'> };

export function createPaymentsReport(deps: PaymentsReportDeps) {
  const { db, handler, actions } = deps;

  /** Days are UTC calendar days; `to` includes its whole day. */
  async function orders(filter: OrderFilter): Promise<{ orders: OrderItem[]; limited: boolean }> {
    const from = filter.from ? new Date(`${filter.from}T00:00:00Z`) : undefined;
    const before = filter.to ? new Date(new Date(`${filter.to}T00:00:00Z`).getTime() + DAY_MS) : undefined;
    if (from && before && from >= before) throw serverError('reportRangeReversed');
    const rows = await findOrders(db, { plan: filter.plan, status: filter.status, from, before, limit: ORDER_PAGE + 1 });
    return {
      orders: rows.slice(0, ORDER_PAGE).map((row) => ({
        id: row.id,
        createdAt: row.createdAt.toISOString(),
        planType: row.planType,
        amount: row.amount,
        currency: row.currency,
        status: row.status,
        email: row.accountEmail ?? row.checkoutEmail,
        providerPaymentId: row.providerPaymentId,
        userId: row.userId,
      })),
      limited: rows.length > ORDER_PAGE,
    };
  }

  async function events(): Promise<PaymentEvents> {
    const processed = await recentProcessedEvents(db, EVENT_PAGE);
    const failures = await listEventFailures(db, EVENT_PAGE);
    return {
      processed: processed.map((row) => ({ id: row.id, source: row.source, type: row.type, processedAt: row.processedAt.toISOString() })),
      failures: failures.map((row) => ({
        id: row.id,
        kind: row.kind,
        eventId: row.eventId,
        type: row.type,
        error: row.error,
        attempts: row.attempts,
        firstFailedAt: row.firstFailedAt.toISOString(),
        lastFailedAt: row.lastFailedAt.toISOString(),
        resolvedAt: row.resolvedAt?.toISOString() ?? null,
      })),
    };
  }

  /** Runs a failed event through fulfilment again; a new failure is recorded and answered as 502. */
  async function replay(failureId: string, operator: Operator): Promise<HandleResult> {
    const failure = await findEventFailure(db, failureId);
    const event = failure ? storedEvent(failure) : null;
    if (!failure || !event) throw serverError('noReplayableEvent');
    await actions.record({ operator, action: 'payments.replay_event', target: event.id, details: { type: event.type } });
    try {
      return await handler.handle(event, failure.source === 'stripe' ? 'stripe' : 'sandbox');
    } catch (error) {
      throw serverError('replayFailedAgain', error);
    }
  }

  /**
   * Refunds an order in full at the provider (Stripe's refund, or the sandbox's), audited. The
   * provider's refund event then marks the order refunded and ends the access it paid for.
   */
  async function refund(orderId: string, operator: Operator): Promise<{ message: string }> {
    const order = await findOrderForRefund(db, orderId);
    if (!order) throw serverError('orderNotFound');
    const blocked = orderRefundBlock(order);
    if (blocked !== null || !order.providerPaymentId) throw serverError('orderNotRefundable', blocked ?? 'This order has no payment at the provider to refund.');
    await deps.payments.refundPayment({ paymentId: order.providerPaymentId, amount: null, reason: 'requested_by_customer', idempotencyKey: `console-refund:${order.id}` });
    await recordOperatorAction(db, { operator: operator.email, action: 'refund_order', targetUserId: order.userId, details: { order: order.id, amount: order.amount, currency: order.currency } });
    return { message: `Refunded ${formatMoney(order.amount, order.currency)}. The access this order paid for ends when the provider confirms the refund.` };
  }

  return { orders, events, replay, refund };
}

export type PaymentsReport = ReturnType<typeof createPaymentsReport>;
