import { useQuery } from '@tanstack/react-query';
import { SANDBOX_PATHS, sandboxPortalSchema } from '@shared/sandbox-contract';
import { api } from '@client/lib/api/api-client';

export const sandboxPortalKey = (customerId: string) => ['sandbox-portal', customerId] as const;

export const getSandboxPortal = (customerId: string) => api(SANDBOX_PATHS.portal(customerId), { schema: sandboxPortalSchema });

export const useSandboxPortal = (customerId: string, enabled = true) =>
  useQuery({ queryKey: sandboxPortalKey(customerId), queryFn: () => getSandboxPortal(customerId), enabled });
