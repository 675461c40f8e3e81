import { createElement, useId, useState, useSyncExternalStore, type HTMLAttributes, type ReactNode } from 'react';

/** The HTML the server rendered in the element marked `id`, when this page came from the server. */
function serverHtml(id: string): string | null {
  if (typeof document === 'undefined') return null;
  return document.querySelector(`[data-kept="${CSS.escape(id)}"]`)?.innerHTML ?? null;
}

type Box = { as?: 'div' | 'ul' | 'figure' | 'section' } & Pick<HTMLAttributes<HTMLElement>, 'className' | 'aria-hidden' | 'aria-label' | 'aria-labelledby'>;

/**
 * Content the browser never renders again: the server renders `server` into a box, and a page
 * hydrating that HTML keeps it as it is (React hands the same markup back as innerHTML, so it
 * neither compares nor builds the elements inside, nor runs their components). A page the browser
 * renders itself (inside the app, with no server HTML) shows `client` instead. For what has no
 * behaviour: a chart's SVG, the landing page's static text (docs/decisions/020).
 */
export function KeptHtml({ server, client, as = 'div', ...box }: Box & { server: () => ReactNode; client: ReactNode }) {
  const id = useId();
  const [kept] = useState(() => serverHtml(id));
  if (kept !== null) return createElement(as, { ...box, 'data-kept': id, dangerouslySetInnerHTML: { __html: kept } });
  return <FreshHtml id={id} as={as} box={box} server={server} client={client} />;
}

/** KeptHtml where no server HTML is kept: on the server the marked box, in the browser `client`. */
function FreshHtml({ id, as, box, server, client }: { id: string; as: NonNullable<Box['as']>; box: Omit<Box, 'as'>; server: () => ReactNode; client: ReactNode }) {
  const onServer = useSyncExternalStore(noChange, () => false, () => true);
  return onServer ? createElement(as, { ...box, 'data-kept': id }, server()) : client;
}

/**
 * Static markup in an element of its own (`as`, with its attributes) that a pre-rendered page
 * keeps without hydrating; rendered as usual where the browser renders the page itself. The HTML
 * gains only the `data-kept` attribute.
 */
export function StaticHtml({ children, as = 'div', ...box }: Box & { children: ReactNode }) {
  return <KeptHtml as={as} {...box} server={() => children} client={createElement(as, box, children)} />;
}

const noChange = () => () => undefined;
