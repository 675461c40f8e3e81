import { useState } from 'react';
import type { OrderItem } from '@shared/admin-ops-contract';
import { orderRefundBlock, REFUND_CONFIRMATION } from '@shared/order-refunds';
import { formatMoney } from '@shared/plans';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent } from '@client/components/ui/dialog';
import { notifyError, notifySuccess } from '@client/lib/notify';
import { useRefundOrder } from './payments-api';

/** An order row's Refund: disabled with the reason when it does not apply, confirmed before it is made. */
export function RefundOrderButton({ order }: { order: Pick<OrderItem, 'id' | 'amount' | 'currency' | 'status' | 'providerPaymentId' | 'email'> }) {
  const refund = useRefundOrder();
  const [confirming, setConfirming] = useState(false);
  const blocked = orderRefundBlock(order);
  const amount = formatMoney(order.amount, order.currency);

  const confirm = async () => {
    try {
      const message = await refund.mutateAsync(order.id);
      notifySuccess({ title: 'Order refunded', description: message });
    } catch (error) {
      notifyError({ title: 'Refund failed', description: error instanceof Error ? error.message : 'The refund could not be made.' });
    }
    setConfirming(false);
  };

  return (
    <>
      <span className="inline-flex flex-col items-end gap-0.5">
        <Button size="sm" variant="outline" disabled={blocked !== null} title={blocked ?? undefined} aria-describedby={blocked ? `refund-block-${order.id}` : undefined} onClick={() => setConfirming(true)}>
          Refund
        </Button>
        {blocked ? (
          <span id={`refund-block-${order.id}`} className="max-w-56 text-right text-xs text-muted">
            {blocked}
          </span>
        ) : null}
      </span>
      <Dialog open={confirming} onOpenChange={(open) => !refund.isPending && setConfirming(open)}>
        <DialogContent title={`Refund ${amount}?`} description={`${order.email ?? 'The buyer'}: ${REFUND_CONFIRMATION}`}>
          <div className="flex justify-end gap-2">
            <Button variant="ghost" disabled={refund.isPending} onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button variant="danger" disabled={refund.isPending} onClick={() => void confirm()}>
              {refund.isPending ? 'Refunding...' : `Refund ${amount}`}
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </>
  );
}
