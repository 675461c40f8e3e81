import { useQuery } from '@tanstack/react-query';
import { ADMIN_API, accessChangesBacklogSchema } from '@shared/admin-contract';
import { api } from '@client/lib/api/api-client';

export const getAccessChangesBacklog = () => api(`${ADMIN_API}/access-changes`, { schema: accessChangesBacklogSchema });

/** Polled: deliveries are made and retried in the background, and the card follows them. */
export function useAccessChangesBacklog() {
  return useQuery({ queryKey: ['admin', 'access-changes'], queryFn: getAccessChangesBacklog, refetchInterval: 30_000 });
}
