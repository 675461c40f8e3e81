import { useQuery } from '@tanstack/react-query';
import { TRADINGVIEW_API_PATHS, tradingviewStatusResponseSchema } from '@shared/tradingview-grants';
import { api } from '@client/lib/api/api-client';

export const TRADINGVIEW_STATUS_QUERY_KEY = ['tradingview', 'status'] as const;

/** While access is being granted the member waits on the page: it is read again this often. */
const PENDING_REFRESH_MS = 10_000;

export const getTradingviewStatus = () => api(TRADINGVIEW_API_PATHS.status, { schema: tradingviewStatusResponseSchema });

/** The member's TradingView username and where granting its indicator access stands. */
export function useTradingviewStatus() {
  return useQuery({
    queryKey: TRADINGVIEW_STATUS_QUERY_KEY,
    queryFn: getTradingviewStatus,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? PENDING_REFRESH_MS : false),
  });
}
