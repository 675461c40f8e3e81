// Hydrates the islands of what the server rendered for / and /eu (docs/decisions/062), without the
// router or the app's other screens; the rest of the page stays the server's HTML.
import { IdleToaster, LandingProviders } from './app/landing-providers';
import { LANDING_ISLANDS } from './features/landing/landing-islands';
import { hydrateIslands } from './lib/hydrate';

/** Settles once every island is hydrated: a tap held back until then is replayed (after-first-paint.ts). */
export const ready = hydrateIslands({ ...LANDING_ISLANDS, toaster: () => IdleToaster }, (island) => <LandingProviders>{island}</LandingProviders>);
