import { useEffect, useState } from 'react';
import { saleEnd } from '@shared/campaign';
import { useSiteSettings } from './site-settings';

// setTimeout's longest delay; an end further away is reached in several steps.
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Whether the sale runs (campaign.ts), re-rendering the moment it ends so the cards, hero and
 * offer bar drop their sale wording together. A rolling end is fixed when the page opens.
 */
export function useSale(): { running: boolean; endsAt: Date } {
  const settings = useSiteSettings();
  const [openedAt] = useState(() => new Date());
  const [now, setNow] = useState(openedAt);
  const end = saleEnd(settings, openedAt).getTime();
  const running = now.getTime() < end;
  useEffect(() => {
    if (!running) return;
    const timer = window.setTimeout(() => setNow(new Date()), Math.min(Math.max(0, end - Date.now()), MAX_TIMEOUT_MS));
    return () => window.clearTimeout(timer);
  }, [running, end, now]);
  return { running, endsAt: new Date(end) };
}
