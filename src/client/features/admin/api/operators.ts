import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ADMIN_API, actionResultSchema, operatorListSchema } from '@shared/admin-contract';
import { api } from '@client/lib/api/api-client';

export function useOperators() {
  return useQuery({ queryKey: ['admin', 'operators'], queryFn: () => api(`${ADMIN_API}/operators`, { schema: operatorListSchema }) });
}

/** Names the address an operator and mails them a one-time link; the list and the audit log reload. */
export function useInviteOperator() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => api(`${ADMIN_API}/operators/invite`, { method: 'POST', body: { email }, schema: actionResultSchema }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
