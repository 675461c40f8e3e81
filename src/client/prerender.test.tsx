import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { campaignOf } from '@shared/campaign';
import { seedCatalogue } from '@shared/plans';
import { savePriceList } from '@shared/price-lists';
import { TEST_SITE_SETTINGS } from '@client/test/render';
import { renderLanding, renderLegal } from './prerender';

// What the server sends as the landing page's first view (docs/decisions/015), for a moment.
const NOW = new Date('2026-11-25T12:00:00Z');

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

const text = (html: string) => html.replace(/<!-- -->/g, '');

describe('the pre-rendered landing page', () => {
  it('shows the header, the sale bar and the hero while the sale runs, with no clock in it', () => {
    const html = text(renderLanding({ ...TEST_SITE_SETTINGS, saleEndsAt: '2026-11-26T23:59:59Z' }, '/'));
    expect(html).toContain('Boost Your Trading with');
    expect(html).toContain('Save up to 65%');
    expect(html).toContain('Black Friday Sale ');
    expect(html).toContain('data-testid="sale-countdown"');
    // the digits are invisible placeholders until the browser has its own clock
    expect(html).toMatch(/class="[^"]*\binvisible\b[^"]*" aria-hidden="true"/);
    expect(html).not.toContain('role="timer"');
    expect(html).toContain('href="/auth"');
    // the whole page is in the HTML: the sections below the hero, the footer and the charts the
    // browser keeps as they are (the hero's and the feature blocks'), drawn by the server
    expect(html).toContain('Choose Your Plan');
    expect(html).toContain('Frequently Asked Questions');
    expect(html).toContain('<footer');
    expect(html.match(/<svg [^>]*viewBox="0 0 400 225"/g)).toHaveLength(4);
  });

  it('shows no sale once it has ended', () => {
    const html = text(renderLanding({ ...TEST_SITE_SETTINGS, saleEndsAt: '2026-11-24T23:59:59Z' }, '/'));
    expect(html).toContain('Boost Your Trading with');
    expect(html).not.toContain('sale-countdown');
    expect(html).not.toContain('Save up to');
    expect(html).not.toContain('Black Friday');
  });

  it('always shows a rolling sale', () => {
    const html = text(renderLanding({ ...TEST_SITE_SETTINGS, saleEndsAt: null }, '/'));
    expect(html).toContain('Save up to 65%');
    expect(html).toContain('data-testid="sale-countdown"');
  });

  it('shows the EU offer on /eu, with links that lead back to it', () => {
    const html = text(renderLanding(TEST_SITE_SETTINGS, '/eu'));
    expect(html).toContain('This special offer is only available through the ad you saw.');
    expect(html).not.toContain('sale-countdown');
    expect(html).toContain('href="/auth?redirect=/eu"');
  });
});

describe("a vendor's price list page, pre-rendered (decision record 054)", () => {
  it('has its header above the navigation and only its plans, in its currency, without the default page\'s sale', () => {
    const edit = savePriceList(seedCatalogue(), { slug: 'partners', currency: 'eur', header: 'Partner prices, this month only', entries: [{ plan: 'quarterly', price: 6000 }, { plan: 'lifetime', price: 49900 }] }, true);
    if ('problem' in edit) throw new Error(edit.problem);
    const html = text(renderLanding({ ...TEST_SITE_SETTINGS, ...campaignOf(edit.catalogue, NOW) }, '/partners'));
    expect(html).toMatch(/data-testid="list-header"[^>]*>.*Partner prices, this month only/);
    expect(html).toContain('Choose Your Plan');
    expect(html).toContain('aria-labelledby="plan-quarterly"');
    expect(html).toContain('€60 billed every 3 months');
    expect(html).toContain('€499');
    expect(html).not.toContain('aria-labelledby="plan-yearly"');
    expect(html).not.toContain('sale-countdown');
    expect(html).not.toContain('Save up to');
    // the islands hydrate the cards with the list's page as their origin
    expect(html).toContain('&quot;originPage&quot;:&quot;/partners&quot;');
  });
});

describe('the pre-rendered legal pages', () => {
  it('are the whole page, with the settings in it and links that lead home', () => {
    const html = text(renderLegal(TEST_SITE_SETTINGS, '/terms-of-service', false));
    expect(html).toContain('<h1');
    expect(html).toContain('Terms of Service</h1>');
    expect(html).toContain('Effective date: June 13, 2025');
    expect(html).toContain(`mailto:${TEST_SITE_SETTINGS.supportEmail}`);
    expect(html).toMatch(/href="\/"[^>]*>.*Back to Homepage/);
    expect(html).toContain('href="/privacy-policy"');
  });

  it('lead back to /eu and keep from=eu for a visitor who came from the EU offer', () => {
    const html = text(renderLegal(TEST_SITE_SETTINGS, '/contact', true));
    expect(html).toContain('Contact</h1>');
    expect(html).toMatch(/href="\/eu"[^>]*>.*Back to Homepage/);
    expect(html).toContain('href="/disclaimer?from=eu"');
  });
});
