import { useQuery } from '@tanstack/react-query';
import { SANDBOX_PATHS, sandboxCheckoutSchema } from '@shared/sandbox-contract';
import { api } from '@client/lib/api/api-client';

export const sandboxCheckoutKey = (sessionId: string) => ['sandbox-checkout', sessionId] as const;

export const getSandboxCheckout = (sessionId: string) => api(SANDBOX_PATHS.checkout(sessionId), { schema: sandboxCheckoutSchema });

export const useSandboxCheckout = (sessionId: string, enabled = true) =>
  useQuery({ queryKey: sandboxCheckoutKey(sessionId), queryFn: () => getSandboxCheckout(sessionId), staleTime: Infinity, enabled });
