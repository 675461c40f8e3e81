import { createElement, startTransition, StrictMode, useEffect, type ReactElement, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { islandIdPrefix, type IslandParts } from './islands';
import { hydrateInTurn } from './island-queue';

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

/** Tells when its root has committed: the island is hydrated then. */
function Committed({ onCommit, children }: { onCommit: () => void; children: ReactNode }) {
  useEffect(onCommit, [onCommit]);
  return children;
}

/**
 * Hydrates the page's islands (lib/islands.tsx), each as a root of its own, one after another
 * (island-queue.ts), and leaves the HTML around them as the server sent it. `wrap` gives each
 * island the page's providers, as the server rendered it. Settles once all are hydrated.
 */
export function hydrateIslands(parts: IslandParts, wrap: (island: ReactElement) => ReactElement): Promise<void> {
  const islands = [...document.querySelectorAll<HTMLElement>('[data-island]')];
  return hydrateInTurn(islands, async (container) => {
    const name = container.dataset.island ?? '';
    const part = parts[name];
    if (!part) throw new Error(`the page has no code for its island ${name}`);
    const island = createElement(await part(), container.dataset.props ? (JSON.parse(container.dataset.props) as object) : null);
    await new Promise<void>((hydrated) => {
      // a transition: React hydrates the island in slices of a few milliseconds (decision 020)
      startTransition(() => {
        hydrateRoot(container, <StrictMode><Committed onCommit={hydrated}>{wrap(island)}</Committed></StrictMode>, { identifierPrefix: islandIdPrefix(name) });
      });
    });
  });
}
