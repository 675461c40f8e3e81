import { useQuery } from '@tanstack/react-query';
import { TRADINGVIEW_API_PATHS, tradingviewStatusResponseSchema } from '@shared/tradingview-grants';
import { api } from '@client/lib/api/api-client';

export const TRADINGVIEW_STATUS_QUERY_KEY = ['tradingview', 'status'] as const;

export const getTradingviewStatus = () => api(TRADINGVIEW_API_PATHS.status, { schema: tradingviewStatusResponseSchema });

/** The member's TradingView username and where granting its indicator access stands. */
export function useTradingviewStatus() {
  return useQuery({ queryKey: TRADINGVIEW_STATUS_QUERY_KEY, queryFn: getTradingviewStatus });
}
