import { createContext, useContext, type ComponentType, type ReactElement } from 'react';

/**
 * Islands: the interactive parts of a pre-rendered page, each hydrated as a React root of its own,
 * while the page around them stays the server's HTML and is never hydrated (docs/decisions/062).
 *
 * The page's tree marks each island, `<Island name="faq"><FaqSection /></Island>`. Where the
 * browser renders the page itself (inside the app) an island is just its child. The server's
 * renderer (`renderWithIslands`, prerender.tsx) renders each island apart, as the browser will
 * hydrate it (its own root, its own `useId` prefix), and puts that HTML in a container
 * `<div data-island="faq" data-props="…">` with `display: contents`, so the page's layout does not
 * see it. The child's props travel beside it as JSON; the browser (`hydrateIslands`, hydrate.tsx)
 * finds the component by the island's name in the page's `IslandParts`.
 */

/** The components of a page's islands by name: at hand, or loaded when the island hydrates. */
// The props are the JSON the server wrote beside each island: a component takes whichever it declared.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type IslandParts = Record<string, () => ComponentType<any> | Promise<ComponentType<any>>>;

/** The server's two passes: first it finds the islands, then it renders the page around their HTML. */
export type IslandRender = { found: Map<string, ReactElement> } | { html: Map<string, string> };

export const IslandRenderContext = createContext<IslandRender | null>(null);

/** useId's prefix for an island's root: on the server and in the browser alike, unique on the page. */
export const islandIdPrefix = (name: string) => `${name}-`;

/** The props the server writes beside an island; none when the child has none. */
function islandProps(child: ReactElement): string | undefined {
  const props = child.props as Record<string, unknown>;
  if (Object.keys(props).length === 0) return undefined;
  const json = JSON.stringify(props);
  if (JSON.stringify(JSON.parse(json)) !== json || Object.values(props).some((value) => typeof value === 'function')) {
    throw new Error('an island\'s props must be JSON: the browser reads them back from the page');
  }
  return json;
}

export function Island({ name, children }: { name: string; children: ReactElement }) {
  const render = useContext(IslandRenderContext);
  if (render === null) return children;
  if ('found' in render) {
    if (render.found.has(name)) throw new Error(`two islands are named ${name}`);
    render.found.set(name, children);
    return null;
  }
  return <div data-island={name} data-props={islandProps(children)} className="contents" dangerouslySetInnerHTML={{ __html: render.html.get(name) ?? '' }} />;
}
