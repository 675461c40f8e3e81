import { footerScrollBehavior, FOOTER_SCROLL_DELAY_MS } from '@shared/timing';
import { usePageNav } from '@client/lib/page-nav';
import { useLandingVariant } from './landing-variant';

export const SECTION_IDS = { prices: 'prices', testimonials: 'testimonials', features: 'features', faq: 'faq' } as const;

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * Scrolls a section of this page into view; false when the page has no such section.
 *
 * An address that names another section is made to name this one: a link clicked before the page
 * hydrated was followed by the browser itself (/#prices), and a part of the page hydrating after
 * this choice lands on the address's section: it would carry the visitor back there.
 */
export function scrollToSection(id: string): boolean {
  const element = document.getElementById(id);
  if (!element) return false;
  if (window.location.hash !== '' && window.location.hash !== `#${id}`) {
    // the state kept as it is: inside the app it is React Router's entry
    window.history.replaceState(window.history.state, '', `#${id}`);
  }
  element.scrollIntoView({ behavior: prefersReducedMotion() ? 'auto' : 'smooth', block: 'start' });
  return true;
}

/**
 * Scrolls at once to the section of `hash`, the address as the page last read it (arriving at
 * /#prices), or to the one the browser's address names now when it names one: a page hydrating on
 * a busy machine reads the address, and a visitor's click on another section can replace it
 * (scrollToSection) before React renders what it read; scrolling to the stale section would carry
 * the visitor back there. (Under a memory router the browser's address stays empty.)
 */
export function scrollToAddressSection(hash: string): void {
  const id = decodeURIComponent((window.location.hash || hash).slice(1));
  if (id) document.getElementById(id)?.scrollIntoView({ block: 'start' });
}

/**
 * Goes to a section of the landing page: scrolls when it is on this page, else navigates to it
 * ('/#prices', '/eu#prices'): from another page, or while the sections are still loading (the
 * landing page scrolls to the address's #section once they are in).
 */
export function useGoToSection(): (id: string) => void {
  const { navigate } = usePageNav();
  const { home } = useLandingVariant();
  return (id) => {
    if (!scrollToSection(id)) navigate(`${home}#${id}`);
  };
}

/** Footer links: scroll to the top 100 ms after the click, instantly on narrow screens. */
export function scrollToTopSoon(): void {
  window.setTimeout(() => {
    const behavior = prefersReducedMotion() ? 'instant' : footerScrollBehavior(window.innerWidth);
    window.scrollTo({ top: 0, left: 0, behavior });
  }, FOOTER_SCROLL_DELAY_MS);
}

/** Opens the support chat from anywhere on the page (the phone's menu: the floating button is for wider screens). */
export const OPEN_SUPPORT_CHAT_EVENT = 'candlewise:open-support-chat';
export const openSupportChat = () => window.dispatchEvent(new Event(OPEN_SUPPORT_CHAT_EVENT));
