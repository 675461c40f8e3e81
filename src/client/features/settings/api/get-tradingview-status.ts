// The status is read by the dashboard too: it lives in lib (features do not import each other).
export { getTradingviewStatus, TRADINGVIEW_STATUS_QUERY_KEY, useTradingviewStatus } from '@client/lib/api/tradingview-status';
