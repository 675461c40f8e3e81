import { createElement, lazy, type ComponentType } from 'react';

export type LazyPart<P extends object> = ComponentType<P> & {
  /** Loads the part's code; once loaded it renders at once, without suspending. */
  preload: () => Promise<unknown>;
};

/**
 * A component whose code is its own chunk, like React.lazy, that renders synchronously once
 * preloaded. The server's renderer (renderToString, which cannot wait) preloads the landing page's
 * parts so the whole page arrives as HTML; in the browser a part not yet loaded suspends, and React
 * keeps its server HTML until the code is there (docs/decisions/020).
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>): LazyPart<P> {
  let loaded: ComponentType<P> | null = null;
  const preload = () =>
    load().then((component) => {
      loaded = component;
      return component;
    });
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  function Part(props: P) {
    return loaded ? createElement(loaded, props) : createElement(Lazy, props);
  }
  return Object.assign(Part, { preload });
}
