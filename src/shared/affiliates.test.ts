import { normaliseEmailIdentity } from './email-identity';
import { describe, expect, it } from 'vitest';
import {
  commissionAmount,
  commissionBase,
  decideCommission,
  DEFAULT_AFFILIATE_TERMS,
  joinRefusal,
  normalizeAffiliateCode,
  ownPurchase,
  parseReferralCookie,
  payoutAddressProblem,
  payoutCsv,
  payoutRefusal,
  referralCookieValue,
  refundRateFlagged,
  validateTerms,
  withinDuration,
} from './affiliates';

const paidAt = new Date('2026-01-10T00:00:00Z');

describe('commissions', () => {
  it('are computed from what was paid after discounts, before tax', () => {
    expect(commissionBase({ amount: 3600, amountTax: null })).toBe(3600);
    expect(commissionBase({ amount: 4356, amountTax: 756 })).toBe(3600);
    expect(commissionAmount({ kind: 'percent', value: 3000 }, 3600)).toBe(1080);
    expect(commissionAmount({ kind: 'percent', value: 1550 }, 2999)).toBe(465);
    expect(commissionAmount({ kind: 'fixed', value: 5000 }, 3600)).toBe(3600);
  });

  it('follow the duration: first payment, N months, lifetime', () => {
    const first = new Date('2026-01-01T00:00:00Z');
    expect(withinDuration({ duration: 'first', durationMonths: null }, null, paidAt)).toBe(true);
    expect(withinDuration({ duration: 'first', durationMonths: null }, first, paidAt)).toBe(false);
    expect(withinDuration({ duration: 'months', durationMonths: 3 }, first, new Date('2026-03-31T00:00:00Z'))).toBe(true);
    expect(withinDuration({ duration: 'months', durationMonths: 3 }, first, new Date('2026-04-01T00:00:00Z'))).toBe(false);
    expect(withinDuration({ duration: 'lifetime', durationMonths: null }, first, new Date('2030-01-01T00:00:00Z'))).toBe(true);
  });

  it('are held, refused for the own purchase or a suspended affiliate, and per plan when the terms say so', () => {
    const terms = { ...DEFAULT_AFFILIATE_TERMS, plans: { lifetime: { kind: 'fixed' as const, value: 10000 } } };
    const order = { amount: 3600, amountTax: null, paidAt };
    expect(decideCommission({ terms, plan: 'monthly', order, firstPaidAt: null, affiliateSuspended: false, ownPurchase: null })).toEqual({ status: 'pending', amount: 1080, base: 3600, approvableAt: new Date('2026-02-09T00:00:00Z') });
    expect(decideCommission({ terms, plan: 'lifetime', order: { ...order, amount: 54999 }, firstPaidAt: null, affiliateSuspended: false, ownPurchase: null })).toMatchObject({ amount: 10000 });
    expect(decideCommission({ terms, plan: 'monthly', order, firstPaidAt: null, affiliateSuspended: false, ownPurchase: 'own_email' })).toEqual({ status: 'refused', reason: 'own_email', base: 3600 });
    expect(decideCommission({ terms, plan: 'monthly', order, firstPaidAt: null, affiliateSuspended: true, ownPurchase: null })).toEqual({ status: 'refused', reason: 'suspended', base: 3600 });
    expect(decideCommission({ terms, plan: 'monthly', order: { ...order, amount: 0 }, firstPaidAt: null, affiliateSuspended: false, ownPurchase: null })).toEqual({ status: 'none' });
    expect(decideCommission({ terms: { ...terms, duration: 'first' }, plan: 'monthly', order, firstPaidAt: paidAt, affiliateSuspended: false, ownPurchase: null })).toEqual({ status: 'refused', reason: 'outside_terms', base: 3600 });
  });
});

describe('terms', () => {
  it('take a percentage between 0 and 100 and keep what is not given', () => {
    const checked = validateTerms({ kind: 'percent', value: 15.5, holdDays: 14 });
    expect(checked).toEqual({ ok: true, terms: { ...DEFAULT_AFFILIATE_TERMS, rule: { kind: 'percent', value: 1550 }, holdDays: 14 } });
    for (const value of [-1, 100.5, Number.NaN]) expect(validateTerms({ kind: 'percent', value }).ok).toBe(false);
    expect(validateTerms({ kind: 'percent', value: 150 })).toEqual({ ok: false, problems: [{ field: 'value', message: 'A commission rate is between 0 % and 100 %.' }] });
    expect(validateTerms({ kind: 'fixed', value: 12.5 }).ok).toBe(false);
    expect(validateTerms({ duration: 'months' }).ok).toBe(false);
    expect(validateTerms({ duration: 'months', durationMonths: 6 })).toMatchObject({ ok: true, terms: { duration: 'months', durationMonths: 6 } });
    expect(validateTerms({ mode: 'everyone' }).ok).toBe(false);
    expect(validateTerms({ plans: { monthly: { kind: 'percent', value: 200 } } }).ok).toBe(false);
    expect(validateTerms({ cookieDays: 0 }).ok).toBe(false);
    // per plan: the catalogue's slugs (camelCase included), a rule each, validated like the program's
    const plans = ['monthly', 'euMonthly', 'lifetime'];
    expect(validateTerms({ plans: { euMonthly: { kind: 'percent', value: 20 }, lifetime: { kind: 'fixed', value: 5000 } } }, DEFAULT_AFFILIATE_TERMS, plans)).toMatchObject({
      ok: true,
      terms: { plans: { euMonthly: { kind: 'percent', value: 2000 }, lifetime: { kind: 'fixed', value: 5000 } } },
    });
    expect(validateTerms({ plans: { weekly: { kind: 'percent', value: 20 } } }, DEFAULT_AFFILIATE_TERMS, plans)).toEqual({ ok: false, problems: [{ field: 'plans.weekly', message: 'weekly is not a plan of the shop.' }] });
    expect(validateTerms({ plans: { lifetime: { kind: 'fixed', value: -5 } } }, DEFAULT_AFFILIATE_TERMS, plans).ok).toBe(false);
    expect(validateTerms({ plans: {} }, { ...DEFAULT_AFFILIATE_TERMS, plans: { monthly: { kind: 'percent', value: 1000 } } }, plans)).toMatchObject({ ok: true, terms: { plans: {} } });
  });

  it('say who may join by themselves', () => {
    expect(joinRefusal('open', { isMember: false, isAffiliate: false })).toBeNull();
    expect(joinRefusal('members', { isMember: false, isAffiliate: false })).toBe('members_only');
    expect(joinRefusal('members', { isMember: true, isAffiliate: false })).toBeNull();
    expect(joinRefusal('invite', { isMember: true, isAffiliate: false })).toBe('invite_only');
    expect(joinRefusal('open', { isMember: true, isAffiliate: true })).toBe('already_joined');
  });
});

describe('fraud rules', () => {
  it('normalise a mailbox: case everywhere, +tags where the provider ignores them, Gmail dots and googlemail', () => {
    expect(normaliseEmailIdentity(' Jane.Doe+shop@GMail.com ')).toBe('janedoe@gmail.com');
    expect(normaliseEmailIdentity('janedoe@googlemail.com')).toBe('janedoe@gmail.com');
    expect(normaliseEmailIdentity('jane.doe+x@outlook.com')).toBe('jane.doe@outlook.com');
    expect(normaliseEmailIdentity('jane.doe+x@example.com')).toBe('jane.doe+x@example.com');
  });

  it('find the own purchase by account, mailbox or card', () => {
    const affiliate = { userId: 'a', email: 'jane.doe@gmail.com', cardFingerprints: ['card-1'] };
    expect(ownPurchase({ userId: 'a', email: 'other@example.com', cardFingerprints: [] }, affiliate)).toBe('own_account');
    expect(ownPurchase({ userId: 'b', email: 'JaneDoe+x@googlemail.com', cardFingerprints: [] }, affiliate)).toBe('own_email');
    expect(ownPurchase({ userId: 'b', email: 'b@example.com', cardFingerprints: ['card-1'] }, affiliate)).toBe('own_card');
    expect(ownPurchase({ userId: 'b', email: 'b@example.com', cardFingerprints: ['card-2'] }, affiliate)).toBeNull();
  });

  it('flag a quarter of buyers reversing', () => {
    expect(refundRateFlagged(0, 0)).toBe(false);
    expect(refundRateFlagged(4, 1)).toBe(true);
    expect(refundRateFlagged(5, 1)).toBe(false);
  });
});

describe('codes, cookies and payouts', () => {
  it('accept a short code in any case and nothing else', () => {
    expect(normalizeAffiliateCode(' seller1abcd ')).toBe('SELLER1ABCD');
    for (const raw of ['x', 'a b c', 'X'.repeat(500), '../etc', '', null]) expect(normalizeAffiliateCode(raw)).toBeNull();
    const value = referralCookieValue('SELLER1ABCD', 'abcdefghijklmnopqrstuv');
    expect(parseReferralCookie(value)).toEqual({ code: 'SELLER1ABCD', visitor: 'abcdefghijklmnopqrstuv' });
    expect(parseReferralCookie('SELLER1ABCD.short')).toBeNull();
  });

  it('want an e-mail and a balance at the minimum, and write a CSV spreadsheets cannot run', () => {
    expect(payoutAddressProblem('me@paypal.example')).toBeNull();
    expect(payoutAddressProblem('not an e-mail')).toBe('The payout address must be an e-mail address (your PayPal or Wise account).');
    expect(payoutRefusal(4999, 5000, 'me@x.example')).toBe('The balance is below the minimum payout of 50.00.');
    expect(payoutRefusal(5000, 5000, null)).toBe('No payout address yet.');
    expect(payoutRefusal(-100, 5000, 'me@x.example')).toBe('Nothing to pay.');
    expect(payoutCsv([{ email: 'a@b.example', amount: 6480, currency: 'usd', reference: '=HYPERLINK("x")' }])).toBe('email,amount,currency,reference\na@b.example,64.80,USD,"\'=HYPERLINK(""x"")"\n');
  });
});
