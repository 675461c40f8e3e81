// Built with `vite build --ssr` (scripts/build-client.mjs) and loaded by the server, which renders
// each pre-rendered page once with its site settings and sends it as the first view. See
// docs/decisions/015, 020 and 062.
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import type { PageRenderer } from '@shared/landing-page';
import { LandingApp, LandingProviders } from './app/landing-app';
import { LegalApp } from './app/legal-app';
import { preloadLanding } from './features/landing/landing-gate';
import { islandIdPrefix, IslandRenderContext } from './lib/islands';

// renderToString cannot wait for a lazy part: load them all before the server renders a page.
await preloadLanding();

/**
 * A page with islands (lib/islands.tsx): a first pass finds them, each is rendered apart in
 * `wrap` as the browser will hydrate it (a root of its own, its own useId prefix), and the page
 * is rendered around their HTML.
 */
function renderWithIslands(page: ReactElement, wrap: (island: ReactElement) => ReactElement): string {
  const found = new Map<string, ReactElement>();
  renderToString(<IslandRenderContext value={{ found }}>{page}</IslandRenderContext>);
  const html = new Map([...found].map(([name, island]) => [name, renderToString(wrap(island), { identifierPrefix: islandIdPrefix(name) })]));
  return renderToString(<IslandRenderContext value={{ html }}>{page}</IslandRenderContext>);
}

export const renderLanding: PageRenderer['renderLanding'] = (settings, kind) => {
  const at = { pathname: kind === 'eu' ? '/eu' : '/', search: '', hash: '' };
  return renderWithIslands(<LandingApp settings={settings} at={at} />, (island) => (
    <LandingProviders settings={settings} at={at}>
      {island}
    </LandingProviders>
  ));
};

export const renderLegal: PageRenderer['renderLegal'] = (settings, path, eu) => {
  const at = { pathname: path, search: eu ? '?from=eu' : '', hash: '' };
  return renderToString(<LegalApp settings={settings} at={at} />);
};
