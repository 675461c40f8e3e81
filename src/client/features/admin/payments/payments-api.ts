import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ordersSchema, paymentEventsSchema, refundResultSchema, replayResultSchema, type OrderFilter } from '@shared/admin-ops-contract';
import { api } from '@client/lib/api/api-client';

const ROOT = ['admin', 'payments'] as const;

/** The filter as a query string: the same one the page's own URL carries. */
export function orderQuery(filter: OrderFilter): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value) params.set(key, value);
  const query = params.toString();
  return query ? `?${query}` : '';
}

export function useOrders(filter: OrderFilter) {
  return useQuery({ queryKey: [...ROOT, 'orders', filter], queryFn: () => api(`/api/admin/payments/orders${orderQuery(filter)}`, { schema: ordersSchema }), retry: false });
}

export function usePaymentEvents() {
  return useQuery({ queryKey: [...ROOT, 'events'], queryFn: () => api('/api/admin/payments/events', { schema: paymentEventsSchema }), retry: false });
}

export function useReplayEvent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (failureId: string) => (await api(`/api/admin/payments/events/${failureId}/replay`, { method: 'POST', body: {}, schema: replayResultSchema })).result,
    onSettled: () => client.invalidateQueries({ queryKey: ROOT }),
  });
}

/** Refunds an order in full at the provider (audited); the console reads again what it shows (lists, the member's page). */
export function useRefundOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (orderId: string) => (await api(`/api/admin/payments/orders/${orderId}/refund`, { method: 'POST', body: {}, schema: refundResultSchema })).message,
    onSettled: () => client.invalidateQueries({ queryKey: ['admin'] }),
  });
}
