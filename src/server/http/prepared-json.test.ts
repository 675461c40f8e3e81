import { describe, expect, it } from 'vitest';
import { acceptsGzip, matchesEtag, prepareJson } from './prepared-json';

describe('acceptsGzip', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['gzip', true],
    ['gzip, deflate, br', true],
    ['br;q=1, GZIP;q=0.5', true],
    ['gzip;q=0', false],
    ['identity', false],
    ['*', true],
    ['*;q=0', false],
    ['gzip;q=0, *', false],
  ])('%j → %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});

const CACHE = { 'cache-control': 'private, no-cache', vary: 'Cookie' };

describe('prepareJson', () => {
  it('writes the three answers\' headers once: caching, the ETag, Vary with Accept-Encoding, and each body\'s own length', () => {
    const answer = prepareJson({ text: 'x'.repeat(2000) }, CACHE);
    const cache = { 'cache-control': 'private, no-cache', vary: 'Cookie, Accept-Encoding', etag: answer.etag };
    expect(answer.headers.notModified).toEqual(cache);
    expect(answer.headers.plain).toEqual({ ...cache, 'content-type': 'application/json', 'content-length': String(answer.body.byteLength) });
    expect(answer.headers.gzipped).toEqual({ ...cache, 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(answer.gzipped.byteLength) });
    expect(answer.gzipped.byteLength).toBeLessThan(answer.body.byteLength);
    expect(prepareJson({}, { 'cache-control': 'no-cache' }).headers.notModified.vary).toBe('Accept-Encoding');
  });
});

describe('matchesEtag', () => {
  const etag = prepareJson({ a: 1 }, CACHE).etag;
  it.each([
    [undefined, false],
    [etag, true],
    [`W/${etag}`, true],
    [`"other", ${etag}`, true],
    ['*', true],
    ['"other"', false],
  ])('%j → %s', (header, expected) => {
    expect(matchesEtag(header, etag)).toBe(expected);
  });

  it('gives another value another ETag', () => {
    expect(prepareJson({ a: 2 }, CACHE).etag).not.toBe(etag);
  });
});
