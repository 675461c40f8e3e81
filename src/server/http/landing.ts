// The landing page's first view and the legal pages as real HTML (issue 15, docs/decisions/015 and
// 020): the client build ships a renderer (src/client/prerender.tsx, built into <client>/ssr); the
// server renders each page with its site settings the first time it is asked for (for / and /eu in
// each state of the sale), and keeps it.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isSaleRunning } from '@shared/campaign';
import { landingTitle, type LandingKind, type PageRenderer } from '@shared/landing-page';
import { legalPageTitle, type LEGAL_LINKS } from '@shared/legal-pages';
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
  /** The page's HTML for a request now: rendered for the sale's current state, then kept. */
  html: (kind: LandingKind, now: Date) => string;
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

export function landingPages(renderer: Pick<PageRenderer, 'renderLanding'>, template: string, settings: SiteSettings): LandingPages {
  const kept = keptPages();
  return {
    // The sale's end changes what the hero and the offer bar show: never send a sale that is over.
    // The footer shows the year.
    html: (kind, now) =>
      kept(`${kind}:${isSaleRunning(settings, now)}:${now.getFullYear()}`, () => fillPageTemplate(template, renderer.renderLanding(settings, kind), landingTitle(settings.brandName))),
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

/** The renderer of a client build and its templates, or null for a build without them (the app then renders every page itself). */
export async function loadPageRenderer(clientDir: string): Promise<{ renderer: PageRenderer; templates: PageTemplates } | null> {
  const rendererFile = join(clientDir, 'ssr', 'prerender.js');
  const files = { landing: join(clientDir, 'landing.html'), legal: join(clientDir, 'legal.html') };
  if (![rendererFile, files.landing, files.legal].every((file) => existsSync(file))) return null;
  const templates = { landing: await readFile(files.landing, 'utf8'), legal: await readFile(files.legal, 'utf8') };
  if (!templates.landing.includes(MARKER) || !templates.legal.includes(MARKER)) return null;
  const renderer = (await import(pathToFileURL(rendererFile).href)) as PageRenderer;
  return { renderer, templates };
}
