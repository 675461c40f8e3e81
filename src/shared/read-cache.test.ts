import { describe, expect, it, vi } from 'vitest';
import { createReadCache } from './read-cache';

function setUp(ttlMs = 1000, maxEntries?: number) {
  let now = 0;
  const changes = { count: 0 };
  const cache = createReadCache({ ttlMs, changes, now: () => now, ...(maxEntries ? { maxEntries } : {}) });
  let loads = 0;
  const load = vi.fn(async () => `value ${++loads}`);
  return { cache, changes, load, advance: (ms: number) => void (now += ms) };
}

describe('createReadCache', () => {
  it('loads a key once and answers the next reads from memory until the time is up', async () => {
    const { cache, load, advance } = setUp();
    expect(await cache.read('a', load)).toBe('value 1');
    advance(999);
    expect(await cache.read('a', load)).toBe('value 1');
    advance(1);
    expect(await cache.read('a', load)).toBe('value 2');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('shares one load between the reads that ask while it runs', async () => {
    const { cache, load } = setUp();
    const answers = await Promise.all([cache.read('a', load), cache.read('a', load), cache.read('a', load)]);
    expect(answers).toEqual(['value 1', 'value 1', 'value 1']);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('keeps keys apart', async () => {
    const { cache } = setUp();
    expect(await cache.read('a', async () => 'for a')).toBe('for a');
    expect(await cache.read('b', async () => 'for b')).toBe('for b');
    expect(await cache.read('a', async () => 'again')).toBe('for a');
  });

  it('loads again after a change, however young the value', async () => {
    const { cache, changes, load } = setUp();
    await cache.read('a', load);
    changes.count += 1;
    expect(await cache.read('a', load)).toBe('value 2');
    expect(await cache.read('a', load)).toBe('value 2');
  });

  it('never keeps a value whose load overlapped a change', async () => {
    const { cache, changes } = setUp();
    let finish: (value: string) => void = () => undefined;
    const started = cache.read('a', () => new Promise<string>((done) => (finish = done)));
    changes.count += 1; // a write completed while the read was in flight: it may predate it
    finish('old');
    expect(await started).toBe('old');
    expect(await cache.read('a', async () => 'new')).toBe('new');
  });

  it('does not keep a failed load', async () => {
    const { cache } = setUp();
    await expect(cache.read('a', () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(await cache.read('a', async () => 'back')).toBe('back');
  });

  it('keeps nothing with a time of 0', async () => {
    const { cache, load } = setUp(0);
    await cache.read('a', load);
    expect(await cache.read('a', load)).toBe('value 2');
  });

  it('starts over past its size bound', async () => {
    const { cache } = setUp(1000, 2);
    await cache.read('a', async () => 'a1');
    await cache.read('b', async () => 'b1');
    await cache.read('c', async () => 'c1'); // a third key: what was kept is dropped
    expect(await cache.read('a', async () => 'a2')).toBe('a2');
  });
});
