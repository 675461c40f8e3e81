import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SCROLL_SETTLE_MS, scrollToSettled } from './scroll-to-settled';

// A page: an image above the target section, the target (holding its own figure), an image below.
function page() {
  document.body.innerHTML = `
    <main>
      <section><img id="above" src="/a.svg" alt=""></section>
      <section id="target"><h2>Target</h2><img id="inside" src="/b.svg" alt=""></section>
      <section><img id="below" src="/c.svg" alt=""></section>
    </main>`;
  const byId = (id: string) => document.getElementById(id)!;
  const target = byId('target');
  const scrolls = vi.fn();
  target.scrollIntoView = scrolls;
  const load = (id: string) => byId(id).dispatchEvent(new Event('load'));
  return { target, scrolls, load };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
});

describe('scrollToSettled', () => {
  it('smooth-scrolls the target to the top at once', () => {
    const { scrolls } = page();
    scrollToSettled(document.getElementById('target')!);
    expect(scrolls).toHaveBeenCalledTimes(1);
    expect(scrolls).toHaveBeenCalledWith({ behavior: 'smooth', block: 'start' });
  });

  // Regression: an image loading above the section during the smooth scroll pushed the section
  // down, and the Table of Contents jump stopped short of it.
  it('aims again each time an image above the target finishes loading', () => {
    const { target, scrolls, load } = page();
    scrollToSettled(target);
    load('above');
    expect(scrolls).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(SCROLL_SETTLE_MS - 1);
    load('above');
    expect(scrolls).toHaveBeenCalledTimes(3);
    expect(scrolls).toHaveBeenLastCalledWith({ behavior: 'smooth', block: 'start' });
  });

  it('ignores images inside or below the target, which cannot move it', () => {
    const { target, scrolls, load } = page();
    scrollToSettled(target);
    load('inside');
    load('below');
    expect(scrolls).toHaveBeenCalledTimes(1);
  });

  it('stops once the page has settled', () => {
    const { target, scrolls, load } = page();
    scrollToSettled(target);
    vi.advanceTimersByTime(SCROLL_SETTLE_MS);
    load('above');
    expect(scrolls).toHaveBeenCalledTimes(1);
  });

  it.each(['wheel', 'touchstart', 'keydown', 'pointerdown'])('lets the user take over: %s stops it', (type) => {
    const { target, scrolls, load } = page();
    scrollToSettled(target);
    window.dispatchEvent(new Event(type));
    load('above');
    expect(scrolls).toHaveBeenCalledTimes(1);
  });

  it('stops when told to (the next jump or leaving the page)', () => {
    const { target, scrolls, load } = page();
    const stop = scrollToSettled(target);
    stop();
    load('above');
    expect(scrolls).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});
