// Hydrates the legal page the server rendered, without the router or the app's other screens.
import { LegalApp } from './app/legal-app';
import { hydrateInSlices } from './lib/hydrate';

hydrateInSlices(<LegalApp />);
