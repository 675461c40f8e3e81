import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { saveSale, type Edit } from '@shared/catalogue';
import { savePriceList } from '@shared/price-lists';
import { seedCatalogue } from '@shared/plans';
import { publicSiteSettings } from '../app';
import { loadConfig } from '../config';
import { LEGAL_LINKS } from '@shared/legal-pages';
import { fillPageTemplate, hasSessionCookie, inlineStylesheets, landingPages, legalPages, linkedStylesheets, loadPageRenderer, pageSettings } from './landing';

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
    const calls: string[] = [];
    return { calls, renderer: { renderLanding: (_settings: unknown, page: string) => (calls.push(page), `<main>${page} ${calls.length}</main>`) } };
  }

  it('renders each page once while the sale runs, and again once it has ended', () => {
    const { calls, renderer } = countingRenderer();
    const pages = landingPages(renderer, TEMPLATE, settings);
    const before = new Date(END.getTime() - 60_000);
    expect(pages.html('/', before)).toContain('<main>/ 1</main>');
    expect(pages.html('/', new Date(END.getTime() - 1000))).toContain('<main>/ 1</main>');
    expect(pages.html('/eu', before)).toContain('<main>/eu 2</main>');
    expect(pages.html('/', new Date(END.getTime() + 1000))).toContain('<main>/ 3</main>');
    expect(calls).toEqual(['/', '/eu', '/']);
    expect(pages.html('/', before)).toContain('<title>Candlewise – Next-Gen TradingView Indicators</title>');
  });

  it("renders a vendor list's page once per state of its own sale", () => {
    const edited = (edit: Edit) => {
      if ('problem' in edit) throw new Error(edit.problem);
      return edit.catalogue;
    };
    const partners = edited(savePriceList(settings.catalogue ?? seedCatalogue(), { slug: 'partners', currency: 'eur', header: 'Partner prices', entries: [{ plan: 'monthly', price: 2900 }] }, true));
    const catalogue = edited(saveSale(partners, { id: 'spring', label: 'Spring', startsAt: '2027-03-01T00:00:00Z', endsAt: '2027-03-08T00:00:00Z', countdown: true, list: 'partners', prices: [{ plan: 'monthly', price: 1900 }] }));
    const { calls, renderer } = countingRenderer();
    const pages = landingPages(renderer, TEMPLATE, { ...settings, catalogue });
    const [before, during, later, after] = ['2027-02-01', '2027-03-02', '2027-03-03', '2027-03-09'].map((day) => new Date(`${day}T12:00:00Z`));
    const listed = pages.html('/partners', before!);
    const onSale = pages.html('/partners', during!);
    expect(onSale).not.toBe(listed);
    expect(pages.html('/partners', later!)).toBe(onSale);
    // after its end the page is the list's prices again, as before it started
    expect(pages.html('/partners', after!)).toBe(listed);
    expect(calls).toEqual(['/partners', '/partners']);
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

// The stylesheet was the pre-rendered pages' only render-blocking request (LCP 1.54 s).
describe('the pre-rendered pages inline the stylesheet', () => {
  const CSS = 'body{color:red}.a>b{margin:0}';
  const LINK = '<link rel="stylesheet" crossorigin href="/assets/styles-Ab1_x.css">';
  const page = (head: string, entry: string) =>
    `<html><head><title>x</title><script type="module" crossorigin src="/assets/${entry}.js"></script>` +
    `<link rel="modulepreload" crossorigin href="/assets/styles-Ab1_x.js">${head}</head><body><div id="root"><!--page--></div></body></html>`;

  /** The stylesheets the browser must fetch before it paints: enabled <link rel="stylesheet"> elements. */
  const blockingStylesheets = (html: string) => [...html.matchAll(/<link rel="stylesheet"[^>]*>/g)].map(([link]) => link).filter((link) => !/\sdisabled[\s>]/.test(link));

  it('finds the build\'s stylesheet links', () => {
    expect(linkedStylesheets(page(LINK, 'landing'))).toEqual(['/assets/styles-Ab1_x.css']);
    expect(linkedStylesheets('<link rel="stylesheet" href="https://elsewhere.example/x.css">')).toEqual([]);
  });

  it('replaces the link with the CSS and a disabled link that Vite\'s preload helper finds', () => {
    const html = inlineStylesheets(page(LINK, 'landing'), new Map([['/assets/styles-Ab1_x.css', CSS]]));
    expect(html).toContain(`<style>${CSS}</style><link rel="stylesheet" href="/assets/styles-Ab1_x.css" disabled></head>`);
    expect(blockingStylesheets(html)).toEqual([]);
    // the module script and its preloads are not render-blocking, and stay
    expect(html).toContain('<script type="module" crossorigin src="/assets/landing.js"></script><link rel="modulepreload" crossorigin href="/assets/styles-Ab1_x.js">');
  });

  it('keeps the link when the CSS is missing or would end the <style> element', () => {
    expect(inlineStylesheets(page(LINK, 'landing'), new Map())).toBe(page(LINK, 'landing'));
    expect(inlineStylesheets(page(LINK, 'landing'), new Map([['/assets/styles-Ab1_x.css', 'a::after{content:"</style>"}']]))).toBe(page(LINK, 'landing'));
  });

  it('takes the CSS as written, "$" patterns included', () => {
    const css = `a::after{content:"$&$1$'"}`;
    expect(inlineStylesheets(LINK, new Map([['/assets/styles-Ab1_x.css', css]]))).toBe(`<style>${css}</style><link rel="stylesheet" href="/assets/styles-Ab1_x.css" disabled>`);
  });

  describe('loadPageRenderer', () => {
    const clientDir = mkdtempSync(join(tmpdir(), 'candlewise-prerender-'));
    afterAll(() => rmSync(clientDir, { recursive: true, force: true }));
    mkdirSync(join(clientDir, 'assets'));
    mkdirSync(join(clientDir, 'ssr'));
    writeFileSync(join(clientDir, 'assets', 'styles-Ab1_x.css'), CSS);
    writeFileSync(join(clientDir, 'ssr', 'prerender.js'), 'export const renderLanding = () => "<h1>Hi</h1>";\n');
    writeFileSync(join(clientDir, 'landing.html'), page(LINK, 'landing'));
    writeFileSync(join(clientDir, 'legal.html'), page(LINK, 'legal'));
    writeFileSync(join(clientDir, 'index.html'), page(LINK, 'index'));

    it('reads the build\'s stylesheet once into both templates: the filled page links to no stylesheet it must wait for', async () => {
      const loaded = await loadPageRenderer(clientDir);
      expect(loaded).not.toBeNull();
      for (const template of [loaded!.templates.landing, loaded!.templates.legal]) {
        const html = fillPageTemplate(template, '<h1>Hi</h1>', 'Home');
        expect(html).toContain(`<style>${CSS}</style>`);
        expect(blockingStylesheets(html)).toEqual([]);
        expect(html).toContain('<div id="root"><h1>Hi</h1></div>');
      }
    });
  });
});

describe('pageSettings: the brand mark of the pre-rendered pages', () => {
  const clientDir = mkdtempSync(join(tmpdir(), 'candlewise-mark-'));
  afterAll(() => rmSync(clientDir, { recursive: true, force: true }));
  const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32"/></svg>';
  writeFileSync(join(clientDir, 'favicon.svg'), SVG);
  writeFileSync(join(clientDir, 'big.svg'), `<svg>${' '.repeat(5000)}</svg>`);
  mkdirSync(join(clientDir, 'brand'));
  writeFileSync(join(clientDir, 'brand', 'mark.png'), 'png');
  const settings = publicSiteSettings(loadConfig({}));
  const withMark = (brandLogoUrl: string) => ({ ...settings, brandLogoUrl });

  it('writes the built-in mark (a small SVG of this site) into the page as a data: URL, the rest of the settings as they are', async () => {
    // Regression (Lighthouse mobile LCP): the favicon's own request, on a new connection, counted into the largest paint.
    const page = await pageSettings(withMark('/favicon.svg'), clientDir);
    expect(page).toEqual({ ...withMark('/favicon.svg'), brandLogoUrl: `data:image/svg+xml;base64,${Buffer.from(SVG).toString('base64')}` });
  });

  it('keeps any other mark: elsewhere, not SVG, too large, missing, or outside the client build', async () => {
    for (const url of ['https://cdn.example/mark.svg', '//cdn.example/mark.svg', '/brand/mark.png', '/big.svg', '/missing.svg', '/../candlewise-mark/favicon.svg', '/favicon.svg?v=2']) {
      expect(await pageSettings(withMark(url), clientDir)).toEqual(withMark(url));
    }
  });
});
