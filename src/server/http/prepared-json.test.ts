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

describe('matchesEtag', () => {
  const etag = prepareJson({ a: 1 }).etag;
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
    expect(prepareJson({ a: 2 }).etag).not.toBe(etag);
  });
});
