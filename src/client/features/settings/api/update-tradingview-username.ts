import { useMutation } from '@tanstack/react-query';
import { tradingviewActivateResponseSchema } from '@shared/api-contract';
import type { TradingviewActivateRequest } from '@shared/api-contract';
import { TRADINGVIEW_API_PATHS } from '@shared/tradingview-grants';
import { api } from '@client/lib/api/api-client';
import { API_TIMEOUT_MS } from '@client/lib/api/timeouts';

export const updateTradingviewUsername = (body: TradingviewActivateRequest) =>
  api(TRADINGVIEW_API_PATHS.username, {
    method: 'PUT',
    body,
    schema: tradingviewActivateResponseSchema,
    timeoutMs: API_TIMEOUT_MS.thirdParty,
  });

/**
 * Corrects the member's TradingView username: the server revokes the old username's access and
 * grants the new one. Answers with TradingView's own spelling of the name.
 */
export function useUpdateTradingviewUsername() {
  return useMutation({ mutationFn: updateTradingviewUsername });
}
