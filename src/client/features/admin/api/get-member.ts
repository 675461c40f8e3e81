import { useQuery } from '@tanstack/react-query';
import { ADMIN_API, memberDetailSchema } from '@shared/admin-contract';
import { api } from '@client/lib/api/api-client';

export const memberQueryKey = (id: string) => ['admin', 'member', id] as const;

export const getMember = (id: string) => api(`${ADMIN_API}/members/${encodeURIComponent(id)}`, { schema: memberDetailSchema });

export function useMember(id: string) {
  return useQuery({ queryKey: memberQueryKey(id), queryFn: () => getMember(id) });
}
