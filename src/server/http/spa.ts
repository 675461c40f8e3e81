import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono } from 'hono';
import { isEuLocation, landingPagePath } from '@shared/landing-page';
import { legalPage } from '@shared/legal-pages';
import { isAppPagePath } from '@shared/page-paths';
import { isPriceListPage } from '@shared/price-lists';
import type { SiteSettings } from '@shared/site';
import { ensureBrowserToken, type BrowserTokens } from './browser-token';
import { hasSessionCookie, landingPages, legalPages, loadPageRenderer, pageSettings, type LandingPages, type LegalPages } from './landing';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** JSON inside a <script type="application/json"> block: only "<" can end the block early. */
function siteSettingsScript(settings: SiteSettings): string {
  const json = JSON.stringify(settings).replace(/</g, '\\u003c');
  return `<script id="site-settings" type="application/json">${json}</script>`;
}

/** Files of the client build that are for the server and the build scripts, not for browsers. */
export function isBuildOnly(path: string): boolean {
  const lower = path.toLowerCase();
  return lower === '/.vite' || lower.startsWith('/.vite/') || lower.endsWith('.map');
}

/** index.html with the settings inlined and the configured brand mark as the favicon. */
export function renderIndexHtml(template: string, settings: SiteSettings): string {
  const favicon = settings.brandLogoUrl.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return template
    .replace(/<link rel="icon"[^>]*>/, `<link rel="icon" href="${favicon}" />`)
    .replace('</head>', `${siteSettingsScript(settings)}</head>`);
}

/**
 * Serves the built React app: hashed assets with immutable caching, every other GET falls back to
 * index.html (history routing) with the public site settings inlined, so the first paint needs
 * no extra request; an address that is not one of the app's pages gets it with status 404.
 * `browserTokens`: every page gives the browser its id (browser-token.ts) for the checkout limit.
 */
export async function mountSpa(app: Hono, clientDir: string, settings: SiteSettings | ((now: Date) => SiteSettings), browserTokens: BrowserTokens): Promise<void> {
  // the settings change with the catalogue (decision record 045): each new settings object renders the pages again
  const settingsAt = typeof settings === 'function' ? settings : () => settings;
  const indexTemplate = await readFile(join(clientDir, 'index.html'), 'utf8');
  const prerender = await loadPageRenderer(clientDir);
  // the pre-rendered pages carry a small brand mark of this site in their HTML
  const first = settingsAt(new Date());
  const mark = prerender ? (await pageSettings(first, clientDir)).brandLogoUrl : first.brandLogoUrl;
  let built: { from: SiteSettings; indexHtml: string; landingHtml: LandingPages | null; legalHtml: LegalPages | null } | null = null;
  const pagesAt = (now: Date) => {
    const current = settingsAt(now);
    if (built?.from === current) return built;
    const prerendered = { ...current, brandLogoUrl: mark };
    built = {
      from: current,
      indexHtml: renderIndexHtml(indexTemplate, current),
      landingHtml: prerender ? landingPages(prerender.renderer, renderIndexHtml(prerender.templates.landing, prerendered), prerendered) : null,
      legalHtml: prerender ? legalPages(prerender.renderer, renderIndexHtml(prerender.templates.legal, prerendered), prerendered) : null,
    };
    return built;
  };

  // the build's manifest (.vite/) and any source map stay on the server: a map's sourcesContent is
  // the client's whole source, the operator console's included
  app.use('*', (c, next) => (isBuildOnly(c.req.path) ? Promise.resolve(c.notFound()) : next()));
  app.use(
    '/assets/*',
    serveStatic({
      root: clientDir,
      precompressed: true,
      onFound: (_path, c) => {
        c.header('Cache-Control', IMMUTABLE);
      },
    }),
  );
  app.use(
    '*',
    serveStatic({
      root: clientDir,
      precompressed: true,
      // the HTML templates are served below with the settings inlined, never raw; ssr/ is the server's
      rewriteRequestPath: (path) => (path === '/' || /^\/(index|landing|legal)\.html$/.test(path) || path.startsWith('/ssr/') ? '/__no_such_file__' : path),
      onFound: (_path, c) => {
        c.header('Cache-Control', 'public, max-age=3600');
      },
    }),
  );
  app.get('*', (c) => {
    c.header('Cache-Control', 'no-cache');
    ensureBrowserToken(c, browserTokens);
    // an address that is none of the app's pages is a 404 for browsers, crawlers and monitors
    // alike; the app still comes with it and shows its 'Oops! Page not found' page
    const { search } = new URL(c.req.url);
    const now = new Date();
    const { from, indexHtml, landingHtml, legalHtml } = pagesAt(now);
    // a vendor's price list is a page of the catalogue (/{slug}), pre-rendered like / and /eu
    if (!isAppPagePath(c.req.path) && !isPriceListPage(from.catalogue, c.req.path)) return c.html(indexHtml, 404);
    // the legal pages show nothing that depends on who is signed in: everyone gets them pre-rendered
    const legal = legalPage(c.req.path);
    if (legal && legalHtml) return c.html(legalHtml.html(legal, isEuLocation(c.req.path, search), now));
    const page = landingPagePath(c.req.path, search, from.catalogue);
    if (page === null || landingHtml === null) return c.html(indexHtml);
    // the landing pages answer differently with and without a session cookie
    c.header('Vary', 'Cookie');
    if (hasSessionCookie(c.req.header('cookie'), first.brandSlug)) return c.html(indexHtml);
    return c.html(landingHtml.html(page, now));
  });
}
