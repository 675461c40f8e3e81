import { useQuery } from '@tanstack/react-query';
import { ADMIN_API, overviewSchema } from '@shared/admin-contract';
import { api } from '@client/lib/api/api-client';

export const getOverview = () => api(`${ADMIN_API}/overview`, { schema: overviewSchema });

export function useOverview() {
  return useQuery({ queryKey: ['admin', 'overview'], queryFn: getOverview });
}
