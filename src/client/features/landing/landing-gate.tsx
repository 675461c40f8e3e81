import { lazy, startTransition, Suspense, useCallback, useEffect, useState } from 'react';
import { landingTitle } from '@shared/landing-page';
import { useAfterPaint } from './after-paint';
import { useAuth } from '@client/lib/auth-context';
import { useSiteSettings } from '@client/lib/site-settings';
import { ChatWidget } from './components/chat-widget';
import { HeroSection } from './components/hero-section';
import { LoadingScreen } from './components/page-kit';
import { SiteHeader } from './components/site-header';
import { PageRedirect, usePageNav } from '@client/lib/page-nav';
import { useLandingVariant } from './landing-variant';

// The first paint needs only the header and the hero; the rest arrives as its own chunk.
const BelowTheFold = lazy(() => import('./below-the-fold').then((module) => ({ default: module.BelowTheFold })));
const SiteFooter = lazy(() => import('./components/site-footer').then((module) => ({ default: module.SiteFooter })));

const PAGE_FILLER = <div aria-hidden="true" className="h-screen" />;

function LandingContent() {
  const { brandName } = useSiteSettings();
  const variant = useLandingVariant();
  const { hash } = usePageNav();
  // The rest of the page loads after the hero has painted; a #section in the address needs it at once.
  const rest = useAfterPaint(hash !== '');
  const [sectionsDone, setSectionsDone] = useState(false);
  const onSectionsDone = useCallback(() => startTransition(() => setSectionsDone(true)), []);
  useEffect(() => {
    document.title = landingTitle(brandName);
  }, [brandName]);

  return (
    <div className="min-h-screen overflow-x-clip">
      <SiteHeader />
      <main>
        <HeroSection />
        {rest ? (
          <Suspense fallback={PAGE_FILLER}>
            <BelowTheFold originPage={variant.originPage} onDone={onSectionsDone} />
          </Suspense>
        ) : (
          PAGE_FILLER
        )}
      </main>
      {sectionsDone ? (
        <Suspense fallback={null}>
          <SiteFooter />
        </Suspense>
      ) : null}
      <ChatWidget />
    </div>
  );
}

/**
 * The wrapper of / and /eu (spec §2): members with access go to the dashboard; while the session
 * or the access of a signed-in user is unknown a spinner shows. An anonymous visitor gets the page
 * as soon as the session check answers 'no user' (no access check is made for them).
 */
export function LandingGate() {
  const { user, isLoading, premium } = useAuth();
  if (isLoading || (user && premium.hasAccess === 'unknown')) return <LoadingScreen />;
  if (user && premium.hasAccess === true) return <PageRedirect to="/dashboard" />;
  return <LandingContent />;
}
