import { useId, useState, useSyncExternalStore, type ReactNode } from 'react';

/** The HTML the server rendered in the element marked `id`, when this page came from the server. */
function serverHtml(id: string): string | null {
  if (typeof document === 'undefined') return null;
  return document.querySelector(`[data-kept="${CSS.escape(id)}"]`)?.innerHTML ?? null;
}

/**
 * Content the browser never renders again: the server renders `server` into a box, and a page
 * hydrating that HTML keeps it as it is (React hands the same markup back as innerHTML, so it
 * neither compares nor rebuilds the elements inside). A page the browser renders itself (inside
 * the app, with no server HTML) shows `client` instead. For what has no behaviour and is costly to
 * build, such as a chart's SVG (docs/decisions/020).
 */
export function KeptHtml({ server, client, className }: { server: () => ReactNode; client: ReactNode; className?: string }) {
  const id = useId();
  const [kept] = useState(() => serverHtml(id));
  const onServer = useSyncExternalStore(noChange, () => false, () => true);
  if (kept !== null) return <div data-kept={id} className={className} dangerouslySetInnerHTML={{ __html: kept }} />;
  if (!onServer) return client;
  return (
    <div data-kept={id} className={className}>
      {server()}
    </div>
  );
}

const noChange = () => () => undefined;
