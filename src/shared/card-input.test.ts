import { describe, expect, it } from 'vitest';
import { CARD_MESSAGES, formatCardNumber, formatCvc, formatExpiry, luhnValid, parseExpiry, validateCardInput } from './card-input';

const now = new Date('2030-06-15T12:00:00Z');
const valid = { cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Ada Lovelace' };

describe('card field formatting', () => {
  it.each([
    ['4242424242424242', '4242 4242 4242 4242'],
    ['4242-4242 42', '4242 4242 42'],
    ['4', '4'],
    ['42424', '4242 4'],
    ['4242 4242 4242 4242 999', '4242 4242 4242 4242 999'],
  ])('number %s → %s', (input, output) => expect(formatCardNumber(input)).toBe(output));

  it.each([
    ['1', '1'],
    ['4', '04'],
    ['12', '12'],
    ['123', '12 / 3'],
    ['1234', '12 / 34'],
    ['12 / 345', '12 / 34'],
    ['12 / ', '12'],
  ])('expiry %s → %s', (input, output) => expect(formatExpiry(input)).toBe(output));

  it('keeps up to four CVC digits', () => expect(formatCvc('12a345')).toBe('1234'));
});

describe('card checks', () => {
  it('knows the Luhn checksum', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(luhnValid('')).toBe(false);
  });

  it('reads MM / YY', () => {
    expect(parseExpiry('07 / 31')).toEqual({ month: 7, year: 2031 });
    expect(parseExpiry('07 / 3')).toBeNull();
  });

  it('accepts a complete card', () => expect(validateCardInput(valid, now)).toEqual({}));

  it.each([
    [{ cardNumber: '4242 4242' }, { cardNumber: CARD_MESSAGES.numberRequired }],
    [{ cardNumber: '4242 4242 4242 4241' }, { cardNumber: CARD_MESSAGES.numberInvalid }],
    [{ expiry: '12 / 3' }, { expiry: CARD_MESSAGES.expiryIncomplete }],
    [{ expiry: '13 / 34' }, { expiry: CARD_MESSAGES.expiryMonthInvalid }],
    [{ expiry: '05 / 30' }, { expiry: CARD_MESSAGES.expiryPast }],
    [{ cvc: '12' }, { cvc: CARD_MESSAGES.cvcIncomplete }],
    [{ cvc: '12a' }, { cvc: CARD_MESSAGES.cvcIncomplete }],
    [{ name: '   ' }, { name: CARD_MESSAGES.nameRequired }],
  ])('%o → %o', (change, errors) => expect(validateCardInput({ ...valid, ...change }, now)).toEqual(errors));

  it('treats a card as valid through its expiry month', () => {
    expect(validateCardInput({ ...valid, expiry: '06 / 30' }, now)).toEqual({});
  });
});
