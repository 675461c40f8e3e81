import { lazy, Suspense } from 'react';
import type { SiteSettings } from '@shared/site';
import { useAfterPaint } from '@client/features/landing/after-paint';
import { LandingGate } from '@client/features/landing/landing-gate';
import { WindowNavProvider, type PageLocation } from '@client/lib/page-nav';
import { AnonymousAuthProvider } from '@client/lib/auth-context';
import { SiteSettingsProvider } from '@client/lib/site-settings';

// The toasts (sonner) are only needed once the visitor acts: not part of the first download.
const Toaster = lazy(() => import('@client/components/ui/toaster').then((module) => ({ default: module.Toaster })));

function IdleToaster() {
  const idle = useAfterPaint();
  return idle ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

/**
 * The landing page of a first visit, without React Router or react-query: the same tree the
 * server pre-renders (prerender.tsx) and the browser hydrates (landing-main.tsx). The server sends
 * it only to a browser without a session cookie, so the visitor is anonymous and the page
 * hydrates exactly as it was rendered, with no spinner in between. See docs/decisions/015.
 */
export function LandingApp({ settings, at }: { settings?: SiteSettings; at?: PageLocation }) {
  return (
    <SiteSettingsProvider initial={settings}>
      <AnonymousAuthProvider>
        <WindowNavProvider at={at}>
          <LandingGate prerendered />
        </WindowNavProvider>
        <IdleToaster />
      </AnonymousAuthProvider>
    </SiteSettingsProvider>
  );
}
