import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PageNavProvider } from '@client/lib/page-nav';
import { SiteSettingsProvider } from '@client/lib/site-settings';
import { TEST_SITE_SETTINGS } from '@client/test/render';
import { recordSectionScrolls } from '@client/test/section-scrolls';
import { SECTION_ISLANDS } from './below-the-fold';

// The sections' island, hydrating last on a busy machine, had read /#prices (a click before the
// page hydrated); the visitor then chose Testimonials, which made the address #testimonials, and
// the island rendered what it had read and carried them back to the prices.
describe('the sections arriving', () => {
  const scrolled = recordSectionScrolls();
  const SectionsIn = SECTION_ISLANDS['sections-in'];

  const renderAt = (hash: string) =>
    render(
      <SiteSettingsProvider initial={TEST_SITE_SETTINGS}>
        <PageNavProvider value={{ pathname: '/', search: '', hash, navigate: () => undefined }}>
          <SectionsIn />
        </PageNavProvider>
      </SiteSettingsProvider>,
    );

  it('scroll to the section the address names', () => {
    window.history.replaceState(null, '', '/#prices');
    renderAt('#prices');
    expect(scrolled).toEqual(['prices']);
  });

  it('scroll to the section the address names now, not the one the render read before the visitor chose another', () => {
    window.history.replaceState(null, '', '/#testimonials');
    renderAt('#prices');
    expect(scrolled).toEqual(['testimonials']);
  });

  it("scroll to the section the page's own navigation names when the browser's address names none (a memory router)", () => {
    renderAt('#prices');
    expect(scrolled).toEqual(['prices']);
  });

  it('leave the page where it is when the address names no section', () => {
    renderAt('');
    expect(scrolled).toEqual([]);
  });
});
