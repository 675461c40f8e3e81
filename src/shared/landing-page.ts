// What the server needs to know to send the pre-rendered landing page (docs/decisions/015).
import { pageOfList, type Catalogue } from './catalogue';
import type { LegalPath } from './legal-pages';
import { ownListOfPath } from './price-lists';
import type { SiteSettings } from './site';

/** The two landing pages: the sale's (/) and the EU offer (/eu, or any page with ?from=eu). */
export type LandingKind = 'default' | 'eu';

/** True on /eu and on any page reached with ?from=eu (the legal pages keep the EU variant). */
export function isEuLocation(pathname: string, search: string): boolean {
  return pathname === '/eu' || new URLSearchParams(search).get('from') === 'eu';
}

/** The landing page a path shows, or null for any other page. */
export function landingKind(pathname: string, search: string): LandingKind | null {
  if (pathname !== '/' && pathname !== '/eu') return null;
  return isEuLocation(pathname, search) ? 'eu' : 'default';
}

/**
 * The address a pre-rendered landing page is rendered at for a request, or null for any other page:
 * '/' (the sale's), '/eu' (the EU offer, also /?from=eu) or a vendor's price list '/{slug}' that
 * `catalogue` has (decision record 054).
 */
export function landingPagePath(pathname: string, search: string, catalogue: Catalogue | undefined): string | null {
  const kind = landingKind(pathname, search);
  if (kind !== null) return kind === 'eu' ? '/eu' : '/';
  const list = catalogue ? ownListOfPath(catalogue, pathname) : null;
  return list ? pageOfList(list.slug) : null;
}

/** The document title of the landing page. */
export const landingTitle = (brandName: string) => `${brandName} – Next-Gen TradingView Indicators`;

/**
 * The server-side renderer the client build ships (src/client/prerender.tsx): the landing page's
 * first view at `page` (landingPagePath's) and the legal pages (docs/decisions/020) as HTML.
 */
export type PageRenderer = {
  renderLanding: (settings: SiteSettings, page: string) => string;
  renderLegal: (settings: SiteSettings, path: LegalPath, eu: boolean) => string;
};
