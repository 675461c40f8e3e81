import { createContext, useContext, useEffect, useMemo, useState, type MouseEvent, type ReactNode } from 'react';

// The pre-rendered pages (the landing page, the legal pages) read the address and navigate through
// this port instead of React Router, so their own entries (landing-main.tsx, legal-main.tsx)
// hydrate without the router (~30 kB gzipped). Inside the app, router-nav.tsx plugs React Router
// in; see docs/decisions/015 and 020.

export type PageLocation = { pathname: string; search: string; hash: string };

export type PageNav = PageLocation & {
  navigate: (to: string, options?: { replace?: boolean }) => void;
};

const PageNavContext = createContext<PageNav | null>(null);

export function PageNavProvider({ value, children }: { value: PageNav; children: ReactNode }) {
  return <PageNavContext.Provider value={value}>{children}</PageNavContext.Provider>;
}

export function usePageNav(): PageNav {
  const nav = useContext(PageNavContext);
  if (!nav) throw new Error('a pre-rendered page needs <PageNavProvider> (router-nav.tsx or WindowNavProvider)');
  return nav;
}

const keepIfSame = (current: PageLocation, next: PageLocation): PageLocation =>
  current.pathname === next.pathname && current.search === next.search && current.hash === next.hash ? current : next;

const readLocation = (): PageLocation => ({ pathname: window.location.pathname, search: window.location.search, hash: window.location.hash });

/**
 * The pre-rendered entries' navigation: another place on this page (a #section) is a history entry;
 * any other page is a full page load, served by the app's own entry.
 */
export function WindowNavProvider({ at, children }: { at?: PageLocation; children: ReactNode }) {
  // `at` is the server's address when it pre-renders. The pre-rendered HTML was made without the
  // #fragment the server never sees: hydrate as that, then read it.
  const [location, setLocation] = useState<PageLocation>(() => at ?? { ...readLocation(), hash: '' });
  useEffect(() => {
    // Only a real change: a new value would re-render every part of the page still hydrating, and
    // React then throws their server HTML away and builds them again.
    const sync = () => setLocation((current) => keepIfSame(current, readLocation()));
    sync();
    window.addEventListener('popstate', sync);
    return () => window.removeEventListener('popstate', sync);
  }, []);
  const value = useMemo<PageNav>(
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
  return <PageNavProvider value={value}>{children}</PageNavProvider>;
}

const isPlainClick = (event: MouseEvent) => event.button === 0 && !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey;

/** A link of a pre-rendered page: a real href, followed through the navigation port on a plain click. */
export function PageLink({ to, onClick, ...props }: { to: string; className?: string; onClick?: () => void; children: ReactNode }) {
  const nav = usePageNav();
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
export function PageRedirect({ to }: { to: string }) {
  const { navigate } = usePageNav();
  useEffect(() => navigate(to, { replace: true }), [navigate, to]);
  return null;
}
