import { useSyncExternalStore } from 'react';
import { BREAKPOINT_PX } from '@shared/timing';

/** Whether a CSS media query matches now; re-renders when it changes. Read synchronously on first render, so no layout jump. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (typeof window.matchMedia !== 'function') return () => undefined;
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => typeof window.matchMedia === 'function' && window.matchMedia(query).matches,
    () => false,
  );
}

export const DESKTOP_QUERY = `(min-width: ${BREAKPOINT_PX}px)`;
/** Below the 768 px breakpoint; the spec's mobile layouts. */
export const MOBILE_QUERY = `(max-width: ${BREAKPOINT_PX - 0.02}px)`;
export const WIDE_QUERY = '(min-width: 1024px)';
export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';
