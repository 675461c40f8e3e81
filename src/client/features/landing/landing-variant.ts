import { usePageNav } from '@client/lib/page-nav';
import { useSiteSettings } from '@client/lib/site-settings';
import { findList, pageOfList, type Catalogue } from '@shared/catalogue';
import { isEuLocation } from '@shared/landing-page';
import type { OriginPage } from '@shared/plans';
import { ownListOfPath } from '@shared/price-lists';

export type LandingVariant = {
  /** Which pricing the page sells and which page a checkout says it came from. */
  originPage: OriginPage;
  isEu: boolean;
  /** A price list the vendor added (/{slug}): its own header, no sale of the default page. */
  ownList: boolean;
  /** The list's header for the bar above the navigation; null: the page's own (EU note, countdown). */
  header: string | null;
  /** Home of this variant: '/eu', '/{slug}' or '/'. */
  home: string;
  /** Appends from=eu to internal links of the EU variant, so legal pages lead back to /eu. */
  withFrom: (path: string) => string;
};


export function landingVariant(isEu: boolean, catalogue?: Catalogue, pathname = '/'): LandingVariant {
  const own = catalogue ? ownListOfPath(catalogue, pathname) : null;
  if (own) return { originPage: pageOfList(own.slug), isEu: false, ownList: true, header: own.header, home: pageOfList(own.slug), withFrom: (path) => path };
  return {
    originPage: isEu ? '/eu' : '/',
    isEu,
    ownList: false,
    header: isEu && catalogue ? (findList(catalogue, 'eu')?.header ?? null) : null,
    home: isEu ? '/eu' : '/',
    withFrom: (path) => (isEu ? `${path}${path.includes('?') ? '&' : '?'}from=eu` : path),
  };
}

export function useLandingVariant(): LandingVariant {
  const { pathname, search } = usePageNav();
  const { catalogue } = useSiteSettings();
  return landingVariant(isEuLocation(pathname, search), catalogue, pathname);
}
