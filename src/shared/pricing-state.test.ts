import { describe, expect, it } from 'vitest';
import { DEFAULT_REGULAR_PRICES, landingCards, type Campaign } from './campaign';
import { activeCatalogue } from './catalogue';
import { planChangePage, type BoughtOn } from './catalogue-publishing';
import { ADVERTISED_PRICES, DEFAULT_CARDS, EU_CARDS } from './plans';
import type { OriginPage, PlanType, PricingCard } from './plans';
import {
  memberPlanOf,
  ANONYMOUS_MEMBER,
  LIFETIME_ACTIVE_NOTE,
  LIFETIME_BANNER,
  cardPlan,
  lifetimeBanner,
  planChangeButton,
  planChangeNote,
  pricingCardButton,
} from './pricing-state';
import type { MemberPlanState } from './pricing-state';

const SPEC_CAMPAIGN: Campaign = { saleEndsAt: null, saleLabel: 'Black Friday', prices: ADVERTISED_PRICES, regularPrices: DEFAULT_REGULAR_PRICES };
const [MONTHLY, QUARTERLY, YEARLY] = DEFAULT_CARDS as [PricingCard, PricingCard, PricingCard];
const [EU_MONTHLY, EU_QUARTERLY, EU_LIFETIME] = EU_CARDS as [PricingCard, PricingCard, PricingCard];

const member = (planType: PlanType | null, overrides: Partial<MemberPlanState> = {}): MemberPlanState => ({
  signedIn: true,
  planType,
  currentlyActive: planType !== null,
  isLifetime: planType === 'lifetime',
  ...overrides,
});

describe('pricingCardButton', () => {
  it.each<[string, PricingCard, MemberPlanState, PlanType | null, OriginPage, unknown]>([
    ['anonymous visitor', MONTHLY, ANONYMOUS_MEMBER, null, '/', { label: 'Start now', disabled: false, variant: 'buy', showCurrentBadge: false }],
    ['signed in without a plan', QUARTERLY, member(null), null, '/', { label: 'Start now', disabled: false, variant: 'buy', showCurrentBadge: false }],
    ['own button text', { ...YEARLY, buttonText: 'Go Yearly' }, ANONYMOUS_MEMBER, null, '/', { label: 'Go Yearly', disabled: false, variant: 'buy', showCurrentBadge: false }],
    ['processing this plan', MONTHLY, ANONYMOUS_MEMBER, 'monthly', '/', { label: 'Loading...', disabled: true, variant: 'loading', showCurrentBadge: false }],
    ['another plan processing', QUARTERLY, ANONYMOUS_MEMBER, 'monthly', '/', { label: 'Start now', disabled: true, variant: 'buy', showCurrentBadge: false }],
    ['active member, own plan', MONTHLY, member('monthly'), null, '/', { label: 'Current Plan', disabled: true, variant: 'current', showCurrentBadge: true }],
    ['active member, other plan', YEARLY, member('monthly'), null, '/', { label: 'Preview Change', disabled: false, variant: 'preview', showCurrentBadge: false }],
    ['active member, other plan previewing', YEARLY, member('monthly'), 'yearly', '/', { label: 'Loading...', disabled: true, variant: 'loading', showCurrentBadge: false }],
    ['active member, EU lifetime card is a purchase', EU_LIFETIME, member('euMonthly'), null, '/eu', { label: 'Start now', disabled: false, variant: 'buy', showCurrentBadge: false }],
    ['canceled member is not current and buys', MONTHLY, member('monthly', { currentlyActive: false }), null, '/', { label: 'Start now', disabled: false, variant: 'buy', showCurrentBadge: false }],
    ['signed out member data ignored', MONTHLY, member('monthly', { signedIn: false }), null, '/', { label: 'Start now', disabled: false, variant: 'buy', showCurrentBadge: false }],
    ['lifetime holder, monthly card', MONTHLY, member('lifetime'), null, '/', { label: 'Lifetime Active', disabled: true, variant: 'lifetime', showCurrentBadge: false }],
    ['lifetime holder, EU lifetime card', EU_LIFETIME, member('lifetime'), null, '/eu', { label: 'Lifetime Active', disabled: true, variant: 'lifetime', showCurrentBadge: true }],
    ['lifetime flag alone marks the lifetime card', EU_LIFETIME, member('lifetime', { currentlyActive: false }), null, '/eu', { label: 'Lifetime Active', disabled: true, variant: 'lifetime', showCurrentBadge: true }],
    ['lifetime holder while processing', EU_QUARTERLY, member('lifetime'), 'quarterly', '/eu', { label: 'Lifetime Active', disabled: true, variant: 'lifetime', showCurrentBadge: false }],
    ['euMonthly member on /eu sees Monthly as current', EU_MONTHLY, member('euMonthly'), null, '/eu', { label: 'Current Plan', disabled: true, variant: 'current', showCurrentBadge: true }],
    ['euQuarterly member on /eu sees Quarterly as current', EU_QUARTERLY, member('euQuarterly'), null, '/eu', { label: 'Current Plan', disabled: true, variant: 'current', showCurrentBadge: true }],
    ['euMonthly member on /eu, Quarterly card', EU_QUARTERLY, member('euMonthly'), null, '/eu', { label: 'Preview Change', disabled: false, variant: 'preview', showCurrentBadge: false }],
    ['euMonthly member on / is not on the $36 Monthly plan', MONTHLY, member('euMonthly'), null, '/', { label: 'Preview Change', disabled: false, variant: 'preview', showCurrentBadge: false }],
    ['monthly member on /eu still owns the Monthly card', EU_MONTHLY, member('monthly'), null, '/eu', { label: 'Current Plan', disabled: true, variant: 'current', showCurrentBadge: true }],
  ])('%s', (_name, card, m, processingPlan, originPage, expected) => {
    expect(pricingCardButton({ card, member: m, processingPlan, originPage })).toEqual(expected);
  });

  it.each<[MemberPlanState, string | null]>([
    [member('lifetime'), 'You have a Lifetime subscription - enjoy unlimited access!'],
    [member('monthly'), null],
    [ANONYMOUS_MEMBER, null],
    [member('lifetime', { signedIn: false }), null],
  ])('lifetimeBanner(%j) → %s', (m, expected) => {
    expect(lifetimeBanner(m)).toBe(expected);
    if (expected) expect(expected).toBe(LIFETIME_BANNER);
  });

  it.each<[PricingCard, OriginPage, PlanType]>([
    [EU_MONTHLY, '/eu', 'euMonthly'],
    [EU_QUARTERLY, '/eu', 'euQuarterly'],
    [EU_LIFETIME, '/eu', 'lifetime'],
    [MONTHLY, '/', 'monthly'],
  ])('cardPlan(%s on %s) → %s', (card, origin, expected) => {
    expect(cardPlan(card, origin)).toBe(expected);
  });
});

describe('planChangeButton', () => {
  const m = (planType: PlanType | null, overrides: Partial<MemberPlanState> = {}) => {
    const { signedIn: _signedIn, ...rest } = member(planType, overrides);
    return rest;
  };

  it.each<[string, PricingCard, ReturnType<typeof m>, PlanType | null, OriginPage, unknown]>([
    ['own plan', QUARTERLY, m('quarterly'), null, '/', { label: 'Current Plan', disabled: true, showCurrentBadge: true, action: 'none' }],
    ['previewing this plan', YEARLY, m('quarterly'), 'yearly', '/', { label: 'Loading Preview...', disabled: true, showCurrentBadge: false, action: 'none' }],
    ['active member, other plan', YEARLY, m('quarterly'), null, '/', { label: 'Change to Yearly', disabled: false, showCurrentBadge: false, action: 'preview' }],
    ['active member while another preview loads', MONTHLY, m('quarterly'), 'yearly', '/', { label: 'Change to Monthly', disabled: true, showCurrentBadge: false, action: 'preview' }],
    ['canceled member keeps Current Plan on own card', MONTHLY, m('monthly', { currentlyActive: false }), null, '/', { label: 'Current Plan', disabled: true, showCurrentBadge: true, action: 'none' }],
    ['canceled member, other plan: own text', YEARLY, m('monthly', { currentlyActive: false }), null, '/', { label: 'Start now', disabled: false, showCurrentBadge: false, action: 'checkout' }],
    ['no subscription, own button text', { ...YEARLY, buttonText: 'Get Yearly' }, m(null), null, '/', { label: 'Get Yearly', disabled: false, showCurrentBadge: false, action: 'checkout' }],
    ['EU member, EU Monthly card is current', EU_MONTHLY, m('euMonthly'), null, '/eu', { label: 'Current Plan', disabled: true, showCurrentBadge: true, action: 'none' }],
    ['EU member, EU Quarterly card', EU_QUARTERLY, m('euMonthly'), null, '/eu', { label: 'Change to Quarterly', disabled: false, showCurrentBadge: false, action: 'preview' }],
    ['EU member, Lifetime card is a purchase', EU_LIFETIME, m('euQuarterly'), null, '/eu', { label: 'Start now', disabled: false, showCurrentBadge: false, action: 'checkout' }],
    ['lifetime holder, other card', MONTHLY, m('lifetime'), null, '/', { label: 'Start now', disabled: true, showCurrentBadge: false, action: 'none' }],
  ])('%s', (_name, card, mm, previewingPlan, originPage, expected) => {
    expect(planChangeButton({ card, member: mm, previewingPlan, originPage })).toEqual(expected);
  });

  it.each<[PlanType | null, BoughtOn | null, readonly PricingCard[], OriginPage]>([
    [null, null, DEFAULT_CARDS, '/'],
    ['monthly', null, DEFAULT_CARDS, '/'],
    ['monthly', { list: '/', currency: 'usd' }, DEFAULT_CARDS, '/'],
    ['lifetime', null, DEFAULT_CARDS, '/'],
    ['euMonthly', null, EU_CARDS, '/eu'],
    ['euMonthly', { list: 'eu', currency: 'usd' }, EU_CARDS, '/eu'],
    // an import names no list: the EU variant still changes between the EU cards
    ['euQuarterly', { list: null, currency: 'usd' }, EU_CARDS, '/eu'],
  ])('planChangePage(%s, bought on %j) while the sale runs', (planType, boughtOn, cards, originPage) => {
    const page = planChangePage(activeCatalogue(), { planType, boughtOn });
    expect(page).toBe(originPage);
    expect(landingCards(SPEC_CAMPAIGN, page, true)).toEqual(cards);
  });

  it('planChangePage after the sale: the landing cards at regular prices', () => {
    const cards = landingCards(SPEC_CAMPAIGN, planChangePage(activeCatalogue(), { planType: 'monthly', boughtOn: { list: '/', currency: 'usd' } }), false);
    expect(cards.map((card) => [card.price, card.originalPrice, card.label])).toEqual([
      ['$47', undefined, undefined],
      ['$47', undefined, undefined],
      ['$47', undefined, undefined],
    ]);
  });

  it.each<[boolean, string | null]>([
    [true, 'Lifetime Plan Active – You already have the best plan!'],
    [false, null],
  ])('planChangeNote(isLifetime %s) → %s', (isLifetime, expected) => {
    expect(planChangeNote({ isLifetime })).toBe(expected);
  });

  it('uses an en dash in the lifetime note', () => {
    expect(LIFETIME_ACTIVE_NOTE).toContain('\u2013');
  });
});

describe('memberPlanOf', () => {
  const view = (planType: PlanType | null, isActive: boolean, isCanceled = false) => ({ planType, isActive, isCanceled });

  it('reads no view (loading or failed) as no plan', () => {
    expect(memberPlanOf(undefined)).toEqual({ planType: null, currentlyActive: false, isLifetime: false });
  });

  it('is currently active with access and no cancellation', () => {
    expect(memberPlanOf(view('monthly', true))).toEqual({ planType: 'monthly', currentlyActive: true, isLifetime: false });
    expect(memberPlanOf(view('monthly', true, true)).currentlyActive).toBe(false);
    expect(memberPlanOf(view('monthly', false)).currentlyActive).toBe(false);
  });

  it('holds lifetime only while the lifetime plan grants access', () => {
    expect(memberPlanOf(view('lifetime', true)).isLifetime).toBe(true);
    expect(memberPlanOf(view('lifetime', false))).toEqual({ planType: 'lifetime', currentlyActive: false, isLifetime: false });
  });
});
