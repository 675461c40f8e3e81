import { describe, expect, it } from 'vitest';
import { recordSectionScrolls } from '@client/test/section-scrolls';
import { scrollToSection } from './scroll';

// A visitor clicked Prices before the landing page hydrated (the browser went to /#prices itself),
// then Testimonials once it had: the sections' island, hydrating last, scrolled to the address's
// #prices and carried the visitor back to the cards.
describe('scrollToSection', () => {
  const scrolled = recordSectionScrolls();

  it('makes an address that names another section name the chosen one, in the same history entry', () => {
    window.history.pushState({ usr: null, key: 'entry', idx: 1 }, '', '/#prices');
    const entries = window.history.length;

    expect(scrollToSection('testimonials')).toBe(true);

    expect(scrolled).toEqual(['testimonials']);
    expect(window.location.hash).toBe('#testimonials');
    expect(window.history.length).toBe(entries);
    expect(window.history.state).toEqual({ usr: null, key: 'entry', idx: 1 });
  });

  it('leaves an address without a section as it is', () => {
    expect(scrollToSection('prices')).toBe(true);

    expect(scrolled).toEqual(['prices']);
    expect(window.location.href).toBe('http://localhost:3000/');
  });

  it('answers false and changes nothing when the page has no such section', () => {
    window.history.pushState(null, '', '/#prices');

    expect(scrollToSection('faq')).toBe(false);

    expect(scrolled).toEqual([]);
    expect(window.location.hash).toBe('#prices');
  });
});
