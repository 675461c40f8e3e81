import { describe, expect, it } from 'vitest';
import { withChanges } from './search-params';

describe('withChanges', () => {
  it('sets the keys given a value, removes those given none, keeps the rest and leaves the original alone', () => {
    const params = new URLSearchParams('q=ann&page=3&plan=monthly');
    const next = withChanges(params, { q: 'bob', page: undefined, plan: '', failing: '1' });
    expect(next.toString()).toBe('q=bob&failing=1');
    expect(params.toString()).toBe('q=ann&page=3&plan=monthly');
  });
});
