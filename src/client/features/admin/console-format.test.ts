import { describe, expect, it } from 'vitest';
import { formatAge, formatDateTime, formatMoney } from './console-format';

describe('console formatting', () => {
  const now = new Date('2030-01-10T12:00:00Z');

  it('says how long ago in minutes, hours or days', () => {
    expect(formatAge('2030-01-10T11:43:00Z', now)).toBe('17 min');
    expect(formatAge('2030-01-10T09:00:00Z', now)).toBe('3 h');
    expect(formatAge('2030-01-07T12:00:00Z', now)).toBe('3 d');
    expect(formatAge('2030-01-10T12:05:00Z', now)).toBe('0 min');
  });

  it('writes money from minor units and dates in UTC', () => {
    expect(formatMoney(3600, 'usd')).toBe('$36.00');
    expect(formatMoney(2999, 'eur')).toBe('€29.99');
    expect(formatDateTime('2030-01-10T12:00:00Z')).toBe('Jan 10, 2030, 12:00 PM UTC');
  });
});
