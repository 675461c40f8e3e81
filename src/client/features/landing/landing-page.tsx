import { startTransition, useEffect, useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { LoadingScreen } from './components/icons';
import { useAuth } from '@client/lib/auth-state';
import { useSiteSettings } from '@client/lib/site-settings';
import { ChatWidget } from './components/chat-widget';
import { FaqSection } from './components/faq-section';
import { FeatureBlocks } from './components/feature-blocks';
import { FeaturesCarousel } from './components/features-carousel';
import { FinalCta } from './components/final-cta';
import { HeroSection } from './components/hero-section';
import { SecureCheckout } from './components/secure-checkout';
import { SiteFooter } from './components/site-footer';
import { SiteHeader } from './components/site-header';
import { TestimonialsSection } from './components/testimonials-section';
import { useLandingVariant } from './landing-variant';
import { PricingSection } from './pricing/pricing-section';

/** Arriving at /#prices (e.g. from another page's Prices link) scrolls there once the sections exist. */
function useScrollToHash() {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    const element = document.getElementById(decodeURIComponent(hash.slice(1)));
    element?.scrollIntoView({ block: 'start' });
  }, [hash]);
}

/**
 * The sections below the first screen render in a transition right after the first paint: React
 * then works on them in small slices, so the main thread never blocks for long (low TBT), and the
 * hero paints sooner. Arriving at a #section renders everything at once so the scroll can land.
 */
function useBelowTheFold(): boolean {
  const { hash } = useLocation();
  const [ready, setReady] = useState(hash !== '');
  useEffect(() => {
    if (ready) return;
    const frame = requestAnimationFrame(() => startTransition(() => setReady(true)));
    return () => cancelAnimationFrame(frame);
  }, [ready]);
  return ready;
}

/**
 * Loads the ad pixel (when configured) after the first paint. Tracking is imported on demand, so it
 * is not one more file the page waits for; the checkout imports it again (then from cache).
 */
function useDeferredTracking(ready: boolean) {
  const { metaPixelId } = useSiteSettings();
  useEffect(() => {
    if (ready) void import('@client/lib/tracking').then((tracking) => tracking.initTracking(metaPixelId));
  }, [ready, metaPixelId]);
}

function LandingContent() {
  const { brandName } = useSiteSettings();
  const variant = useLandingVariant();
  const belowTheFold = useBelowTheFold();
  useDeferredTracking(belowTheFold);
  useScrollToHash();
  useEffect(() => {
    document.title = `${brandName} – Next-Gen TradingView Indicators`;
  }, [brandName]);

  return (
    <div className="min-h-screen overflow-x-clip">
      <SiteHeader />
      <main>
        <HeroSection />
        {belowTheFold ? (
          <>
            <FeatureBlocks />
            <FeaturesCarousel />
            <TestimonialsSection />
            <PricingSection originPage={variant.originPage} />
            <SecureCheckout />
            <FaqSection />
            <FinalCta />
          </>
        ) : null}
      </main>
      {belowTheFold ? <SiteFooter /> : null}
      <ChatWidget />
    </div>
  );
}

/**
 * The wrapper of / and /eu (spec §2): members with access go to the dashboard; while the session
 * or the access of a signed-in user is unknown a spinner shows. An anonymous visitor gets the page
 * as soon as the session check answers 'no user' (no access check is made for them).
 */
function LandingGate() {
  const { user, isLoading, premium } = useAuth();
  if (isLoading || (user && premium.hasAccess === 'unknown')) return <LoadingScreen />;
  if (user && premium.hasAccess === true) return <Navigate to="/dashboard" replace />;
  return <LandingContent />;
}

/** / (and /?from=eu, which shows the EU offer). */
export function LandingPage() {
  return <LandingGate />;
}

/** /eu: the EU offer with its own pricing. */
export function EuLandingPage() {
  return <LandingGate />;
}
