import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterReact, loadAfterFirstPaint } from './after-first-paint';

// React's code, as far as afterReact sees it: the order in which it and the page's code load.
const loaded = vi.hoisted(() => [] as string[]);
vi.mock('./hydrate', () => {
  loaded.push('react');
  return { hydrateInSlices: () => undefined };
});

type Deliver = (names: string[]) => void;

/** A PerformanceObserver that supports paint timing and delivers the entries the test hands it. */
function fakePaintTiming(): { deliver: Deliver; observed: () => number; disconnected: () => boolean } {
  let callback: PerformanceObserverCallback | null = null;
  let observed = 0;
  let disconnected = false;
  class FakeObserver {
    static supportedEntryTypes = ['paint', 'largest-contentful-paint'];
    constructor(listener: PerformanceObserverCallback) {
      callback = listener;
    }
    observe() {
      observed++;
    }
    disconnect() {
      disconnected = true;
    }
  }
  vi.stubGlobal('PerformanceObserver', FakeObserver);
  return {
    deliver: (names) => callback?.({ getEntries: () => names.map((name) => ({ name })) } as unknown as PerformanceObserverEntryList, {} as PerformanceObserver),
    observed: () => observed,
    disconnected: () => disconnected,
  };
}

describe('loadAfterFirstPaint', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('loads the code only once the first contentful paint is reported, not at the next frame', async () => {
    // Regression (Lighthouse mobile LCP): code requested at the next animation frame finished
    // loading before that frame reached the screen, and counted into the largest paint.
    vi.useFakeTimers();
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (frame: FrameRequestCallback) => frames.push(frame));
    const timing = fakePaintTiming();
    const load = vi.fn(() => Promise.resolve());

    loadAfterFirstPaint(load);
    expect(timing.observed()).toBe(1);
    frames.forEach((frame) => frame(0));
    await vi.runAllTimersAsync();
    expect(load).not.toHaveBeenCalled();

    timing.deliver(['first-paint']);
    await vi.runAllTimersAsync();
    expect(load).not.toHaveBeenCalled();

    timing.deliver(['first-contentful-paint']);
    expect(timing.disconnected()).toBe(true);
    await vi.runAllTimersAsync();
    expect(load).toHaveBeenCalledOnce();
  });

  it('loads the code at the next frame where paint timing is missing', async () => {
    vi.useFakeTimers();
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (frame: FrameRequestCallback) => frames.push(frame));
    vi.stubGlobal('PerformanceObserver', undefined);
    const load = vi.fn(() => Promise.resolve());

    loadAfterFirstPaint(load);
    await vi.runAllTimersAsync();
    expect(load).not.toHaveBeenCalled();
    frames.forEach((frame) => frame(0));
    await vi.runAllTimersAsync();
    expect(load).toHaveBeenCalledOnce();
  });

  it('replays a tap on a button made before the code had loaded, once it has', async () => {
    vi.useFakeTimers();
    const timing = fakePaintTiming();
    let loaded = () => {};
    const load = vi.fn(() => new Promise<void>((done) => (loaded = done)));
    const button = document.createElement('button');
    document.body.append(button);
    const clicks = vi.fn();
    button.addEventListener('click', clicks);

    loadAfterFirstPaint(load);
    button.click();
    expect(clicks).not.toHaveBeenCalled();
    timing.deliver(['first-contentful-paint']);
    await vi.runAllTimersAsync();
    expect(load).toHaveBeenCalledOnce();
    loaded();
    await vi.runAllTimersAsync();
    expect(clicks).toHaveBeenCalledOnce();
    button.remove();
  });
});

describe('afterReact', () => {
  afterEach(() => vi.useRealTimers());

  it("loads React's code first and the page's in a later task, so their evaluations are two tasks", async () => {
    vi.useFakeTimers();
    const loadPage = vi.fn(async () => {
      loaded.push('page');
      return 'page';
    });
    const loading = afterReact(loadPage)();
    // the same module: once it has loaded here, afterReact's import has too
    await import('./hydrate');
    for (let turn = 0; turn < 5; turn++) await Promise.resolve();
    expect(loaded).toEqual(['react']);
    // nothing has run the next task yet
    expect(loadPage).not.toHaveBeenCalled();
    await vi.runAllTimersAsync();
    await expect(loading).resolves.toBe('page');
    expect(loaded).toEqual(['react', 'page']);
  });
});
