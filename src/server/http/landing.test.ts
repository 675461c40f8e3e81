import { describe, expect, it } from 'vitest';
import type { LandingKind } from '@shared/landing-page';
import { publicSiteSettings } from '../app';
import { loadConfig } from '../config';
import { fillLandingTemplate, hasSessionCookie, landingPages } from './landing';

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

describe('fillLandingTemplate', () => {
  it('puts the first view into #root and sets the title, escaped', () => {
    const html = fillLandingTemplate('<title>x</title><div id="root"><!--landing--></div>', '<h1>Hi</h1>', 'A & B <C>');
    expect(html).toBe('<title>A &amp; B &lt;C></title><div id="root"><h1>Hi</h1></div>');
  });
});

describe('landingPages', () => {
  const TEMPLATE = '<title>x</title><div id="root"><!--landing--></div>';
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
