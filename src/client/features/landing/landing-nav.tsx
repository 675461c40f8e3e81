import { createContext, useContext, useEffect, useMemo, useState, type MouseEvent, type ReactNode } from 'react';

// The landing page reads the address and navigates through this port instead of React Router, so
// its own entry (landing-main.tsx) hydrates without the router (~30 kB gzipped). Inside the app,
// router-nav.tsx plugs React Router in; see docs/decisions/015.

export type LandingLocation = { pathname: string; search: string; hash: string };

export type LandingNav = LandingLocation & {
  navigate: (to: string, options?: { replace?: boolean }) => void;
};

const LandingNavContext = createContext<LandingNav | null>(null);

export function LandingNavProvider({ value, children }: { value: LandingNav; children: ReactNode }) {
  return <LandingNavContext.Provider value={value}>{children}</LandingNavContext.Provider>;
}

export function useLandingNav(): LandingNav {
  const nav = useContext(LandingNavContext);
  if (!nav) throw new Error('the landing page needs <LandingNavProvider> (router-nav.tsx or WindowNavProvider)');
  return nav;
}

const readLocation = (): LandingLocation => ({ pathname: window.location.pathname, search: window.location.search, hash: window.location.hash });

/**
 * The landing entry's navigation: another place on this page (a #section) is a history entry;
 * any other page is a full page load, served by the app's own entry.
 */
export function WindowNavProvider({ at, children }: { at?: LandingLocation; children: ReactNode }) {
  // `at` is the server's address when it pre-renders. The pre-rendered HTML was made without the
  // #fragment the server never sees: hydrate as that, then read it.
  const [location, setLocation] = useState<LandingLocation>(() => at ?? { ...readLocation(), hash: '' });
  useEffect(() => {
    const sync = () => setLocation(readLocation());
    sync();
    window.addEventListener('popstate', sync);
    return () => window.removeEventListener('popstate', sync);
  }, []);
  const value = useMemo<LandingNav>(
    () => ({
      ...location,
      navigate: (to, options) => {
        const target = new URL(to, window.location.href);
        if (target.pathname !== window.location.pathname || target.search !== window.location.search) {
          if (options?.replace) window.location.replace(target.href);
          else window.location.assign(target.href);
          return;
        }
        if (options?.replace) window.history.replaceState(null, '', target.href);
        else window.history.pushState(null, '', target.href);
        setLocation(readLocation());
      },
    }),
    [location],
  );
  return <LandingNavProvider value={value}>{children}</LandingNavProvider>;
}

const isPlainClick = (event: MouseEvent) => event.button === 0 && !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey;

/** A link of the landing page: a real href, followed through the navigation port on a plain click. */
export function LandingLink({ to, onClick, ...props }: { to: string; className?: string; onClick?: () => void; children: ReactNode }) {
  const nav = useLandingNav();
  return (
    <a
      href={to}
      {...props}
      onClick={(event) => {
        onClick?.();
        if (!isPlainClick(event)) return;
        event.preventDefault();
        nav.navigate(to);
      }}
    />
  );
}

/** Replaces the address once rendered (the landing page's redirect of members to the dashboard). */
export function LandingRedirect({ to }: { to: string }) {
  const { navigate } = useLandingNav();
  useEffect(() => navigate(to, { replace: true }), [navigate, to]);
  return null;
}
