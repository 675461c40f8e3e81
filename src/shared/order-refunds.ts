// Whether the console may refund an order, and why not: the button is disabled with this reason,
// and the server refuses with the same words.

export type RefundableOrder = { status: string; amount: number; providerPaymentId: string | null };

/** Why this order cannot be refunded; null when it can (a paid order that charged something, with its payment known). */
export function orderRefundBlock(order: RefundableOrder): string | null {
  if (order.status === 'refunded') return 'This order was refunded already.';
  if (order.status === 'disputed') return 'This order is disputed: the bank decides, there is nothing to refund.';
  if (order.status !== 'paid') return `This order is ${order.status.replaceAll('_', ' ')}: only a paid order can be refunded.`;
  if (order.amount <= 0) return 'This order charged nothing: there is nothing to refund.';
  if (!order.providerPaymentId) return 'This order has no payment at the provider to refund.';
  return null;
}

/** What the confirmation says before a refund: the whole amount goes back, and what it paid for ends. */
export const REFUND_CONFIRMATION = 'The whole amount goes back to the card it was paid with, and the access this order paid for ends.';
