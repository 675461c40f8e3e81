// Hydrates what the server rendered for / and /eu, without the router or the app's other screens.
import { LandingApp } from './app/landing-app';
import { hydrateInSlices } from './lib/hydrate';

hydrateInSlices(<LandingApp />);

export { sectionsIn as ready } from './features/landing/landing-gate';
