/**
 * Runs `callback` once the browser is idle after painting (requestIdleCallback; a short timeout
 * where it is missing, and at the latest after `maxWaitMs`). Work started here does not compete
 * with the first paint of the page for the network or the main thread. Returns a cancel.
 */
export function whenIdle(callback: () => void, maxWaitMs = 1000): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(callback, { timeout: maxWaitMs });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = window.setTimeout(callback, 50);
  return () => window.clearTimeout(timer);
}
