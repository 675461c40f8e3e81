import type { Campaign } from './campaign';
import type { TrialSettings } from './trials';

/** The public subset of configuration the browser may see (the server whitelists it). */
export type SiteSettings = Campaign & {
  brandName: string;
  brandSlug: string;
  /** The one brand mark: an image URL or a path on this site (header, dashboard, payment pages, favicon). */
  brandLogoUrl: string;
  supportEmail: string;
  companyName: string;
  companyState: string;
  discordInviteUrl: string;
  docsUrl: string;
  chatUrl: string | null;
  metaPixelId: string | null;
  /** Adapters running against sandboxes ('payments', 'tradingview', 'discord', 'mail'); empty in a live shop. */
  sandbox: string[];
  /** Free trials (TRIAL_DAYS, TRIAL_PLANS); absent or days 0: none. */
  trial?: TrialSettings;
};
