import { describe, expect, it } from 'vitest';
import type { LandingKind } from '@shared/landing-page';
import { publicSiteSettings } from '../app';
import { loadConfig } from '../config';
import { LEGAL_LINKS } from '@shared/legal-pages';
import { fillPageTemplate, hasSessionCookie, landingPages, legalPages } from './landing';

describe('hasSessionCookie', () => {
  it.each([
    ['candlewise.session_token=abc', true],
    ['theme=dark; candlewise.session_token=abc.def', true],
    ['__Secure-candlewise.session_token=abc', true],
    [undefined, false],
    ['', false],
    ['theme=dark', false],
    ['other.session_token=abc', false],
    ['candlewise.session_data=abc', false],
    ['xcandlewise.session_token=abc', false],
  ])('%j → %s', (header, expected) => {
    expect(hasSessionCookie(header, 'candlewise')).toBe(expected);
  });
});

describe('fillPageTemplate', () => {
  it('puts the first view into #root and sets the title, escaped', () => {
    const html = fillPageTemplate('<title>x</title><div id="root"><!--page--></div>', '<h1>Hi</h1>', 'A & B <C>');
    expect(html).toBe('<title>A &amp; B &lt;C></title><div id="root"><h1>Hi</h1></div>');
  });
});

describe('landingPages', () => {
  const TEMPLATE = '<title>x</title><div id="root"><!--page--></div>';
  const END = new Date('2026-11-26T23:59:59Z');
  const settings = publicSiteSettings(loadConfig({ SALE_ENDS_AT: END.toISOString() }));

  function countingRenderer() {
    const calls: LandingKind[] = [];
    return { calls, renderer: { renderLanding: (_settings: unknown, kind: LandingKind) => (calls.push(kind), `<main>${kind} ${calls.length}</main>`) } };
  }

  it('renders each page once while the sale runs, and again once it has ended', () => {
    const { calls, renderer } = countingRenderer();
    const pages = landingPages(renderer, TEMPLATE, settings);
    const before = new Date(END.getTime() - 60_000);
    expect(pages.html('default', before)).toContain('<main>default 1</main>');
    expect(pages.html('default', new Date(END.getTime() - 1000))).toContain('<main>default 1</main>');
    expect(pages.html('eu', before)).toContain('<main>eu 2</main>');
    expect(pages.html('default', new Date(END.getTime() + 1000))).toContain('<main>default 3</main>');
    expect(calls).toEqual(['default', 'eu', 'default']);
    expect(pages.html('default', before)).toContain('<title>Candlewise – Next-Gen TradingView Indicators</title>');
  });
});

describe('legalPages', () => {
  const TEMPLATE = '<title>x</title><div id="root"><!--page--></div>';
  const settings = publicSiteSettings(loadConfig({}));
  const [disclaimer, terms] = [LEGAL_LINKS[0], LEGAL_LINKS[1]];

  it('renders each page once per origin and year, with its title', () => {
    const calls: string[] = [];
    const pages = legalPages({ renderLegal: (_settings, path, eu) => (calls.push(`${path} ${eu}`), `<main>${path} ${eu}</main>`) }, TEMPLATE, settings);
    const now = new Date('2026-11-25T12:00:00');
    expect(pages.html(terms, false, now)).toBe('<title>Terms of Service – Candlewise</title><div id="root"><main>/terms-of-service false</main></div>');
    expect(pages.html(terms, false, new Date('2026-12-01T12:00:00'))).toContain('<main>/terms-of-service false</main>');
    expect(pages.html(terms, true, now)).toContain('<main>/terms-of-service true</main>');
    expect(pages.html(disclaimer, false, now)).toContain('<title>Disclaimer – Candlewise</title>');
    // the footer shows the year: a new year renders the page again
    pages.html(terms, false, new Date('2027-01-02T12:00:00'));
    expect(calls).toEqual(['/terms-of-service false', '/terms-of-service true', '/disclaimer false', '/terms-of-service false']);
  });
});
