import { useMutation } from '@tanstack/react-query';
import { tradingviewActivateResponseSchema } from '@shared/api-contract';
import type { TradingviewActivateRequest } from '@shared/api-contract';
import { TRADINGVIEW_API_PATHS } from '@shared/tradingview-grants';
import { api } from '@client/lib/api/api-client';

// The server checks the name with TradingView before it moves the grant; allow it the time.
const UPDATE_TIMEOUT_MS = 30_000;

export const updateTradingviewUsername = (body: TradingviewActivateRequest) =>
  api(TRADINGVIEW_API_PATHS.username, {
    method: 'PUT',
    body,
    schema: tradingviewActivateResponseSchema,
    timeoutMs: UPDATE_TIMEOUT_MS,
  });

/**
 * Corrects the member's TradingView username: the server revokes the old username's access and
 * grants the new one. Answers with TradingView's own spelling of the name.
 */
export function useUpdateTradingviewUsername() {
  return useMutation({ mutationFn: updateTradingviewUsername });
}
