import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AFFILIATE_PATHS, affiliateAdminItemSchema, affiliateListSchema, approveResponseSchema, markPaidResponseSchema, termsSchema } from '@shared/affiliates-contract';
import { api } from '@client/lib/api/api-client';

const ROOT = ['admin', 'affiliates'] as const;

/** One page (from 1) of the affiliates matching `search`, with the program's counts. */
export const useAffiliates = (search: string, page = 1) =>
  useQuery({
    queryKey: [...ROOT, 'list', search, page],
    queryFn: () => api(`${AFFILIATE_PATHS.admin}?${new URLSearchParams({ ...(search ? { q: search } : {}), page: String(page) }).toString()}`, { schema: affiliateListSchema }),
    // the page shown stays while the next one loads
    placeholderData: keepPreviousData,
    retry: false,
  });

export const useTerms = () => useQuery({ queryKey: [...ROOT, 'terms'], queryFn: () => api(AFFILIATE_PATHS.terms, { schema: termsSchema }), retry: false });

function useChange<T, R>(call: (input: T) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: call, onSettled: () => client.invalidateQueries({ queryKey: ROOT }) });
}

export const useAddAffiliate = () => useChange((email: string) => api(AFFILIATE_PATHS.admin, { body: { email }, schema: affiliateAdminItemSchema }));
export const useSuspend = () => useChange((input: { id: string; reason: string }) => api(AFFILIATE_PATHS.suspend(input.id), { body: { reason: input.reason }, schema: affiliateAdminItemSchema }));
export const useReinstate = () => useChange((id: string) => api(AFFILIATE_PATHS.reinstate(id), { body: {}, schema: affiliateAdminItemSchema }));
export const useSaveTerms = () => useChange((body: Record<string, unknown>) => api(AFFILIATE_PATHS.terms, { method: 'PUT', body, schema: termsSchema }));
export const useApprove = () => useChange(() => api(AFFILIATE_PATHS.approve, { body: {}, schema: approveResponseSchema }));
export const useMarkPaid = () => useChange((affiliateIds: string[] | null) => api(AFFILIATE_PATHS.markPaid, { body: affiliateIds ? { affiliateIds } : {}, schema: markPaidResponseSchema }));
