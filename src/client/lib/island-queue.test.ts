import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hydrateInTurn } from './island-queue';

// An IntersectionObserver the test drives: `show(element)` reports it near the viewport.
let report: ((entries: Partial<IntersectionObserverEntry>[]) => void) | null = null;
class FakeObserver {
  constructor(callback: (entries: Partial<IntersectionObserverEntry>[]) => void) {
    report = callback;
  }
  observe() {}
  disconnect() {}
}
const show = (...elements: Element[]) => report?.(elements.map((target) => ({ target, isIntersecting: true })));

function islands(...names: string[]): HTMLElement[] {
  return names.map((name) => {
    const island = document.createElement('div');
    island.dataset.island = name;
    island.append(document.createElement('section'));
    document.body.append(island);
    return island;
  });
}

/** hydrateInTurn with a hydration the test finishes: `started` lists the islands begun. */
function run(elements: HTMLElement[]) {
  const started: string[] = [];
  const finish: (() => void)[] = [];
  const done = hydrateInTurn(elements, (island) => {
    started.push(island.dataset.island ?? '');
    return new Promise<void>((hydrated) => finish.push(hydrated));
  });
  return { started, done, finishLast: () => finish.at(-1)?.() };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('IntersectionObserver', FakeObserver);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

describe('hydrating islands one at a time', () => {
  it('takes the islands on screen first, the others when the browser is idle, in the page order', async () => {
    const [header, hero, faq, footer] = islands('header', 'hero', 'faq', 'footer');
    const { started, done, finishLast } = run([header!, hero!, faq!, footer!]);
    show(hero!.firstElementChild!, header!.firstElementChild!);
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toEqual(['header']);

    // one at a time: the hero waits until the header is hydrated, and a task more
    await vi.advanceTimersByTimeAsync(1000);
    expect(started).toEqual(['header']);
    finishLast();
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toEqual(['header', 'hero']);

    // nothing else near: the FAQ waits for idle (jsdom has no requestIdleCallback: a short timeout)
    finishLast();
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toEqual(['header', 'hero']);
    await vi.advanceTimersByTimeAsync(100);
    expect(started).toEqual(['header', 'hero', 'faq']);
    finishLast();
    await vi.advanceTimersByTimeAsync(100);
    expect(started).toEqual(['header', 'hero', 'faq', 'footer']);
    let settled = false;
    void done.then(() => (settled = true));
    finishLast();
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(true);
  });

  it('takes an island scrolled near the viewport before those waiting ahead of it', async () => {
    const [features, prices, faq] = islands('features', 'prices', 'faq');
    const { started, finishLast } = run([features!, prices!, faq!]);
    show(faq!.firstElementChild!);
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toEqual(['faq']);
    finishLast();
    await vi.advanceTimersByTimeAsync(1);
    show(prices!.firstElementChild!);
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toEqual(['faq', 'prices']);
  });
});
