import { useLocation } from 'react-router';
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

/** True on /eu and on any page reached with ?from=eu (spec §2). */
export function isEuLocation(pathname: string, search: string): boolean {
  return pathname === '/eu' || new URLSearchParams(search).get('from') === 'eu';
}

export function landingVariant(isEu: boolean): LandingVariant {
  return {
    originPage: isEu ? '/eu' : '/',
    isEu,
    home: isEu ? '/eu' : '/',
    withFrom: (path) => (isEu ? `${path}${path.includes('?') ? '&' : '?'}from=eu` : path),
  };
}

export function useLandingVariant(): LandingVariant {
  const { pathname, search } = useLocation();
  return landingVariant(isEuLocation(pathname, search));
}
