// Built with `vite build --ssr` (scripts/build-client.mjs) and loaded by the server, which renders
// each pre-rendered page once with its site settings and sends it as the first view. See
// docs/decisions/015 and 020.
import { renderToString } from 'react-dom/server';
import type { PageRenderer } from '@shared/landing-page';
import { LandingApp } from './app/landing-app';
import { LegalApp } from './app/legal-app';
import { preloadLanding } from './features/landing/landing-gate';

// renderToString cannot wait for a lazy part: load them all before the server renders a page.
await preloadLanding();

export const renderLanding: PageRenderer['renderLanding'] = (settings, kind) => {
  const at = { pathname: kind === 'eu' ? '/eu' : '/', search: '', hash: '' };
  return renderToString(<LandingApp settings={settings} at={at} />);
};

export const renderLegal: PageRenderer['renderLegal'] = (settings, path, eu) => {
  const at = { pathname: path, search: eu ? '?from=eu' : '', hash: '' };
  return renderToString(<LegalApp settings={settings} at={at} />);
};
