export { FunnelPage } from './funnel-page';
