// Built with `vite build --ssr` (scripts/build-client.mjs) and loaded by the server, which renders
// each pre-rendered page once with its site settings and sends it as the first view. See
// docs/decisions/015, 020 and 062.
import { renderToString } from 'react-dom/server';
import type { PageRenderer } from '@shared/landing-page';
import { LandingApp } from './app/landing-app';
import { LandingProviders } from './app/landing-providers';
import { LegalApp } from './app/legal-app';
import { preloadLanding } from './features/landing/landing-gate';
import { renderWithIslands } from './lib/render-islands';

// renderToString cannot wait for a lazy part: load them all before the server renders a page.
await preloadLanding();

export const renderLanding: PageRenderer['renderLanding'] = (settings, page) => {
  const at = { pathname: page, search: '', hash: '' };
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
