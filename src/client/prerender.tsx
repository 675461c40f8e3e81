// Built with `vite build --ssr` (scripts/build-client.mjs) and loaded by the server, which renders
// each landing page once with its site settings and sends it as the first view. See docs/decisions/015.
import { renderToString } from 'react-dom/server';
import type { LandingKind, LandingRenderer } from '@shared/landing-page';
import type { SiteSettings } from '@shared/site';
import { LandingApp } from './app/landing-app';

export const renderLanding: LandingRenderer['renderLanding'] = (settings: SiteSettings, kind: LandingKind) => {
  const at = { pathname: kind === 'eu' ? '/eu' : '/', search: '', hash: '' };
  return renderToString(<LandingApp settings={settings} at={at} />);
};
