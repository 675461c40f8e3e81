import { LandingGate } from './landing-gate';
import { RouterNavProvider } from '@client/lib/router-nav';

// The routes of / and /eu inside the app; the pre-rendered first visit uses landing-main.tsx.

/** / (and /?from=eu, which shows the EU offer). */
export function LandingPage() {
  return (
    <RouterNavProvider>
      <LandingGate />
    </RouterNavProvider>
  );
}

/** /eu: the EU offer with its own pricing. */
export function EuLandingPage() {
  return (
    <RouterNavProvider>
      <LandingGate />
    </RouterNavProvider>
  );
}
