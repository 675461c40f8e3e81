import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RetentionOffers } from '@shared/retention';
import { cancellationsReportSchema, RETENTION_PATHS, retentionOffersSchema } from '@shared/retention-contract';
import { api } from '@client/lib/api/api-client';

const OFFERS = ['admin', 'retention', 'offers'] as const;

export function useRetentionOffers() {
  return useQuery({ queryKey: OFFERS, queryFn: () => api(RETENTION_PATHS.offers, { schema: retentionOffersSchema }), retry: false });
}

export function useSaveRetentionOffers() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (offers: RetentionOffers) => api(RETENTION_PATHS.offers, { method: 'PUT', body: offers, schema: retentionOffersSchema }),
    onSuccess: (saved) => client.setQueryData(OFFERS, saved),
  });
}

/** The cancellations of the last `days` days (one member's with `userId`). */
export function useCancellations(days: number, userId?: string) {
  const query = new URLSearchParams({ days: String(days), ...(userId ? { userId } : {}) });
  return useQuery({ queryKey: ['admin', 'cancellations', days, userId ?? null], queryFn: () => api(`${RETENTION_PATHS.cancellations}?${query}`, { schema: cancellationsReportSchema }), retry: false });
}
