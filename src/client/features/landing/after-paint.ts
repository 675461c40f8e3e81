import { startTransition, useEffect, useState } from 'react';
import { whenIdle } from '@client/lib/when-idle';

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
