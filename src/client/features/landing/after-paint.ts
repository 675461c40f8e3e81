import { startTransition, useEffect, useState } from 'react';

/**
 * Runs `callback` once the browser is idle after painting (requestIdleCallback; a short timeout
 * where it is missing, and at the latest after `maxWaitMs`). Work started here does not compete
 * with the first paint of the hero for the network or the main thread.
 */
export function whenIdle(callback: () => void, maxWaitMs = 1000): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(callback, { timeout: maxWaitMs });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = window.setTimeout(callback, 50);
  return () => window.clearTimeout(timer);
}

/**
 * False during the first paint, true once the browser was idle after it (or at once when
 * `immediately`). What it reveals renders in a transition: in slices, never one long task.
 */
export function useAfterPaint(immediately = false): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (idle) return;
    return whenIdle(() => startTransition(() => setIdle(true)));
  }, [idle]);
  return immediately || idle;
}
