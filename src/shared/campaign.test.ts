import { describe, expect, it } from 'vitest';
import {
  currentPrices,
  countdownTitle,
  DEFAULT_REGULAR_PRICES,
  DEFAULT_SALE_LABEL,
  isSaleRunning,
  landingCards,
  saleBanner,
  saleEnd,
  type Campaign,
} from './campaign';
import { ADVERTISED_PRICES, DEFAULT_CARDS, EU_CARDS, PLAN_FEATURES, type PlanType } from './plans';

const SPEC: Campaign = {
  saleEndsAt: '2025-11-26T23:59:59.000Z',
  saleLabel: DEFAULT_SALE_LABEL,
  prices: ADVERTISED_PRICES,
  regularPrices: DEFAULT_REGULAR_PRICES,
};
const ROLLING: Campaign = { ...SPEC, saleEndsAt: null };

describe('when the sale runs', () => {
  it.each([
    ['a week before the end', '2025-11-19T23:59:59.000Z', true],
    ['one second before the end', '2025-11-26T23:59:58.000Z', true],
    ['at the end', '2025-11-26T23:59:59.000Z', false],
    ['a year after the end', '2026-11-26T00:00:00.000Z', false],
  ])('a fixed end: %s → running %s', (_, now, running) => {
    expect(isSaleRunning(SPEC, new Date(now))).toBe(running);
    expect(saleEnd(SPEC, new Date(now)).toISOString()).toBe('2025-11-26T23:59:59.000Z');
  });

  it.each([
    ['2026-11-23T10:00:00.000Z', '2026-11-26T23:59:59.000Z'],
    ['2026-11-23T00:00:00.000Z', '2026-11-26T23:59:59.000Z'],
    ['2026-11-23T23:59:59.999Z', '2026-11-26T23:59:59.000Z'],
    ['2026-12-30T12:00:00.000Z', '2027-01-02T23:59:59.000Z'],
  ])('the demo rolling sale seen at %s ends %s: always running', (now, end) => {
    expect(saleEnd(ROLLING, new Date(now)).toISOString()).toBe(end);
    expect(isSaleRunning(ROLLING, new Date(now))).toBe(true);
  });
});

describe('the price of each plan', () => {
  it.each<[PlanType, number, number]>([
    ['monthly', 3600, 4700],
    ['quarterly', 7200, 14100],
    ['yearly', 20400, 56400],
    // the EU offer and lifetime have no end: the same price before and after
    ['euMonthly', 2999, 2999],
    ['euQuarterly', 5999, 5999],
    ['lifetime', 54999, 54999],
  ])('%s costs %i during the sale and %i after it', (plan, during, after) => {
    expect(currentPrices(SPEC, true)[plan]).toBe(during);
    expect(currentPrices(SPEC, false)[plan]).toBe(after);
  });
});

describe('the cards', () => {
  it('while the sale runs are the spec cards: Black Friday, $36/$24/$17 a month, was $47, Save 23/49/64%', () => {
    expect(landingCards(SPEC, '/', true)).toEqual(DEFAULT_CARDS);
  });

  it.each([
    [0, 'Monthly', '$47'],
    [1, 'Quarterly', '$47'],
    [2, 'Yearly', '$47'],
  ])('after the end, card %i (%s) shows the regular %s/month and no sale wording', (index, name, price) => {
    const card = landingCards(SPEC, '/', false)[index]!;
    expect(card).toEqual({ name, planType: DEFAULT_CARDS[index]!.planType, price, period: '/month', features: PLAN_FEATURES, isPopular: name === 'Quarterly' });
  });

  it.each([true, false])('on /eu are the EU offer cards whether the sale runs (%s) or not', (running) => {
    expect(landingCards(SPEC, '/eu', running)).toEqual(EU_CARDS);
  });

  it.each([
    [{ monthly: 3000 }, 0, '$30', 'Save 36%'],
    [{ quarterly: 9000 }, 1, '$30', 'Save 36%'],
    [{ yearly: 24000 }, 2, '$20', 'Save 57%'],
  ])('re-priced by PRICE_* %j: card %i shows %s, %s', (prices, index, price, savings) => {
    const cards = landingCards({ ...SPEC, prices: { ...ADVERTISED_PRICES, ...prices } }, '/', true);
    expect(cards[index]).toMatchObject({ price, originalPrice: '$47', savings, label: 'Black Friday' });
    cards.forEach((card, i) => {
      if (i !== index) expect(card).toEqual(DEFAULT_CARDS[i]);
    });
  });

  it('a "sale" price above the regular one is shown without sale wording', () => {
    const [monthly] = landingCards({ ...SPEC, prices: { ...ADVERTISED_PRICES, monthly: 5000 } }, '/', true);
    expect(monthly).toMatchObject({ price: '$50' });
    expect(monthly).not.toHaveProperty('originalPrice');
    expect(monthly).not.toHaveProperty('savings');
    expect(monthly).not.toHaveProperty('label');
  });

  it('regular prices come from REGULAR_PRICE_*, per month on the cards', () => {
    const campaign = { ...SPEC, regularPrices: { monthly: 4900, quarterly: 12000, yearly: 36000 } };
    expect(landingCards(campaign, '/', true).map((card) => [card.originalPrice, card.savings])).toEqual([
      ['$49', 'Save 27%'],
      ['$40', 'Save 40%'],
      ['$30', 'Save 43%'],
    ]);
    expect(landingCards(campaign, '/', false).map((card) => card.price)).toEqual(['$49', '$40', '$30']);
  });

  it('carry the configured label', () => {
    expect(landingCards({ ...SPEC, saleLabel: 'Cyber Monday' }, '/', true).map((card) => card.label)).toEqual(['Cyber Monday', 'Cyber Monday', 'Cyber Monday']);
  });
});

describe('the hero banner and the countdown title', () => {
  it.each([
    ['the spec campaign while it runs', SPEC, true, 'Save up to 65%'],
    ['the spec campaign after the end', SPEC, false, null],
    ['re-priced, while it runs: the best saving', { ...SPEC, prices: { ...ADVERTISED_PRICES, yearly: 28200 } }, true, 'Save up to 50%'],
    ['no plan cheaper than regular', { ...SPEC, prices: { ...ADVERTISED_PRICES, monthly: 4700, quarterly: 14100, yearly: 56400 } }, true, null],
  ] as const)('%s: %s', (_, campaign, running, banner) => {
    expect(saleBanner(campaign, running)).toBe(banner);
  });

  it('names the sale in the countdown', () => {
    expect(countdownTitle(SPEC)).toBe('Black Friday Sale');
  });
});
