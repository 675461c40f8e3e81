import { whenIdle } from './when-idle';

/** How close to the viewport an island hydrates before its turn: it is ready when scrolled to. */
const NEAR_MARGIN = '50% 0px';

/**
 * The longest an island off screen waits for the browser to be idle. Taps held back until every
 * island is hydrated (after-first-paint.ts) wait for the last one, so a busy phone does not wait
 * a full second per island.
 */
const IDLE_WAIT_MS = 250;

/** The next task: whatever the browser has waiting (input, a frame) runs first. */
const nextTask = () => new Promise<void>((resume) => setTimeout(resume, 0));

/**
 * Hydrates a page's islands one at a time, each in tasks of its own with a yield in between, so
 * no island's work joins another's in one long task (docs/decisions/062). An island on or near the
 * screen goes first, the header and the hero at once; the others wait until the browser is idle,
 * in the page's order, or until the visitor scrolls near one. Settles when all are hydrated.
 *
 * An island's container has `display: contents` and no box of its own: its first element is what
 * is watched (one that is hidden, or none at all, waits for idle).
 */
export async function hydrateInTurn(islands: HTMLElement[], hydrate: (island: HTMLElement) => Promise<void>): Promise<void> {
  const waiting = [...islands];
  const near = new Set<Element>();
  let wake = () => {};
  const watched = new Map<Element, HTMLElement>();
  const observer =
    typeof IntersectionObserver === 'undefined'
      ? null
      : new IntersectionObserver(
          (entries) => {
            const nearing = entries.flatMap((entry) => (entry.isIntersecting ? (watched.get(entry.target) ?? []) : []));
            for (const island of nearing) near.add(island);
            if (nearing.length > 0) wake();
          },
          { rootMargin: NEAR_MARGIN },
        );
  for (const island of waiting) {
    const box = island.firstElementChild ?? island;
    watched.set(box, island);
    observer?.observe(box);
  }
  try {
    while (waiting.length > 0) {
      let next = waiting.find((island) => near.has(island));
      if (!next) {
        await new Promise<void>((resume) => {
          const cancel = whenIdle(() => resume(), IDLE_WAIT_MS);
          wake = () => {
            cancel();
            resume();
          };
        });
        wake = () => {};
        next = waiting.find((island) => near.has(island)) ?? (waiting[0] as HTMLElement);
      }
      waiting.splice(waiting.indexOf(next), 1);
      await hydrate(next);
      await nextTask();
    }
  } finally {
    observer?.disconnect();
  }
}
