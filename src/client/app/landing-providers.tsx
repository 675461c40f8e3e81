import { lazy, Suspense, type ReactNode } from 'react';
import type { SiteSettings } from '@shared/site';
import { useAfterPaint } from '@client/features/landing/after-paint';
import { WindowNavProvider, type PageLocation } from '@client/lib/page-nav';
import { AnonymousAuthProvider } from '@client/lib/auth-context';
import { SiteSettingsProvider } from '@client/lib/site-settings';

// Apart from landing-app.tsx: the islands' hydration (landing-hydrate.tsx) needs these, not the
// page's whole tree (LandingGate), so its first download carries no more than the islands use.

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
