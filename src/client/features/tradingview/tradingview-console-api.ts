import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fixResultSchema, grantQueueSchema, reconciliationSchema, retryFailedResultSchema, tradingViewHealthSchema } from '@shared/admin-ops-contract';
import { api } from '@client/lib/api/api-client';

const ROOT = ['admin', 'tradingview'] as const;

export function useTradingViewHealth() {
  return useQuery({ queryKey: [...ROOT, 'health'], queryFn: () => api('/api/admin/tradingview/health', { schema: tradingViewHealthSchema }), retry: false });
}

/** Polled: the reconciler works in the background and the page follows it. */
export function useGrantQueue() {
  return useQuery({ queryKey: [...ROOT, 'queue'], queryFn: () => api('/api/admin/tradingview/queue', { schema: grantQueueSchema }), refetchInterval: 3_000, retry: false });
}

export function useReconciliation() {
  return useQuery({ queryKey: [...ROOT, 'reconciliation'], queryFn: () => api('/api/admin/tradingview/reconciliation', { schema: reconciliationSchema }), retry: false });
}

/** An operator action on this page; everything on it is read again afterwards. */
function useTradingViewAction<Input>(call: (input: Input) => Promise<string>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: call, onSettled: () => client.invalidateQueries({ queryKey: ROOT }) });
}

export function useRetryAllFailed() {
  return useTradingViewAction(async (_: void) => {
    const { retried } = await api('/api/admin/tradingview/retry-failed', { method: 'POST', body: {}, schema: retryFailedResultSchema });
    return retried === 1 ? '1 failed grant queued again.' : `${retried} failed grants queued again.`;
  });
}

export function useRevokeUnpaid() {
  return useTradingViewAction(async (username: string) => (await api('/api/admin/tradingview/reconciliation/revoke', { body: { username }, schema: fixResultSchema })).done);
}

export function useGrantMissing() {
  return useTradingViewAction(async (userId: string) => (await api('/api/admin/tradingview/reconciliation/grant', { body: { userId }, schema: fixResultSchema })).done);
}
