import { describe, expect, it } from 'vitest';
import { ADVERTISED_PRICES, DEFAULT_CARDS, EU_CARDS } from './plans';
import {
  discountAmount,
  discountAppliesToPeriod,
  discountedPrice,
  endOfDay,
  nextPeriodAmount,
  normalizePromotionCode,
  promotedCards,
  promotionBanner,
  promotionCodeProblem,
  promotionRefusal,
  providerCodeOf,
  refusalMessage,
  validatePromotionTerms,
  type PromotionState,
} from './promotions';

const NOW = new Date('2026-03-10T12:00:00Z');

const state = (overrides: Partial<PromotionState> = {}): PromotionState => ({
  code: 'BF20',
  percentOff: 20,
  amountOff: null,
  currency: null,
  duration: 'once',
  durationInMonths: null,
  plans: null,
  firstTimeOnly: false,
  churnedOnly: false,
  maxRedemptions: null,
  expiresAt: null,
  active: true,
  redemptions: 0,
  ...overrides,
});

describe('the code format', () => {
  it('is case-insensitive: codes are kept upper-case', () => {
    expect(normalizePromotionCode('  bf20 ')).toBe('BF20');
  });

  it.each([
    ['BF20', null],
    ['black-friday-2026', null],
    ['AB', 'A promotion code has 3 to 40 characters.'],
    ['X'.repeat(200), 'A promotion code has 3 to 40 characters.'],
    ['BF 20', 'A promotion code may contain only letters, digits and dashes.'],
    ['BF_20', 'A promotion code may contain only letters, digits and dashes.'],
    ['<script>', 'A promotion code may contain only letters, digits and dashes.'],
  ])('%s → %s', (code, problem) => {
    expect(promotionCodeProblem(code)).toBe(problem);
  });
});

describe('validating the terms an operator gives', () => {
  const problemsOf = (input: Parameters<typeof validatePromotionTerms>[0]) => {
    const result = validatePromotionTerms(input, NOW);
    return result.ok ? [] : result.problems.map((problem) => problem.message);
  };

  it('answers normalized terms: a percent once, for all plans, never expiring', () => {
    expect(validatePromotionTerms({ code: 'bf20', percentOff: 20 }, NOW)).toEqual({
      ok: true,
      terms: { code: 'BF20', percentOff: 20, amountOff: null, currency: null, duration: 'once', durationInMonths: null, plans: null, firstTimeOnly: false, churnedOnly: false, maxRedemptions: null, expiresAt: null },
    });
  });

  it('takes an amount off with its currency, plans, a limit and an expiry at the end of that day', () => {
    const result = validatePromotionTerms({ code: 'TEN', amountOff: 1000, currency: 'USD', duration: 'repeating', durationInMonths: 3, plans: ['monthly', 'quarterly'], firstTimeOnly: true, maxRedemptions: 50, expires: '2026-12-31' }, NOW);
    expect(result).toMatchObject({ ok: true, terms: { amountOff: 1000, currency: 'usd', durationInMonths: 3, plans: ['monthly', 'quarterly'], firstTimeOnly: true, maxRedemptions: 50, expiresAt: new Date('2026-12-31T23:59:59.999Z') } });
  });

  it.each([
    [{ code: 'A', percentOff: 0 }, ['A promotion code has 3 to 40 characters.', 'Percent off must be a whole number from 1 to 100.']],
    [{ code: 'BF20', percentOff: 101 }, ['Percent off must be a whole number from 1 to 100.']],
    [{ code: 'BF20', percentOff: 12.5 }, ['Percent off must be a whole number from 1 to 100.']],
    [{ code: 'BF20' }, ['Give either a percent off or an amount off.']],
    [{ code: 'BF20', percentOff: 10, amountOff: 100, currency: 'usd' }, ['Give either a percent off or an amount off, not both.']],
    [{ code: 'BF20', amountOff: -500, currency: 'usd' }, ['Amount off must be a positive whole number of cents (minor units).']],
    [{ code: 'BF20', amountOff: 500 }, ['An amount off needs its currency, e.g. usd.']],
    [{ code: 'BF20', amountOff: 500, currency: 'dollars' }, ['Currency must be a three-letter code such as usd.']],
    [{ code: 'BF20', percentOff: 20, currency: 'usd' }, ['A currency goes with an amount off only.']],
    [{ code: 'BF20', percentOff: 20, durationInMonths: 3 }, ['Months go with a repeating discount only (--duration repeating).']],
    [{ code: 'BF20', percentOff: 20, duration: 'repeating' }, ['A repeating discount needs its number of months.']],
    [{ code: 'BF20', percentOff: 20, duration: 'weekly' }, ['Duration must be once, repeating or forever.']],
    [{ code: 'BF20', percentOff: 20, plans: ['monthly', 'weekly'] }, ['Unknown plan: weekly.']],
    [{ code: 'BF20', percentOff: 20, maxRedemptions: 0 }, ['Maximum redemptions must be a positive whole number.']],
    [{ code: 'BF20', percentOff: 20, expires: '2026-02-30' }, ['The expiry date must be a day written YYYY-MM-DD.']],
    [{ code: 'BF20', percentOff: 20, expires: '2026-03-09' }, ['The expiry date must be in the future.']],
  ])('%j is refused: %j', (input, messages) => {
    expect(problemsOf(input)).toEqual(messages);
  });

  it('endOfDay refuses days that do not exist', () => {
    expect(endOfDay('2028-02-29')).toEqual(new Date('2028-02-29T23:59:59.999Z'));
    expect(endOfDay('2027-02-29')).toBeNull();
    expect(endOfDay('tomorrow')).toBeNull();
  });
});

describe('the discounted price', () => {
  it('takes 20 % off Monthly $36: 2880', () => {
    expect(discountedPrice(3600, 'usd', { percentOff: 20, amountOff: null, currency: null })).toBe(2880);
  });

  it('rounds a percentage to the nearest minor unit, as Stripe does', () => {
    expect(discountAmount(2999, 'usd', { percentOff: 15, amountOff: null, currency: null })).toBe(450); // 449.85
    expect(discountAmount(2999, 'usd', { percentOff: 33, amountOff: null, currency: null })).toBe(990); // 989.67
  });

  it('takes a fixed amount off, never more than the price, and nothing in another currency', () => {
    const tenOff = { percentOff: null, amountOff: 1000, currency: 'usd' };
    expect(discountedPrice(3600, 'usd', tenOff)).toBe(2600);
    expect(discountedPrice(500, 'usd', tenOff)).toBe(0);
    expect(discountedPrice(3600, 'eur', tenOff)).toBe(3600);
  });
});

describe('when a code applies', () => {
  it.each([
    ['an active code', {}, {}, null],
    ['a switched-off code', { active: false }, {}, 'inactive'],
    ['an expired code', { expiresAt: new Date('2026-03-10T11:59:59Z') }, {}, 'expired'],
    ['a fully redeemed code', { maxRedemptions: 3, redemptions: 3 }, {}, 'exhausted'],
    ['a code for other plans', { plans: ['yearly' as const] }, { planType: 'monthly' as const }, 'plan'],
    ['a first-time code for a returning buyer', { firstTimeOnly: true }, { returningBuyer: true }, 'first_time'],
    ['a first-time code before the buyer is known', { firstTimeOnly: true }, {}, null],
    ['a churned-only code for a buyer who never lost access', { churnedOnly: true }, { churned: false }, 'churned_only'],
    ['a churned-only code for a member whose access ended', { churnedOnly: true }, { churned: true }, null],
  ])('%s → %s', (_name, overrides, at, refusal) => {
    expect(promotionRefusal(state(overrides), { now: NOW, ...at })).toBe(refusal);
  });

  it('says each refusal in words the buyer understands', () => {
    expect(refusalMessage('exhausted', 'BF20')).toBe('The code BF20 has been fully redeemed.');
    expect(refusalMessage('plan', 'BF20', 'monthly')).toBe('The code BF20 does not apply to the Monthly plan.');
    expect(refusalMessage('unknown', 'NOPE')).toBe('The code NOPE is not valid.');
    expect(refusalMessage('churned_only', 'BACK20')).toBe('The code BACK20 is for returning members only: it works once your access has ended.');
  });
});

describe('the duration on renewals', () => {
  const start = new Date('2026-01-31T00:00:00Z');
  const periods = ['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30'].map((day) => new Date(`${day}T00:00:00Z`));
  const applied = (terms: Parameters<typeof discountAppliesToPeriod>[0]) => periods.map((period) => discountAppliesToPeriod(terms, start, period));

  it('once: the first invoice only', () => {
    expect(applied({ duration: 'once', durationInMonths: null })).toEqual([true, false, false, false]);
  });

  it('repeating 2 months: the invoices of the first two months', () => {
    expect(applied({ duration: 'repeating', durationInMonths: 2 })).toEqual([true, true, false, false]);
  });

  it('forever: every invoice', () => {
    expect(applied({ duration: 'forever', durationInMonths: null })).toEqual([true, true, true, true]);
  });

  it('MRR counts what the next period charges: a forever code lowers it, a once code does not', () => {
    const twenty = { percentOff: 20, amountOff: null, currency: null };
    const next = new Date('2026-02-28T00:00:00Z');
    expect(nextPeriodAmount(3600, 'usd', { ...twenty, duration: 'forever', durationInMonths: null }, start, next)).toBe(2880);
    expect(nextPeriodAmount(3600, 'usd', { ...twenty, duration: 'once', durationInMonths: null }, start, next)).toBe(3600);
    expect(nextPeriodAmount(3600, 'usd', null, null, next)).toBe(3600);
  });
});

describe('the cards and the banner with a code', () => {
  const twenty = { code: 'BF20', percentOff: 20, amountOff: null, currency: null, plans: null };

  it('shows Monthly $36 as $28.80 with $36 struck through, and per-month prices of longer plans', () => {
    const [monthly, quarterly, yearly] = promotedCards(DEFAULT_CARDS, ADVERTISED_PRICES, '/', twenty, 'usd');
    expect(monthly).toMatchObject({ price: '$28.80', originalPrice: '$36', savings: '20% off with BF20' });
    expect(quarterly).toMatchObject({ price: '$19.20', originalPrice: '$24' });
    expect(yearly).toMatchObject({ price: '$13.60', originalPrice: '$17' });
  });

  it('leaves the cards of plans the code does not cover unchanged, and prices EU plans on /eu', () => {
    const cards = promotedCards(EU_CARDS, ADVERTISED_PRICES, '/eu', { ...twenty, plans: ['euMonthly'] }, 'usd');
    expect(cards[0]).toMatchObject({ price: '$23.99', originalPrice: '$29.99' });
    expect(cards[1]).toBe(EU_CARDS[1]);
    expect(cards[2]).toBe(EU_CARDS[2]);
  });

  it('writes the banner with the code and how long it lasts', () => {
    expect(promotionBanner({ ...twenty, duration: 'once', durationInMonths: null, firstTimeOnly: false })).toBe('20% off with BF20 (on the first payment)');
    expect(promotionBanner({ ...twenty, duration: 'once', durationInMonths: null, firstTimeOnly: false, churnedOnly: true })).toBe('20% off with BF20 (on the first payment, returning members only)');
    expect(promotionBanner({ code: 'TEN', percentOff: null, amountOff: 1000, currency: 'usd', duration: 'repeating', durationInMonths: 3, firstTimeOnly: true })).toBe(
      '$10.00 off with TEN (for 3 months, first purchase only)',
    );
  });
});

describe('the provider copy of a code', () => {
  it('keeps a code as typed, and hides a churned-only one under a suffix of its id (no buyer can type it at the provider)', () => {
    expect(providerCodeOf({ code: 'BF20', churnedOnly: false }, '0d4c2a8e-1111-4111-8111-abcdefabcdef')).toBe('BF20');
    expect(providerCodeOf({ code: 'BACK20', churnedOnly: true }, '0d4c2a8e-1111-4111-8111-abcdefabcdef')).toBe('BACK20-0D4C2A8E1111');
  });
  it('refuses a code for first-time buyers and for returning members at once', () => {
    expect(validatePromotionTerms({ code: 'BOTH', percentOff: 10, firstTimeOnly: true, churnedOnly: true }, NOW)).toEqual({ ok: false, problems: [{ path: 'churnedOnly', message: 'A code is for first-time buyers or for members whose access ended, not both.' }] });
  });
});
