import type { PlanType } from './plans';

/** The public subset of configuration the browser may see (the server whitelists it). */
export type SiteSettings = {
  brandName: string;
  brandSlug: string;
  supportEmail: string;
  companyName: string;
  companyState: string;
  discordInviteUrl: string;
  docsUrl: string;
  chatUrl: string | null;
  saleEndsAt: string;
  metaPixelId: string | null;
  prices: Record<PlanType, number>;
  /** Adapters running against sandboxes ('payments', 'tradingview', 'mail'); empty in a live shop. */
  sandbox: string[];
};
