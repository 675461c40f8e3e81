import type { SiteSettings } from '@shared/site';
import { LandingGate } from '@client/features/landing/landing-gate';
import type { PageLocation } from '@client/lib/page-nav';
import { Island } from '@client/lib/islands';
import { IdleToaster, LandingProviders } from './landing-providers';

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
