import { useSyncExternalStore } from 'react';
import { BREAKPOINT_PX } from '@shared/timing';

const MOBILE_QUERY = `(max-width: ${BREAKPOINT_PX - 0.02}px)`;

/** Below 768 px the dashboard shows 'Desktop Required' (spec §2); without matchMedia it is desktop. */
export function useIsMobile(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (typeof window.matchMedia !== 'function') return () => undefined;
      const list = window.matchMedia(MOBILE_QUERY);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => typeof window.matchMedia === 'function' && window.matchMedia(MOBILE_QUERY).matches,
    () => false,
  );
}
