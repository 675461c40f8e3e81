import { useMemo, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { LandingNavProvider, type LandingNav } from './landing-nav';

/** The landing page's navigation inside the app: React Router's location and client-side navigation. */
export function RouterNavProvider({ children }: { children: ReactNode }) {
  const { pathname, search, hash } = useLocation();
  const navigate = useNavigate();
  const value = useMemo<LandingNav>(
    () => ({ pathname, search, hash, navigate: (to, options) => void navigate(to, options) }),
    [pathname, search, hash, navigate],
  );
  return <LandingNavProvider value={value}>{children}</LandingNavProvider>;
}
