import { ChatIcon, MenuIcon, CloseIcon } from './icons';
import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { Brand } from '@client/components/brand';
import { useAuth } from '@client/lib/auth-context';
import { useSiteSettings } from '@client/lib/site-settings';
import { PageLink } from '@client/lib/page-nav';
import { useLandingVariant } from '../landing-variant';
import { openSupportChat, SECTION_IDS, useGoToSection } from '../scroll';
import { OfferBar } from './offer-bar';

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
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      close();
      toggleRef.current?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      if (!headerRef.current?.contains(event.target as Node)) close();
    };
    window.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointerDown);
    window.addEventListener('scroll', close, { passive: true });
    window.addEventListener('popstate', close);
    window.addEventListener('hashchange', close);
    return () => {
      window.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointerDown);
      window.removeEventListener('scroll', close);
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
