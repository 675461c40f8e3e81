import { describe, expect, it } from 'vitest';
import { DEFAULT_POOL_SIZE, lanesFor } from './client';

describe('background lanes from the pool size', () => {
  it('takes two fifths of the pool, at most 8, at least 1, so requests keep most connections', () => {
    expect(lanesFor(DEFAULT_POOL_SIZE)).toBe(8);
    expect(lanesFor(10)).toBe(4);
    expect(lanesFor(5)).toBe(2);
    expect(lanesFor(200)).toBe(8);
    expect(lanesFor(2)).toBe(1);
  });
});
