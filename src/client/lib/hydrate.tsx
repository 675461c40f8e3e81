import { startTransition, StrictMode, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';

/**
 * Hydrates the server's HTML in #root. In a transition, so React hydrates in slices of a few
 * milliseconds and yields to the browser in between: no long task, whatever the phone
 * (docs/decisions/020).
 */
export function hydrateInSlices(page: ReactNode): void {
  const root = document.getElementById('root');
  if (!root) throw new Error('the pre-rendered page has no #root element');
  startTransition(() => {
    hydrateRoot(root, <StrictMode>{page}</StrictMode>);
  });
}
