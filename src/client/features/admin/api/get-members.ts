import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ADMIN_API, memberListSchema, type MemberListQuery } from '@shared/admin-contract';
import { api } from '@client/lib/api/api-client';

export type MembersFilter = Partial<Omit<MemberListQuery, 'page'>> & { page: number };

export function getMembers(filter: MembersFilter) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value !== undefined && value !== '') params.set(key, String(value));
  return api(`${ADMIN_API}/members?${params.toString()}`, { schema: memberListSchema });
}

export function useMembers(filter: MembersFilter) {
  return useQuery({ queryKey: ['admin', 'members', filter], queryFn: () => getMembers(filter), placeholderData: keepPreviousData });
}
