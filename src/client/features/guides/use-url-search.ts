import { useMemo, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';

// The guides page is driven by the query string, read on every URL change: router
// navigations, the back and forward buttons, and the 'Other Features' links, which only rewrite
// the address bar (history.pushState) without a router navigation. So the address bar itself is
// the source of truth, not the router's copy of it.

const ADDRESS_BAR_CHANGED = 'candlewise:address-bar-changed';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(ADDRESS_BAR_CHANGED, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(ADDRESS_BAR_CHANGED, onChange);
  };
}

const readSearch = () => window.location.search;

/** The current query parameters of the address bar; re-renders whenever they change. */
export function useUrlSearchParams(): URLSearchParams {
  // Router navigations re-render through the router's location; the snapshot then reads the bar.
  useLocation();
  const search = useSyncExternalStore(subscribe, readSearch, () => '');
  return useMemo(() => new URLSearchParams(search), [search]);
}

/** Puts `search` in the address bar as a new history entry, without a router navigation. */
export function rewriteAddressBar(search: string): void {
  // Keeping the router's history state lets its back/forward handling carry on as usual.
  window.history.pushState(window.history.state, '', `${window.location.pathname}${search}`);
  window.dispatchEvent(new Event(ADDRESS_BAR_CHANGED));
}
