import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { OrderItem } from '@shared/admin-ops-contract';
import { renderRoutes, resetAfterTest, stubApi } from '@client/test/render';
import { RefundOrderButton } from './refund-order';

afterEach(resetAfterTest);

const ORDER: OrderItem = {
  id: '33333333-3333-4333-8333-333333333333',
  createdAt: '2026-01-01T00:00:00.000Z',
  planType: 'monthly',
  amount: 3600,
  currency: 'usd',
  status: 'paid',
  email: 'alice@example.com',
  providerPaymentId: 'in_123',
  userId: '22222222-2222-4222-8222-222222222222',
};

describe('an order row’s Refund (#46)', () => {
  it('asks to confirm, saying what a refund does, then refunds the order', async () => {
    const api = stubApi({ [`POST /api/admin/payments/orders/${ORDER.id}/refund`]: { body: { message: 'Refunded $36.00.' } } });
    renderRoutes([{ path: '/', element: <RefundOrderButton order={ORDER} /> }]);
    await userEvent.click(screen.getByRole('button', { name: 'Refund' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund $36.00?' });
    expect(dialog).toHaveTextContent('alice@example.com: The whole amount goes back to the card it was paid with, and the access this order paid for ends.');
    expect(api.callsTo('POST', `/api/admin/payments/orders/${ORDER.id}/refund`)).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Refund $36.00' }));
    await expect.poll(() => api.callsTo('POST', `/api/admin/payments/orders/${ORDER.id}/refund`).length).toBe(1);
  });

  it.each([
    [{ status: 'refunded' }, 'This order was refunded already.'],
    [{ amount: 0 }, 'This order charged nothing: there is nothing to refund.'],
    [{ status: 'disputed' }, 'This order is disputed: the bank decides, there is nothing to refund.'],
  ] as const)('is disabled with the reason when it does not apply (%o)', (overrides, reason) => {
    renderRoutes([{ path: '/', element: <RefundOrderButton order={{ ...ORDER, ...overrides }} /> }]);
    expect(screen.getByRole('button', { name: 'Refund' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Refund' })).toHaveAccessibleDescription(reason);
  });
});
