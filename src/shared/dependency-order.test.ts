import { describe, expect, it } from 'vitest';
import { dependencyOrder } from './dependency-order';

describe('dependencyOrder', () => {
  it('puts every name after what it depends on, and keeps the given order otherwise', () => {
    const order = dependencyOrder(['orders', 'audit', 'user', 'plans', 'order_items'], [
      ['orders', 'user'],
      ['order_items', 'orders'],
      ['orders', 'plans'],
    ]);
    expect(order).toEqual(['audit', 'user', 'plans', 'orders', 'order_items']);
  });

  it('ignores a name that depends on itself and edges to names not listed', () => {
    expect(dependencyOrder(['comments', 'posts'], [['comments', 'comments'], ['comments', 'posts'], ['posts', 'elsewhere']])).toEqual(['posts', 'comments']);
  });

  it('refuses a circle, naming the names in it', () => {
    expect(() => dependencyOrder(['a', 'b', 'c', 'free'], [['a', 'b'], ['b', 'c'], ['c', 'a']])).toThrow('these depend on each other in a circle: a, b, c');
  });
});
