import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { islandIdPrefix, IslandRenderContext } from './islands';

/**
 * The server's HTML of a page with islands (islands.tsx): a first pass finds them, each is
 * rendered apart in `wrap` as the browser will hydrate it (a root of its own, its own useId
 * prefix), and the page is rendered around their HTML. For the server's renderer only
 * (prerender.tsx): it brings React's server code.
 */
export function renderWithIslands(page: ReactElement, wrap: (island: ReactElement) => ReactElement): string {
  const found = new Map<string, ReactElement>();
  renderToString(<IslandRenderContext value={{ found }}>{page}</IslandRenderContext>);
  const html = new Map([...found].map(([name, island]) => [name, renderToString(wrap(island), { identifierPrefix: islandIdPrefix(name) })]));
  return renderToString(<IslandRenderContext value={{ html }}>{page}</IslandRenderContext>);
}
