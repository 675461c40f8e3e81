import type { IslandParts } from '@client/lib/islands';
import { HeroSection } from './components/hero-section';
import { SiteHeader } from './components/site-header';
import type { SectionIsland } from './below-the-fold';

const SECTION_NAMES = ['features', 'carousel', 'testimonials', 'prices', 'faq', 'cta', 'sections-in'] as const satisfies readonly SectionIsland[];

/**
 * The code of the pre-rendered page's islands (lib/islands.tsx, docs/decisions/062), by name.
 * Only the header's and the hero's are at hand: they hydrate at once, on screen. Every other island
 * waits for the browser to be idle (or for the visitor to scroll near it), so its code loads on its
 * turn and is no part of the JavaScript before interaction: the sections' from their chunk, the
 * footer's, the chat's and the promotion bar's from their own. A tap before then waits for every
 * island (after-first-paint.ts), the chat the phone's menu opens included.
 *
 * Apart from landing-gate.tsx, which holds the whole page's tree: the hydration imports only this.
 */
export const LANDING_ISLANDS: IslandParts = {
  header: () => SiteHeader,
  hero: () => HeroSection,
  chat: () => import('./components/chat-widget').then((module) => module.ChatWidget),
  promotion: () => import('./components/promotion-banner').then((module) => module.PromotionBar),
  footer: () => import('./components/site-footer').then((module) => module.SiteFooter),
  ...Object.fromEntries(SECTION_NAMES.map((name) => [name, () => import('./below-the-fold').then((module) => module.SECTION_ISLANDS[name])])),
};
