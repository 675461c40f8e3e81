// Everything below the first screen: its own chunk, so the header and the hero need no more code.
import { QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { startTransition, useContext, useEffect, useState, type ReactNode } from 'react';
import type { OriginPage } from '@shared/plans';
import { createQueryClient } from '@client/lib/query-client';
import { useSiteSettings } from '@client/lib/site-settings';
import { usePageNav } from '@client/lib/page-nav';
import { FaqSection } from './components/faq-section';
import { FeatureBlocks } from './components/feature-blocks';
import { FeaturesCarousel } from './components/features-carousel';
import { FinalCta } from './components/final-cta';
import { SecureCheckout } from './components/secure-checkout';
import { TestimonialsSection } from './components/testimonials-section';
import { PricingSection } from './pricing/pricing-section';

const SECTION_COUNT = 7;

/**
 * How many sections are rendered. In a page the browser renders itself they follow one per frame,
 * each in a transition, so the main thread never blocks for long (low TBT). Arriving at a #section
 * renders all at once so the scroll can land, as does a pre-rendered page (`all`), whose sections
 * are already in its HTML.
 */
function useProgressiveSections(all: boolean): number {
  const { hash } = usePageNav();
  const [shown, setShown] = useState(hash === '' && !all ? 0 : SECTION_COUNT);
  useEffect(() => {
    if (shown >= SECTION_COUNT) return;
    const frame = requestAnimationFrame(() => startTransition(() => setShown((count) => count + 1)));
    return () => cancelAnimationFrame(frame);
  }, [shown]);
  return shown;
}

/** Arriving at /#prices (e.g. from the payment-canceled page) scrolls there once the sections exist. */
function useScrollToHash(ready: boolean) {
  const { hash } = usePageNav();
  useEffect(() => {
    if (!ready || !hash) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView({ block: 'start' });
  }, [ready, hash]);
}

/**
 * Loads the ad pixel (when configured) once the page is in place. Tracking is imported on demand,
 * so it is not one more file the first paint waits for; the checkout imports it again (from cache).
 */
function useDeferredTracking(ready: boolean) {
  const { metaPixelId } = useSiteSettings();
  useEffect(() => {
    if (ready) void import('@client/lib/tracking').then((tracking) => tracking.initTracking(metaPixelId));
  }, [ready, metaPixelId]);
}

/**
 * The pricing cards query and mutate through react-query: inside the app they use its client; the
 * pre-rendered landing page (app/landing-app.tsx) has none until this chunk arrives, so it gets one here.
 */
function QueryScope({ children }: { children: ReactNode }) {
  const appClient = useContext(QueryClientContext);
  const [ownClient] = useState(() => (appClient ? null : createQueryClient()));
  return ownClient ? <QueryClientProvider client={ownClient}>{children}</QueryClientProvider> : children;
}

export function BelowTheFold({ originPage, all, onDone }: { originPage: OriginPage; all: boolean; onDone: () => void }) {
  const shown = useProgressiveSections(all);
  const done = shown >= SECTION_COUNT;
  useScrollToHash(done);
  useDeferredTracking(done);
  useEffect(() => {
    if (done) onDone();
  }, [done, onDone]);

  return (
    <QueryScope>
      {shown > 0 ? <FeatureBlocks /> : null}
      {shown > 1 ? <FeaturesCarousel /> : null}
      {shown > 2 ? <TestimonialsSection /> : null}
      {shown > 3 ? <PricingSection originPage={originPage} /> : null}
      {shown > 4 ? <SecureCheckout /> : null}
      {shown > 5 ? <FaqSection /> : null}
      {shown > 6 ? <FinalCta /> : null}
      {/* Keeps the page taller than the screen until the sections are in, so a scrollbar
          appearing later cannot nudge the hero sideways (a layout shift). */}
      {done ? null : <div aria-hidden="true" className="h-screen" />}
    </QueryScope>
  );
}
