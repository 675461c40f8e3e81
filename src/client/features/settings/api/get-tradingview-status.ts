import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@client/lib/api-client';

export const TRADINGVIEW_STATUS_PATH = '/api/tradingview/status';
export const TRADINGVIEW_STATUS_QUERY_KEY = ['tradingview', 'status'] as const;

// Only the fields this page reads; the TradingView module may add more.
const tradingviewStatusSchema = z.looseObject({
  username: z.string().nullable(),
  grantStatus: z.string().nullable().optional(),
});
export type TradingviewStatus = z.infer<typeof tradingviewStatusSchema>;

export const getTradingviewStatus = () => api(TRADINGVIEW_STATUS_PATH, { schema: tradingviewStatusSchema });

/** The member's TradingView username and where granting its access stands. */
export function useTradingviewStatus() {
  return useQuery({ queryKey: TRADINGVIEW_STATUS_QUERY_KEY, queryFn: getTradingviewStatus });
}
