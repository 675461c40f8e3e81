import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SANDBOX_PATHS, sandboxCheckoutSchema } from '@shared/sandbox-contract';
import { api } from '@client/lib/api/api-client';
import { sandboxCheckoutKey } from './get-sandbox-checkout';

/** Applies a promotion code the buyer typed; the answer is the checkout with its discount. */
export function useApplySandboxPromotionCode(sessionId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => api(SANDBOX_PATHS.promotionCode(sessionId), { body: { code }, schema: sandboxCheckoutSchema }),
    onSuccess: (checkout) => client.setQueryData(sandboxCheckoutKey(sessionId), checkout),
  });
}
