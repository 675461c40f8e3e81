import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AFFILIATE_PATHS, affiliateSummarySchema, programResponseSchema, type AffiliateSummary } from '@shared/affiliates-contract';
import { api } from '@client/lib/api/api-client';

const PROGRAM = ['affiliate', 'program'] as const;
const SUMMARY = ['affiliate', 'summary'] as const;

export const useProgram = () => useQuery({ queryKey: PROGRAM, queryFn: () => api(AFFILIATE_PATHS.program, { schema: programResponseSchema }), retry: false });

export const useAffiliateSummary = (enabled: boolean) => useQuery({ queryKey: SUMMARY, queryFn: () => api(AFFILIATE_PATHS.summary, { schema: affiliateSummarySchema }), enabled, retry: false });

function useSummaryChange<T>(call: (input: T) => Promise<AffiliateSummary>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (summary) => {
      client.setQueryData(SUMMARY, summary);
      void client.invalidateQueries({ queryKey: PROGRAM });
    },
  });
}

export const useJoin = () => useSummaryChange(() => api(AFFILIATE_PATHS.join, { body: {}, schema: affiliateSummarySchema }));
export const useSetPayoutAddress = () => useSummaryChange((email: string) => api(AFFILIATE_PATHS.payoutAddress, { method: 'PUT', body: { email }, schema: affiliateSummarySchema }));
export const useRequestPromotionCode = () => useSummaryChange(() => api(AFFILIATE_PATHS.promotionCode, { body: {}, schema: affiliateSummarySchema }));
