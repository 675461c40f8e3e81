import { startTransition, Suspense, useCallback, useEffect, useState } from 'react';
import { landingTitle } from '@shared/landing-page';
import { Island } from '@client/lib/islands';
import { lazyPart } from '@client/lib/lazy-part';
import { useAfterPaint } from './after-paint';
import { preloadCharts } from './components/chart-frame';
import { useAuth } from '@client/lib/auth-context';
import { useSiteSettings } from '@client/lib/site-settings';
import { ChatWidget } from './components/chat-widget';
import { HeroSection } from './components/hero-section';
import { PromotionBar } from './components/promotion-banner';
import { LoadingScreen } from './components/page-kit';
import { SiteHeader } from './components/site-header';
import { PageRedirect, usePageNav } from '@client/lib/page-nav';
import { useLandingVariant } from './landing-variant';

// The header and the hero need no more code; the rest is its own chunk. A pre-rendered page has
// it all in its HTML, which React keeps until that chunk has come to hydrate it.
const BelowTheFold = lazyPart(() => import('./below-the-fold').then((module) => module.BelowTheFold));
const SiteFooter = lazyPart(() => import('./components/site-footer').then((module) => module.SiteFooter));

/** Loads the code of the whole page, for a renderer that cannot wait for it (the server's). */
export const preloadLanding = () => Promise.all([BelowTheFold.preload(), SiteFooter.preload(), preloadCharts()]);

const PAGE_FILLER = <div aria-hidden="true" className="h-screen" />;

function LandingContent({ prerendered }: { prerendered: boolean }) {
  const { brandName } = useSiteSettings();
  const variant = useLandingVariant();
  const { hash } = usePageNav();
  // Rendered in the browser, the rest of the page loads after the hero has painted; a #section in
  // the address needs it at once, and the server renders the whole page.
  const rest = useAfterPaint(prerendered || hash !== '');
  const [sectionsDone, setSectionsDone] = useState(prerendered);
  const onSectionsDone = useCallback(() => startTransition(() => setSectionsDone(true)), []);
  useEffect(() => {
    document.title = landingTitle(brandName);
  }, [brandName]);

  return (
    <div className="min-h-screen overflow-x-clip">
      <Island name="header">
        <SiteHeader />
      </Island>
      <main>
        <Island name="hero">
          <HeroSection />
        </Island>
        {rest ? (
          <Suspense fallback={PAGE_FILLER}>
            <BelowTheFold originPage={variant.originPage} all={prerendered} onDone={onSectionsDone} />
          </Suspense>
        ) : (
          PAGE_FILLER
        )}
      </main>
      {sectionsDone ? (
        <Suspense fallback={null}>
          <Island name="footer">
            <SiteFooter />
          </Island>
        </Suspense>
      ) : null}
      <Island name="chat">
        <ChatWidget />
      </Island>
      <Island name="promotion">
        <PromotionBar />
      </Island>
    </div>
  );
}

/**
 * The wrapper of / and /eu: members with access go to the dashboard; while the session
 * or the access of a signed-in user is unknown a spinner shows. An anonymous visitor gets the page
 * as soon as the session check answers 'no user' (no access check is made for them). The
 * `prerendered` page (app/landing-app.tsx) is rendered whole, on the server and when hydrating.
 */
export function LandingGate({ prerendered = false }: { prerendered?: boolean }) {
  const { user, isLoading, premium } = useAuth();
  if (isLoading || (user && premium.hasAccess === 'unknown')) return <LoadingScreen />;
  if (user && premium.hasAccess === true) return <PageRedirect to="/dashboard" />;
  return <LandingContent prerendered={prerendered} />;
}
