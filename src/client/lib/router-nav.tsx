import { useMemo, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { PageNavProvider, type PageNav } from './page-nav';

/** The pre-rendered pages' navigation inside the app: React Router's location and client-side navigation. */
export function RouterNavProvider({ children }: { children: ReactNode }) {
  const { pathname, search, hash } = useLocation();
  const navigate = useNavigate();
  const value = useMemo<PageNav>(
    () => ({ pathname, search, hash, navigate: (to, options) => void navigate(to, options) }),
    [pathname, search, hash, navigate],
  );
  return <PageNavProvider value={value}>{children}</PageNavProvider>;
}
