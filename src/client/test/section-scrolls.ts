import { afterEach, beforeEach, vi } from 'vitest';

/**
 * A page with the landing page's Testimonials and Prices sections, for the tests of a suite: returns
 * the ids of the sections scrolled into view, in order; each test starts on '/' with none.
 */
export function recordSectionScrolls(): string[] {
  const scrolled: string[] = [];
  beforeEach(() => {
    document.body.innerHTML = '<section id="testimonials"></section><section id="prices"></section>';
    Element.prototype.scrollIntoView = vi.fn(function (this: Element) {
      scrolled.push(this.id);
    });
  });
  afterEach(() => {
    scrolled.length = 0;
    document.body.innerHTML = '';
    window.history.replaceState(null, '', '/');
  });
  return scrolled;
}
