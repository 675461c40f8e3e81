import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadAfterFirstPaint } from './after-first-paint';

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
