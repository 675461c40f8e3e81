export { AffiliatesPage, AffiliateRevenueCard } from './affiliates-page';
