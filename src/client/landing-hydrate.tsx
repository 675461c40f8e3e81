// Hydrates what the server rendered for / and /eu, without the router or the app's other screens.
// In a transition, so React hydrates in slices of a few milliseconds and yields to the browser in
// between: no long task, whatever the phone (docs/decisions/019).
import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { LandingApp } from './app/landing-app';

const root = document.getElementById('root');
if (!root) throw new Error('landing.html has no #root element');

startTransition(() => {
  hydrateRoot(
    root,
    <StrictMode>
      <LandingApp />
    </StrictMode>,
  );
});
