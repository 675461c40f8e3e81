import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import type { TradingviewActivateRequest } from '@shared/api-contract';
import { api } from '@client/lib/api-client';

export const TRADINGVIEW_USERNAME_PATH = '/api/tradingview/username';

const updateTradingviewUsernameResponseSchema = z.looseObject({
  verifiedUsername: z.string().optional(),
  username: z.string().optional(),
});

// The server checks the name with TradingView, revokes the old grant and grants the new one.
const UPDATE_TIMEOUT_MS = 30_000;

export const updateTradingviewUsername = (body: TradingviewActivateRequest) =>
  api(TRADINGVIEW_USERNAME_PATH, {
    method: 'PUT',
    body,
    schema: updateTradingviewUsernameResponseSchema,
    timeoutMs: UPDATE_TIMEOUT_MS,
  });

/** Corrects the member's TradingView username; answers with TradingView's spelling of it. */
export function useUpdateTradingviewUsername() {
  return useMutation({ mutationFn: updateTradingviewUsername });
}
