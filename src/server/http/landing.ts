// The landing page's first view and the legal pages as real HTML (docs/decisions/015 and
// 020): the client build ships a renderer (src/client/prerender.tsx, built into <client>/ssr); the
// server renders each page with its site settings the first time it is asked for (/, /eu and each
// vendor price list's /{slug}, in each state of their sale), and keeps it.
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isSaleRunning } from '@shared/campaign';
import { landingTitle, type PageRenderer } from '@shared/landing-page';
import { legalPageTitle, type LEGAL_LINKS } from '@shared/legal-pages';
import { ownListOfPath, ownListSale } from '@shared/price-lists';
import type { SiteSettings } from '@shared/site';

const MARKER = '<!--page-->';

/**
 * Whether the request carries a session cookie (better-auth's `<slug>.session_token`, with the
 * `__Secure-` prefix over HTTPS). Its presence is enough: a visitor without one is certainly
 * anonymous and gets the pre-rendered page; one with it gets the app, which asks who they are and
 * sends members to the dashboard without showing the landing page first.
 */
export function hasSessionCookie(cookieHeader: string | undefined, brandSlug: string): boolean {
  if (!cookieHeader) return false;
  const names = cookieHeader.split(';').map((pair) => pair.split('=', 1).join('').trim());
  return names.some((name) => name === `${brandSlug}.session_token` || name === `__Secure-${brandSlug}.session_token`);
}

/** A page template (landing.html, legal.html) with the rendered page and its title; `template` already has the settings inlined. */
export function fillPageTemplate(template: string, markup: string, title: string): string {
  const escapedTitle = title.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return template.replace(/<title>[^<]*<\/title>/, `<title>${escapedTitle}</title>`).replace(MARKER, markup);
}

export type LandingPages = {
  /** The HTML of the landing page at `page` ('/', '/eu', '/{slug}': landingPagePath's) for a request now: rendered for the sale's current state, then kept. */
  html: (page: string, now: Date) => string;
};

/** Renders a page the first time its key is asked for, then answers from memory. */
function keptPages(): (key: string, render: () => string) => string {
  const rendered = new Map<string, string>();
  return (key, render) => {
    let page = rendered.get(key);
    if (page === undefined) {
      page = render();
      rendered.set(key, page);
    }
    return page;
  };
}

/** Which sale a vendor list's page shows at `now` (its own, decision record 058): '-' for none, '' for the other pages. */
function listSaleKey(settings: SiteSettings, page: string, now: Date): string {
  const list = settings.catalogue ? ownListOfPath(settings.catalogue, page) : null;
  return list && settings.catalogue ? (ownListSale(settings.catalogue, list, now)?.id ?? '-') : '';
}

export function landingPages(renderer: Pick<PageRenderer, 'renderLanding'>, template: string, settings: SiteSettings): LandingPages {
  const kept = keptPages();
  return {
    // The sale's end changes what the hero and the offer bar show: never send a sale that is over
    // (a vendor list's page shows its own list's sale, whose start or end renders it again).
    // The footer shows the year. New settings (a catalogue change) are a new set of pages.
    html: (page, now) =>
      kept(`${page}:${isSaleRunning(settings, now)}:${listSaleKey(settings, page, now)}:${now.getFullYear()}`, () =>
        fillPageTemplate(template, renderer.renderLanding(settings, page), landingTitle(settings.brandName)),
      ),
  };
}

export type LegalPages = {
  /** The legal page's HTML, with 'Back to Homepage' leading to /eu when `eu`; the footer's year is the request's. */
  html: (page: (typeof LEGAL_LINKS)[number], eu: boolean, now: Date) => string;
};

export function legalPages(renderer: Pick<PageRenderer, 'renderLegal'>, template: string, settings: SiteSettings): LegalPages {
  const kept = keptPages();
  return {
    html: (page, eu, now) =>
      kept(`${page.path}:${eu}:${now.getFullYear()}`, () =>
        fillPageTemplate(template, renderer.renderLegal(settings, page.path, eu), legalPageTitle(page.label, settings.brandName)),
      ),
  };
}

export type PageTemplates = { landing: string; legal: string };

// Vite's tag for an entry's stylesheet: <link rel="stylesheet" crossorigin href="/assets/styles-….css">
const STYLESHEET_LINK = /<link rel="stylesheet"[^>]*\shref="(\/assets\/[\w.-]+\.css)"[^>]*>/g;

/** The client build's stylesheets a template links to, as their hrefs (/assets/….css). */
export function linkedStylesheets(template: string): string[] {
  return [...template.matchAll(STYLESHEET_LINK)].map((match) => match[1]!);
}

/**
 * A pre-rendered page's template with its stylesheets inlined (decision 020): the first
 * paint then waits for no second request. Each <link> becomes a <style> followed by the same link
 * `disabled`, which the browser does not fetch but Vite's preload helper sees: a dynamic import
 * lists the stylesheet among its dependencies, and the helper adds a link for any stylesheet the
 * document has no link for, then waits for it before running the import (a second download of the
 * same CSS, and a restyle of the whole page, before hydration). A stylesheet missing from `css`,
 * or one that would end the <style> element early, keeps its link.
 */
export function inlineStylesheets(template: string, css: ReadonlyMap<string, string>): string {
  return template.replace(STYLESHEET_LINK, (link, href: string) => {
    const sheet = css.get(href);
    if (sheet === undefined || /<\/style/i.test(sheet)) return link;
    return `<style>${sheet}</style><link rel="stylesheet" href="${href}" disabled>`;
  });
}

/** The stylesheets the templates link to, read once from the client build (Vite writes the URLs inside them from the site root, so they resolve inline too). */
async function readStylesheets(clientDir: string, templates: PageTemplates): Promise<Map<string, string>> {
  const hrefs = new Set([...linkedStylesheets(templates.landing), ...linkedStylesheets(templates.legal)]);
  const css = new Map<string, string>();
  for (const href of hrefs) {
    const file = join(clientDir, href);
    if (existsSync(file)) css.set(href, await readFile(file, 'utf8'));
  }
  return css;
}

/**
 * The renderer of a client build and its templates, with the stylesheet inlined, or null for a
 * build without them (the app then renders every page itself).
 */
export async function loadPageRenderer(clientDir: string): Promise<{ renderer: PageRenderer; templates: PageTemplates } | null> {
  const rendererFile = join(clientDir, 'ssr', 'prerender.js');
  const files = { landing: join(clientDir, 'landing.html'), legal: join(clientDir, 'legal.html') };
  if (![rendererFile, files.landing, files.legal].every((file) => existsSync(file))) return null;
  const linked = { landing: await readFile(files.landing, 'utf8'), legal: await readFile(files.legal, 'utf8') };
  if (!linked.landing.includes(MARKER) || !linked.legal.includes(MARKER)) return null;
  const css = await readStylesheets(clientDir, linked);
  const templates = { landing: inlineStylesheets(linked.landing, css), legal: inlineStylesheets(linked.legal, css) };
  const renderer = (await import(pathToFileURL(rendererFile).href)) as PageRenderer;
  return { renderer, templates };
}

/** Larger marks stay files: written into every pre-rendered answer, they would cost more than a request. */
const INLINE_MARK_MAX_BYTES = 4096;

/**
 * The settings the pre-rendered pages are rendered with: the brand mark as a data: URL when it is
 * a small SVG file of this site (the built-in /favicon.svg unless BRAND_LOGO_URL says otherwise).
 * The favicon and the header's logo are then in the page rather than requests of their own, each
 * on a new connection while the page downloads: Lighthouse's mobile simulation counted the
 * favicon's into the largest paint (decision 020). The page's inlined settings carry the same
 * URL, so hydration renders what the server did. Any other mark stays as it is.
 */
export async function pageSettings(settings: SiteSettings, clientDir: string): Promise<SiteSettings> {
  const url = settings.brandLogoUrl;
  if (!/^\/[\w./-]+\.svg$/.test(url) || url.includes('..')) return settings;
  const root = resolve(clientDir);
  const file = resolve(root, `.${url}`);
  if (!file.startsWith(root + sep) || !existsSync(file) || (await stat(file)).size > INLINE_MARK_MAX_BYTES) return settings;
  const svg = await readFile(file);
  return { ...settings, brandLogoUrl: `data:image/svg+xml;base64,${svg.toString('base64')}` };
}
