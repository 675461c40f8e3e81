import { lazy, Suspense, type ReactNode } from 'react';
import type { SiteSettings } from '@shared/site';
import { useAfterPaint } from '@client/features/landing/after-paint';
import { LandingGate } from '@client/features/landing/landing-gate';
import { WindowNavProvider, type PageLocation } from '@client/lib/page-nav';
import { AnonymousAuthProvider } from '@client/lib/auth-context';
import { Island } from '@client/lib/islands';
import { SiteSettingsProvider } from '@client/lib/site-settings';

// The toasts (sonner) are only needed once the visitor acts: not part of the first download.
const Toaster = lazy(() => import('@client/components/ui/toaster').then((module) => ({ default: module.Toaster })));

export function IdleToaster() {
  const idle = useAfterPaint();
  return idle ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

/**
 * What every part of the pre-rendered landing page renders in: its settings (given on the server,
 * read from the page in the browser), an anonymous visitor and the address. The whole page has
 * them once, and each island of it (lib/islands.tsx) has them again around itself.
 */
export function LandingProviders({ settings, at, children }: { settings?: SiteSettings; at?: PageLocation; children: ReactNode }) {
  return (
    <SiteSettingsProvider initial={settings}>
      <AnonymousAuthProvider>
        <WindowNavProvider at={at}>{children}</WindowNavProvider>
      </AnonymousAuthProvider>
    </SiteSettingsProvider>
  );
}

/**
 * The landing page of a first visit, without React Router or react-query: the same tree the
 * server pre-renders (prerender.tsx), whose islands the browser hydrates (landing-hydrate.tsx).
 * The server sends it only to a browser without a session cookie, so the visitor is anonymous and
 * the page hydrates exactly as it was rendered, with no spinner in between. See docs/decisions/015
 * and 062.
 */
export function LandingApp({ settings, at }: { settings?: SiteSettings; at?: PageLocation }) {
  return (
    <LandingProviders settings={settings} at={at}>
      <LandingGate prerendered />
      <Island name="toaster">
        <IdleToaster />
      </Island>
    </LandingProviders>
  );
}
