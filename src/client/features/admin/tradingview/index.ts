export { TradingViewPage } from './tradingview-page';
