import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ADMIN_API, auditLogSchema } from '@shared/admin-contract';
import { api } from '@client/lib/api/api-client';

export const getAuditLog = (page: number) => api(`${ADMIN_API}/audit-log?page=${page}`, { schema: auditLogSchema });

export function useAuditLog(page: number) {
  return useQuery({ queryKey: ['admin', 'audit-log', page], queryFn: () => getAuditLog(page), placeholderData: keepPreviousData });
}
