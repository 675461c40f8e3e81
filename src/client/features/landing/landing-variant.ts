import { usePageNav } from '@client/lib/page-nav';
import { isEuLocation } from '@shared/landing-page';
import type { OriginPage } from '@shared/plans';

export type LandingVariant = {
  /** Which pricing the page sells and which page a checkout says it came from. */
  originPage: OriginPage;
  isEu: boolean;
  /** Home of this variant: '/eu' or '/'. */
  home: string;
  /** Appends from=eu to internal links of the EU variant, so legal pages lead back to /eu. */
  withFrom: (path: string) => string;
};


export function landingVariant(isEu: boolean): LandingVariant {
  return {
    originPage: isEu ? '/eu' : '/',
    isEu,
    home: isEu ? '/eu' : '/',
    withFrom: (path) => (isEu ? `${path}${path.includes('?') ? '&' : '?'}from=eu` : path),
  };
}

export function useLandingVariant(): LandingVariant {
  const { pathname, search } = usePageNav();
  return landingVariant(isEuLocation(pathname, search));
}
