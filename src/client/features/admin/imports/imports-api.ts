import { useQuery } from '@tanstack/react-query';
import { ADMIN_API } from '@shared/admin-contract';
import { importsOverviewSchema } from '@shared/imports-contract';
import { api } from '@client/lib/api/api-client';

export const getImports = () => api(`${ADMIN_API}/imports`, { schema: importsOverviewSchema });

export function useImports() {
  return useQuery({ queryKey: ['admin', 'imports'], queryFn: getImports });
}
