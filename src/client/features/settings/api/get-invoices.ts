import { useQuery } from '@tanstack/react-query';
import { API_PATHS, invoicesResponseSchema } from '@shared/api-contract';
import { api } from '@client/lib/api/api-client';
import { useAuth } from '@client/lib/auth-state';

/** Query keys of GET /api/invoices: one per member. */
export const invoicesKeys = { list: (userId: string | undefined) => ['invoices', userId] as const };

export const getInvoices = () => api(API_PATHS.invoices, { schema: invoicesResponseSchema });

/** The member's invoices, every plan, newest first; idle without a user. */
export function useInvoices() {
  const userId = useAuth().user?.id;
  return useQuery({ queryKey: invoicesKeys.list(userId), queryFn: getInvoices, enabled: userId !== undefined });
}
