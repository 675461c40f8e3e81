import { ChatIcon, MenuIcon, CloseIcon } from './icons';
import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { Brand } from '@client/components/brand';
import { useAuth } from '@client/lib/auth-context';
import { useSiteSettings } from '@client/lib/site-settings';
import { PageLink } from '@client/lib/page-nav';
import { useLandingVariant } from '../landing-variant';
import { openSupportChat, SECTION_IDS, useGoToSection } from '../scroll';
import { OfferBar } from './offer-bar';

/** A scroll of the page smaller than this leaves the menu open (a finger's jitter, the last frame of a stopped glide). */
const SCROLL_SLACK_PX = 16;
/** Frames after the menu opens in which a scroll is a glide still running, not the visitor (~70 ms at 60 Hz). */
const SETTLE_FRAMES = 4;
/** Keys that scroll the page: pressed by the visitor, so the scroll they make is theirs. */
const SCROLL_KEYS = new Set(['ArrowDown', 'ArrowUp', 'PageDown', 'PageUp', 'Home', 'End', ' ']);

const linkClass = 'rounded-md px-3 py-2 text-sm font-medium text-foreground/80 transition-colors hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary/60';

/** Fixed header of the marketing pages: offer bar, navigation, Log In / Sign Out, mobile menu below 768 px. */
export function SiteHeader() {
  const { docsUrl } = useSiteSettings();
  const { user, signOut } = useAuth();
  const variant = useLandingVariant();
  const goToSection = useGoToSection();
  const [menuOpen, setMenuOpen] = useState(false);
  const headerRef = useRef<HTMLElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);

  // An open menu closes on Escape (focus back on its button), a tap outside the header, a scroll of
  // the page and any navigation (back, forward, a new #section).
  useEffect(() => {
    if (!menuOpen) return;
    const close = () => setMenuOpen(false);
    // A tap on the menu while the page still glides (to the top, to a section) stops the glide
    // where it is, as a touch stops a fling: its remaining frames would otherwise close the menu
    // the moment it opened. Only a scroll away from there closes it.
    const openedAt = window.scrollY;
    window.scrollTo({ top: openedAt, behavior: 'instant' });
    // A glide started in the same turn as the tap has no frame yet to stop: it moves on the next
    // frames (a few on a busy phone, as the compositor hands its offset back), which hold the page
    // again instead of closing; after SETTLE_FRAMES, or once the visitor turns a wheel, drags or
    // presses a scrolling key, a scroll is the visitor's.
    let framesLeft = SETTLE_FRAMES;
    let visitorScrolls = false;
    const onVisitorScroll = () => {
      visitorScrolls = true;
    };
    const countFrame = () => {
      framesLeft -= 1;
      if (framesLeft > 0) settle = requestAnimationFrame(countFrame);
    };
    let settle = requestAnimationFrame(countFrame);
    const onScroll = () => {
      if (Math.abs(window.scrollY - openedAt) <= SCROLL_SLACK_PX) return;
      if (framesLeft > 0 && !visitorScrolls) window.scrollTo({ top: openedAt, behavior: 'instant' });
      else close();
    };
    const onKey = (event: KeyboardEvent) => {
      if (SCROLL_KEYS.has(event.key)) onVisitorScroll();
      if (event.key !== 'Escape') return;
      close();
      toggleRef.current?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      if (!headerRef.current?.contains(event.target as Node)) close();
    };
    window.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointerDown);
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('wheel', onVisitorScroll, { passive: true });
    window.addEventListener('touchmove', onVisitorScroll, { passive: true });
    window.addEventListener('popstate', close);
    window.addEventListener('hashchange', close);
    return () => {
      cancelAnimationFrame(settle);
      window.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointerDown);
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('wheel', onVisitorScroll);
      window.removeEventListener('touchmove', onVisitorScroll);
      window.removeEventListener('popstate', close);
      window.removeEventListener('hashchange', close);
    };
  }, [menuOpen]);

  /** Any link or button of the menu takes the visitor somewhere: the menu closes behind it. */
  const closeOnChoice = (event: MouseEvent<HTMLElement>) => {
    if ((event.target as HTMLElement).closest('a, button')) setMenuOpen(false);
  };

  const goTo = (id: string) => {
    setMenuOpen(false);
    goToSection(id);
  };
  const authHref = variant.isEu ? '/auth?redirect=/eu' : '/auth';
  const sectionLink = (id: string, label: string) => (
    <a
      href={`${variant.home === '/' ? '' : variant.home}#${id}`}
      className={linkClass}
      onClick={(event) => {
        event.preventDefault();
        goTo(id);
      }}
    >
      {label}
    </a>
  );

  const links = (
    <>
      <a href={docsUrl} target="_blank" rel="noopener noreferrer" className={linkClass} onClick={() => setMenuOpen(false)}>
        Guide
      </a>
      {sectionLink(SECTION_IDS.prices, 'Prices')}
      {sectionLink(SECTION_IDS.testimonials, 'Testimonials')}
    </>
  );

  const account = user ? (
    <button
      type="button"
      onClick={() => void signOut()}
      className="inline-flex h-9 items-center justify-center rounded-lg border border-white/15 px-4 text-sm font-semibold text-white transition-colors hover:bg-white/10"
    >
      Sign Out
    </button>
  ) : (
    <PageLink
      to={authHref}
      className="inline-flex h-9 items-center justify-center rounded-lg bg-primary px-4 text-sm font-semibold text-primary-foreground transition-colors hover:bg-primary/90"
    >
      Log In
    </PageLink>
  );

  return (
    <header ref={headerRef} className="sticky top-0 z-40">
      <OfferBar isEu={variant.isEu} header={variant.header} ownList={variant.ownList} page={variant.originPage} />
      <div className="border-b border-white/5 bg-background/85 backdrop-blur supports-[backdrop-filter]:bg-background/70">
        <nav aria-label="Main" className="mx-auto flex h-16 max-w-7xl items-center justify-between px-4 sm:px-6">
          <PageLink to={variant.home} className="flex items-center rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-primary/60">
            <Brand />
          </PageLink>
          <div className="hidden items-center gap-1 md:flex">{links}</div>
          <div className="hidden md:block">{account}</div>
          <button
            ref={toggleRef}
            type="button"
            className="grid h-10 w-10 place-items-center rounded-lg text-white hover:bg-white/10 md:hidden"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <CloseIcon className="h-5 w-5" /> : <MenuIcon className="h-5 w-5" />}
          </button>
        </nav>
        {menuOpen ? (
          // over the page, not in its flow: a header that grew would push the page down, and the
          // browser's scroll anchoring would answer with a scroll, which closes the menu
          <div id="mobile-menu" className="absolute inset-x-0 top-full max-h-[calc(100vh-4rem)] overflow-y-auto border-b border-t border-white/5 bg-background px-4 pb-4 pt-2 shadow-lg md:hidden" onClick={closeOnChoice}>
            <div className="flex flex-col">
              {links}
              {/* on a phone the chat opens from here: no floating button over the page */}
              <button type="button" className={`${linkClass} flex items-center gap-2 text-left`} onClick={openSupportChat}>
                <ChatIcon className="h-4 w-4" />
                Support chat
              </button>
            </div>
            <div className="mt-3 [&>*]:w-full">{account}</div>
          </div>
        ) : null}
      </div>
    </header>
  );
}
