// The landing page's first view as real HTML (issue 15, docs/decisions/015): the client build ships
// a renderer (src/client/prerender.tsx, built into <client>/ssr); the server renders / and /eu with
// its site settings the first time each is asked for in each state of the sale, and keeps them.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isSaleRunning } from '@shared/campaign';
import { landingTitle, type LandingKind, type LandingRenderer } from '@shared/landing-page';
import type { SiteSettings } from '@shared/site';

const MARKER = '<!--landing-->';

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

/** landing.html with the rendered first view and the page's title; `template` already has the settings inlined. */
export function fillLandingTemplate(template: string, markup: string, title: string): string {
  const escapedTitle = title.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return template.replace(/<title>[^<]*<\/title>/, `<title>${escapedTitle}</title>`).replace(MARKER, markup);
}

export type LandingPages = {
  /** The page's HTML for a request now: rendered for the sale's current state, then kept. */
  html: (kind: LandingKind, now: Date) => string;
};

export function landingPages(renderer: LandingRenderer, template: string, settings: SiteSettings): LandingPages {
  const rendered = new Map<string, string>();
  return {
    html(kind, now) {
      // The sale's end changes what the hero and the offer bar show: never send a sale that is over.
      const key = `${kind}:${isSaleRunning(settings, now)}`;
      let page = rendered.get(key);
      if (page === undefined) {
        page = fillLandingTemplate(template, renderer.renderLanding(settings, kind), landingTitle(settings.brandName));
        rendered.set(key, page);
      }
      return page;
    },
  };
}

/** The renderer of a client build, or null for a build without one (the app then renders / itself). */
export async function loadLandingRenderer(clientDir: string): Promise<{ renderer: LandingRenderer; template: string } | null> {
  const rendererFile = join(clientDir, 'ssr', 'prerender.js');
  const templateFile = join(clientDir, 'landing.html');
  if (!existsSync(rendererFile) || !existsSync(templateFile)) return null;
  const template = await readFile(templateFile, 'utf8');
  if (!template.includes(MARKER)) return null;
  const renderer = (await import(pathToFileURL(rendererFile).href)) as LandingRenderer;
  return { renderer, template };
}
