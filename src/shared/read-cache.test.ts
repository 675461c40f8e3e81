import { describe, expect, it, vi } from 'vitest';
import { approximateBytes, createReadCache } from './read-cache';

function setUp(ttlMs = 1000, maxBytes?: number) {
  let now = 0;
  const changes = { count: 0 };
  const cache = createReadCache({ ttlMs, changes, now: () => now, ...(maxBytes ? { maxBytes } : {}) });
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

  it('loads again when the clock is set back: a value from the future is not fresh', async () => {
    const { cache, load, advance } = setUp();
    advance(10_000);
    expect(await cache.read('a', load)).toBe('value 1');
    advance(-5_000);
    expect(await cache.read('a', load)).toBe('value 2');
    expect(await cache.read('a', load)).toBe('value 2');
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

  it('drops the oldest values past its byte bound, whatever their count', async () => {
    const { cache } = setUp(1000, 4000);
    const value = 'v'.repeat(500); // about 1 KB with its key
    for (const key of ['a', 'b', 'c', 'd', 'e']) await cache.read(key, async () => value);
    expect(cache.bytes).toBeLessThanOrEqual(4000);
    expect(cache.size).toBeLessThan(5);
    expect(await cache.read('a', async () => 'a2')).toBe('a2'); // the oldest went first
    expect(await cache.read('e', async () => 'e2')).toBe(value); // the newest stayed
  });

  // 2,500 anonymous session checks with 7 KB junk each kept 103 MB: keys count too
  it('counts the key: many distinct large keys stay under the bound', async () => {
    const { cache } = setUp(60_000, 64 * 1024);
    for (let index = 0; index < 1000; index += 1) await cache.read(`${index}:${'x'.repeat(7000)}`, async () => null);
    expect(cache.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(cache.size).toBeLessThanOrEqual(5);
  });

  it('never keeps a value larger than the whole bound, yet answers it', async () => {
    const { cache } = setUp(1000, 1000);
    expect(await cache.read('big', async () => 'x'.repeat(10_000))).toHaveLength(10_000);
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  it('lets expired values go on the next read, so their memory returns', async () => {
    const { cache, advance } = setUp();
    await cache.read('a', async () => 'a');
    const oneEntry = cache.bytes;
    for (const key of ['b', 'c']) await cache.read(key, async () => key);
    expect(cache.size).toBe(3);
    advance(1000);
    await cache.read('d', async () => 'd');
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBe(oneEntry);
  });

  it('lets values read before a change go on the next read', async () => {
    const { cache, changes } = setUp();
    for (const key of ['a', 'b', 'c']) await cache.read(key, async () => key);
    changes.count += 1;
    await cache.read('d', async () => 'd');
    expect(cache.size).toBe(1);
  });

  it('shares a value keep refuses with the reads that asked meanwhile, then drops it', async () => {
    const { cache, load } = setUp();
    const keepNone = () => false;
    const answers = await Promise.all([cache.read('a', load, keepNone), cache.read('a', load, keepNone)]);
    expect(answers).toEqual(['value 1', 'value 1']);
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
    expect(await cache.read('a', load, keepNone)).toBe('value 2');
  });

  it('keeps what keep accepts', async () => {
    const { cache, load } = setUp();
    const exists = (value: string) => value !== 'value 2';
    await cache.read('a', load, exists);
    expect(await cache.read('a', load, exists)).toBe('value 1');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('returns to zero bytes once everything is gone', async () => {
    const { cache, advance } = setUp();
    await cache.read('a', async () => ({ status: 200, body: '{"user":{}}', cookies: ['x=1'], at: new Date(0) }));
    expect(cache.bytes).toBeGreaterThan(0);
    await expect(cache.read('b', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    advance(1000);
    await cache.read('c', async () => 'c');
    advance(1000);
    await expect(cache.read('d', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });
});

describe('approximateBytes', () => {
  it('grows with the text a value holds and ends on a value that contains itself', () => {
    expect(approximateBytes('x'.repeat(1000))).toBeGreaterThanOrEqual(2000);
    expect(approximateBytes({ body: 'x'.repeat(1000) })).toBeGreaterThan(approximateBytes('x'.repeat(1000)));
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(approximateBytes(loop)).toBeGreaterThan(0);
  });
});
