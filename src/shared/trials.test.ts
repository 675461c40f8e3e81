import { afterEach, describe, expect, it } from 'vitest';
import { addPlan, setActiveCatalogue, updatePlan, type Catalogue, type Edit } from './catalogue';
import { seedCatalogue } from './plans';
import { chargePeriod, planTrialDays, checkoutTrialDays, conversionRate, planHasTrial, repeatReason, trialFaqAnswer, trialOfferText, trialReminderAt, type TrialSettings } from './trials';

const ON: TrialSettings = { days: 7, plans: ['monthly', 'quarterly', 'yearly'] };
const fresh = { hadTrial: false, boughtBefore: false };
const edited = (edit: Edit): Catalogue => {
  if ('problem' in edit) throw new Error(edit.problem);
  return edit.catalogue;
};

describe('which checkouts include a trial', () => {
  it.each([
    ['monthly', ON, fresh, 7],
    ['yearly', ON, fresh, 7],
    ['euMonthly', ON, fresh, null],
    ['euMonthly', { days: 7, plans: ['euMonthly'] }, fresh, 7],
    ['lifetime', { days: 7, plans: ['lifetime'] }, fresh, null],
    ['monthly', { days: 0, plans: ['monthly'] }, fresh, null],
    ['monthly', ON, { hadTrial: true, boughtBefore: false }, null],
    ['monthly', ON, { hadTrial: false, boughtBefore: true }, null],
  ] as const)('%s with %o for %o → %s days', (plan, settings, buyer, days) => {
    expect(checkoutTrialDays(settings, plan, buyer)).toBe(days);
  });

  it('never offers lifetime a trial, whatever the settings list', () => {
    expect(planHasTrial({ days: 30, plans: ['lifetime'] }, 'lifetime')).toBe(false);
  });
});

describe("a plan's own trial days (the console's), the shop's TRIAL_DAYS otherwise", () => {
  afterEach(() => setActiveCatalogue(null));
  const withTrials = (changes: Record<string, number | null>) => {
    let catalogue = edited(addPlan(seedCatalogue(), { slug: 'weekly', name: 'Weekly', price: 1500, period: { unit: 'week', count: 1 } }));
    for (const [slug, trialDays] of Object.entries(changes)) catalogue = edited(updatePlan(catalogue, slug, { trialDays }));
    setActiveCatalogue(catalogue);
  };

  it('reads the plan first: 14 days on weekly with trials off, none on monthly when its record says 0', () => {
    withTrials({ weekly: 14, monthly: 0 });
    expect(planTrialDays({ days: 0, plans: [] }, 'weekly')).toBe(14);
    expect(checkoutTrialDays({ days: 0, plans: [] }, 'weekly', fresh)).toBe(14);
    expect(checkoutTrialDays(ON, 'monthly', fresh)).toBeNull();
    // no record of its own: TRIAL_DAYS for the plans TRIAL_PLANS names
    expect(checkoutTrialDays(ON, 'quarterly', fresh)).toBe(7);
    expect(checkoutTrialDays(ON, 'weekly', { hadTrial: true, boughtBefore: false })).toBeNull();
  });

  it("words the offer with the plan's own period", () => {
    withTrials({ weekly: 3 });
    expect(chargePeriod('weekly')).toBe('/week');
    expect(trialOfferText(3, 'weekly', 1500)).toBe('3-day free trial, then $15/week');
    expect(trialOfferText(7, 'quarterly', 7200)).toBe('7-day free trial, then $72 every 3 months');
    expect(trialOfferText(7, 'yearly', 20400)).toBe('7-day free trial, then $204/year');
  });

  it('refuses a trial on a one-time plan and days out of range', () => {
    const seed = seedCatalogue();
    expect(updatePlan(seed, 'lifetime', { trialDays: 7 })).toEqual({ problem: 'Lifetime is a one-time purchase: it has no free trial.' });
    expect(updatePlan(seed, 'monthly', { trialDays: 731 })).toEqual({ problem: 'Trial days are a whole number from 0 to 730.' });
    expect(updatePlan(seed, 'monthly', { trialDays: -1 })).toEqual({ problem: 'Trial days are a whole number from 0 to 730.' });
  });
});

describe('repeat detection', () => {
  const trial = { id: 'new', email: 'ada@example.com', tradingviewUsername: 'ada_tv', cardFingerprint: 'fp1' };
  const other = { id: 'old', email: 'bob@example.com', tradingviewUsername: 'bob_tv', cardFingerprint: 'fp9' };
  it.each([
    [[other], null],
    [[{ ...other, email: 'ADA@example.com ' }], 'email'],
    [[{ ...other, cardFingerprint: 'fp1' }], 'card'],
    [[{ ...other, tradingviewUsername: 'Ada_TV' }], 'tradingview_username'],
    [[{ ...other, tradingviewUsername: null, cardFingerprint: null }], null],
    [[{ ...trial }], null],
  ] as const)('against %o → %s', (earlier, reason) => {
    expect(repeatReason(trial, earlier)).toBe(reason);
  });

  it('an e-mail repeats as its provider delivers it: Gmail dots, +tags and googlemail.com (#46)', () => {
    const gmail = { ...trial, email: 'ada.lovelace@gmail.com' };
    expect(repeatReason(gmail, [{ ...other, email: 'adalovelace+again@googlemail.com' }])).toBe('email');
    expect(repeatReason(gmail, [{ ...other, email: 'ada.lovelace2@gmail.com' }])).toBeNull();
  });

  it('unknown keys never match each other', () => {
    expect(repeatReason({ ...trial, cardFingerprint: null, tradingviewUsername: null }, [{ ...other, cardFingerprint: null, tradingviewUsername: null }])).toBeNull();
  });
});

describe('trial texts and dates', () => {
  it.each([
    ['monthly', 3600, '7-day free trial, then $36/month'],
    ['quarterly', 7200, '7-day free trial, then $72 every 3 months'],
    ['yearly', 20400, '7-day free trial, then $204/year'],
    ['euMonthly', 2999, '7-day free trial, then $29.99/month'],
  ] as const)('%s at %i: "%s"', (plan, amount, text) => {
    expect(trialOfferText(7, plan, amount)).toBe(text);
  });

  it('reminds three days before the end, or at the start of a shorter trial', () => {
    const start = new Date('2026-03-01T00:00:00Z');
    expect(trialReminderAt(start, new Date('2026-03-08T00:00:00Z')).toISOString()).toBe('2026-03-05T00:00:00.000Z');
    expect(trialReminderAt(start, new Date('2026-03-03T00:00:00Z'))).toEqual(start);
  });

  it('the FAQ names the configured plans once each', () => {
    expect(trialFaqAnswer(ON)).toMatch(/^New members get a 7-day free trial on the monthly, quarterly and yearly plans\. /);
    expect(trialFaqAnswer({ days: 14, plans: ['monthly', 'euMonthly'] })).toMatch(/^New members get a 14-day free trial on the monthly plan\. /);
  });

  it("the FAQ reads the plans' own trial days: a plan added with a trial, another set to none, an archived one gone", () => {
    const seed = seedCatalogue();
    const weekly = edited(addPlan(seed, { slug: 'weekly', name: 'Weekly', price: 1500, period: { unit: 'week', count: 1 } }));
    const withTrial = edited(updatePlan(weekly, 'weekly', { trialDays: 3 }));
    expect(trialFaqAnswer(ON, withTrial)).toMatch(/^New members get a free trial on the monthly plan \(7 days\), the quarterly plan \(7 days\), the yearly plan \(7 days\) and the weekly plan \(3 days\)\. /);
    const noMonthly = edited(updatePlan(withTrial, 'monthly', { trialDays: 0 }));
    const allThree = edited(updatePlan(edited(updatePlan(noMonthly, 'quarterly', { trialDays: 3 })), 'yearly', { archived: true }));
    expect(trialFaqAnswer(ON, allThree)).toMatch(/^New members get a 3-day free trial on the quarterly and weekly plans\. /);
    expect(trialFaqAnswer({ days: 0, plans: [] }, seed)).toBeNull();
    expect(trialFaqAnswer({ days: 0, plans: [] }, withTrial)).toMatch(/^New members get a 3-day free trial on the weekly plan\. /);
  });

  it('conversion counts finished trials only', () => {
    expect(conversionRate({ running: 5, converted: 0, canceled: 0, refused_repeat: 3 })).toBeNull();
    expect(conversionRate({ running: 5, converted: 2, canceled: 1, refused_repeat: 3 })).toBe(66.7);
  });
});
