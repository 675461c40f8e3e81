import { useEffect, useState } from 'react';
import { saleEnd } from '@shared/campaign';
import { rollingSaleEnd, type Catalogue, type Sale } from '@shared/catalogue';
import { ownListOfPath, ownListSale } from '@shared/price-lists';
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

/**
 * The sale running on the vendor's own list that `page` shows (price-lists.ts), with the instant
 * the cards are priced at; re-renders when that sale ends or the list's next one starts. No sale
 * on the default page and /eu (useSale has theirs).
 */
export function useOwnListSale(page: string): { sale: Sale | null; now: Date } {
  const { catalogue } = useSiteSettings();
  const [now, setNow] = useState(() => new Date());
  const list = catalogue ? ownListOfPath(catalogue, page) : null;
  const sale = catalogue && list ? ownListSale(catalogue, list, now) : null;
  const next = catalogue && list ? nextListChange(catalogue, list.slug, sale, now) : null;
  useEffect(() => {
    if (next === null) return;
    const timer = window.setTimeout(() => setNow(new Date()), Math.min(Math.max(0, next - Date.now()), MAX_TIMEOUT_MS));
    return () => window.clearTimeout(timer);
  }, [next]);
  return { sale, now };
}

/** When the list's prices next change: the running sale's end, else the next sale's start; null: never. */
function nextListChange(catalogue: Catalogue, list: string, running: Sale | null, now: Date): number | null {
  if (running) return running.endsAt === null ? rollingSaleEnd(now).getTime() : Date.parse(running.endsAt);
  const starts = catalogue.sales.filter((sale) => sale.list === list && sale.startsAt !== null && Date.parse(sale.startsAt) > now.getTime()).map((sale) => Date.parse(sale.startsAt!));
  return starts.length > 0 ? Math.min(...starts) : null;
}
