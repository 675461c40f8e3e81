// Everything below the first screen: its own chunk, so the header and the hero need no more code.
import { QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { startTransition, useContext, useEffect, useState, type ReactNode } from 'react';
import type { OriginPage } from '@shared/plans';
import { Island } from '@client/lib/islands';
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
import { scrollToAddressSection } from './scroll';

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

/**
 * Rendered once the sections are in (on a pre-rendered page: hydrated last, an island that shows
 * nothing). Arriving at /#prices (e.g. from the payment-canceled page) scrolls there; the ad pixel
 * (when configured) loads, imported on demand so it is not one more file the first paint waits
 * for (the checkout imports it again, from cache).
 */
function SectionsIn() {
  const { hash } = usePageNav();
  const { metaPixelId } = useSiteSettings();
  useEffect(() => {
    if (hash) scrollToAddressSection(hash);
  }, [hash]);
  useEffect(() => {
    void import('@client/lib/tracking').then((tracking) => tracking.initTracking(metaPixelId));
  }, [metaPixelId]);
  return null;
}

/**
 * The pricing cards query and mutate through react-query: inside the app they use its client; the
 * pre-rendered landing page (app/landing-app.tsx) has none, so they get one here.
 */
function QueryScope({ children }: { children: ReactNode }) {
  const appClient = useContext(QueryClientContext);
  const [ownClient] = useState(() => (appClient ? null : createQueryClient()));
  return ownClient ? <QueryClientProvider client={ownClient}>{children}</QueryClientProvider> : children;
}

function Prices({ originPage }: { originPage: OriginPage }) {
  return (
    <QueryScope>
      <PricingSection originPage={originPage} />
    </QueryScope>
  );
}

/** The code of the islands below the hero (lib/islands.tsx), by name, for the pre-rendered page's hydration. */
export const SECTION_ISLANDS = {
  features: FeatureBlocks,
  carousel: FeaturesCarousel,
  testimonials: TestimonialsSection,
  prices: Prices,
  faq: FaqSection,
  cta: FinalCta,
  'sections-in': SectionsIn,
};
export type SectionIsland = keyof typeof SECTION_ISLANDS;

export function BelowTheFold({ originPage, all, onDone }: { originPage: OriginPage; all: boolean; onDone: () => void }) {
  const shown = useProgressiveSections(all);
  const done = shown >= SECTION_COUNT;
  useEffect(() => {
    if (done) onDone();
  }, [done, onDone]);

  // Each interactive section is an island; the secure-checkout block has nothing to hydrate.
  return (
    <>
      {shown > 0 ? <Island name="features"><FeatureBlocks /></Island> : null}
      {shown > 1 ? <Island name="carousel"><FeaturesCarousel /></Island> : null}
      {shown > 2 ? <Island name="testimonials"><TestimonialsSection /></Island> : null}
      {shown > 3 ? <Island name="prices"><Prices originPage={originPage} /></Island> : null}
      {shown > 4 ? <SecureCheckout /> : null}
      {shown > 5 ? <Island name="faq"><FaqSection /></Island> : null}
      {shown > 6 ? <Island name="cta"><FinalCta /></Island> : null}
      {/* Keeps the page taller than the screen until the sections are in, so a scrollbar
          appearing later cannot nudge the hero sideways (a layout shift). */}
      {done ? <Island name="sections-in"><SectionsIn /></Island> : <div aria-hidden="true" className="h-screen" />}
    </>
  );
}
