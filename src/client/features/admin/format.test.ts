import { describe, expect, it } from 'vitest';
import { ageText, dateTimeText, moneyText } from './format';

describe('console formatting', () => {
  const now = new Date('2030-01-10T12:00:00Z');

  it('says how long ago in minutes, hours or days', () => {
    expect(ageText('2030-01-10T11:43:00Z', now)).toBe('17 min');
    expect(ageText('2030-01-10T09:00:00Z', now)).toBe('3 h');
    expect(ageText('2030-01-07T12:00:00Z', now)).toBe('3 d');
    expect(ageText('2030-01-10T12:05:00Z', now)).toBe('0 min');
  });

  it('writes money from minor units, one amount per currency, and times in UTC', () => {
    expect(moneyText([{ amount: 3600, currency: 'usd' }, { amount: 2999, currency: 'eur' }])).toBe('$36.00 + €29.99');
    expect(moneyText([])).toBe('$0.00');
    expect(dateTimeText('2030-01-10T12:00:00Z')).toBe('Jan 10, 2030, 12:00 PM UTC');
    expect(dateTimeText(null)).toBe('—');
  });
});
