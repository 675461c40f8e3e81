import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PROMOTION_PATHS, promotionItemSchema, promotionListSchema, type CreatePromotionRequest } from '@shared/promotions-contract';
import { api } from '@client/lib/api/api-client';

const ROOT = ['admin', 'promotion-codes'] as const;

export function usePromotions() {
  return useQuery({ queryKey: ROOT, queryFn: () => api(PROMOTION_PATHS.admin, { schema: promotionListSchema }), retry: false });
}

/** Create, deactivate and retry share one shape: the code's new state, then the list is read again. */
function usePromotionChange<T, R>(call: (input: T) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: call, onSettled: () => client.invalidateQueries({ queryKey: ROOT }) });
}

export const useCreatePromotion = () => usePromotionChange((body: CreatePromotionRequest) => api(PROMOTION_PATHS.admin, { body, schema: promotionItemSchema }));
export const useDeactivatePromotion = () => usePromotionChange((code: string) => api(PROMOTION_PATHS.deactivate(code), { body: {}, schema: promotionItemSchema }));
export const useSyncPromotion = () => usePromotionChange((code: string) => api(PROMOTION_PATHS.sync(code), { body: {}, schema: promotionItemSchema }));
