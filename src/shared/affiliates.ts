// The affiliate program's rules: who may join, what a code looks like, the terms an operator sets
// and what they mean for one payment (how much, or why nothing), the self-referral checks, the
// click that counts once per browser per day, the refund-rate flag and the payout checks. Pure:
// the server decides with these, the console and the member area explain with the same texts.
import { csvCell } from './csv';
import { normaliseEmailIdentity } from './email-identity';

export const PROGRAM_MODES = ['open', 'members', 'invite'] as const;
export type ProgramMode = (typeof PROGRAM_MODES)[number];

export const COMMISSION_KINDS = ['percent', 'fixed'] as const;
export type CommissionKind = (typeof COMMISSION_KINDS)[number];

/** first: the first payment only; months: payments within N months of the first; lifetime: as long as the member pays. */
export const COMMISSION_DURATIONS = ['first', 'months', 'lifetime'] as const;
export type CommissionDuration = (typeof COMMISSION_DURATIONS)[number];

export const COMMISSION_STATUSES = ['pending', 'approved', 'paid', 'reversed', 'refused'] as const;
export type CommissionStatus = (typeof COMMISSION_STATUSES)[number];

/** Why a payment earned nothing, or why a commission was taken back. */
export const REFUSAL_REASONS = ['own_account', 'own_email', 'own_card', 'suspended', 'outside_terms'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

export const REFUSAL_TEXT: Record<RefusalReason, string> = {
  own_account: 'The affiliate bought with their own account.',
  own_email: "The buyer's e-mail is the affiliate's own.",
  own_card: "The buyer's card is one the affiliate paid with.",
  suspended: 'The affiliate was suspended.',
  outside_terms: 'The payment came after the period the terms pay commissions for.',
};

/** A commission rule: `value` is basis points of the payment (3000 = 30 %) or an amount in minor units of the order's currency. */
export type CommissionRule = { kind: CommissionKind; value: number };

export type AffiliateTerms = {
  mode: ProgramMode;
  /** The rule for every plan the per-plan rules do not name. */
  rule: CommissionRule;
  /** Per plan (its slug), when wanted. */
  plans: Record<string, CommissionRule>;
  duration: CommissionDuration;
  /** With duration `months`: how many months after the first payment still earn. */
  durationMonths: number | null;
  cookieDays: number;
  holdDays: number;
  /** In minor units of `currency`: a balance below it waits for the next run. */
  minimumPayout: number;
  currency: string;
};

export const DEFAULT_AFFILIATE_TERMS: AffiliateTerms = {
  mode: 'open',
  rule: { kind: 'percent', value: 3000 },
  plans: {},
  duration: 'lifetime',
  durationMonths: null,
  cookieDays: 60,
  holdDays: 30,
  minimumPayout: 5000,
  currency: 'usd',
};

// ---------------------------------------------------------------- codes

export const AFFILIATE_CODE_MAX_INPUT = 64;
const CODE = /^[A-Z0-9][A-Z0-9_-]{2,31}$/;
export const AFFILIATE_CODE_TEXT = 'An affiliate code is 3 to 32 letters, digits, "-" or "_".';

/** The code as stored (upper case), or null when `raw` cannot be one (too long, bad characters). */
export function normalizeAffiliateCode(raw: string | null | undefined): string | null {
  if (typeof raw !== 'string' || raw.length > AFFILIATE_CODE_MAX_INPUT) return null;
  const code = raw.trim().toUpperCase();
  return CODE.test(code) ? code : null;
}

/** A code to offer a new affiliate: letters of their name or e-mail plus four random characters. */
export function suggestAffiliateCode(email: string, random: () => number): string {
  const stem = (email.split('@')[0] ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '').slice(0, 8) || 'REF';
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  let tail = '';
  for (let index = 0; index < 4; index += 1) tail += alphabet[Math.floor(random() * alphabet.length)] ?? 'X';
  return `${stem.length < 2 ? `${stem}REF` : stem}${tail}`;
}

/** The link an affiliate shares: `/?ref=CODE` on the shop's address. */
export function affiliateLink(publicUrl: string, code: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/?ref=${encodeURIComponent(code)}`;
}

// ---------------------------------------------------------------- joining

export type JoinRefusal = 'members_only' | 'invite_only' | 'already_joined';

export const JOIN_REFUSAL_TEXT: Record<JoinRefusal, string> = {
  members_only: 'The affiliate program is open to members: buy a plan first, then join.',
  invite_only: 'The affiliate program is by invitation: ask the shop to add you.',
  already_joined: 'You are already an affiliate.',
};

/** Whether a signed-in person may join by themselves (the operator may always add one). */
export function joinRefusal(mode: ProgramMode, person: { isMember: boolean; isAffiliate: boolean }): JoinRefusal | null {
  if (person.isAffiliate) return 'already_joined';
  if (mode === 'invite') return 'invite_only';
  if (mode === 'members' && !person.isMember) return 'members_only';
  return null;
}

// ---------------------------------------------------------------- terms

export type TermsInput = {
  mode?: unknown;
  kind?: unknown;
  /** A percentage (30 = 30 %, decimals to 0.01) with kind percent; minor units with kind fixed. */
  value?: unknown;
  plans?: unknown;
  duration?: unknown;
  durationMonths?: unknown;
  cookieDays?: unknown;
  holdDays?: unknown;
  minimumPayout?: unknown;
  currency?: unknown;
};

export type TermsProblem = { field: string; message: string };

const isInteger = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

function ruleOf(kind: unknown, value: unknown, field: string, problems: TermsProblem[]): CommissionRule | null {
  if (kind !== 'percent' && kind !== 'fixed') {
    problems.push({ field, message: 'The commission is a percentage or a fixed amount.' });
    return null;
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    problems.push({ field, message: 'The commission needs a number.' });
    return null;
  }
  if (kind === 'percent') {
    if (value < 0 || value > 100) {
      problems.push({ field, message: 'A commission rate is between 0 % and 100 %.' });
      return null;
    }
    return { kind, value: Math.round(value * 100) };
  }
  if (!Number.isInteger(value) || value < 0 || value > 10_000_000) {
    problems.push({ field, message: 'A fixed commission is a whole amount in cents from 0 to 10,000,000.' });
    return null;
  }
  return { kind, value };
}

function boundedInteger(value: unknown, fallback: number, min: number, max: number, field: string, label: string, problems: TermsProblem[]): number {
  if (value === undefined || value === null) return fallback;
  if (!isInteger(value) || value < min || value > max) {
    problems.push({ field, message: `${label} is a whole number from ${min} to ${max}.` });
    return fallback;
  }
  return value;
}

/**
 * Checks an operator's terms (the console's form, with the rate as a percentage); missing fields keep `current`.
 * `knownPlans`, when given, are the catalogue's plan slugs: a per-plan commission names one of them.
 */
export function validateTerms(input: TermsInput, current: AffiliateTerms = DEFAULT_AFFILIATE_TERMS, knownPlans?: readonly string[]): { ok: true; terms: AffiliateTerms } | { ok: false; problems: TermsProblem[] } {
  const problems: TermsProblem[] = [];
  const mode = input.mode ?? current.mode;
  if (!(PROGRAM_MODES as readonly unknown[]).includes(mode)) problems.push({ field: 'mode', message: 'The program is open, for members, or by invitation.' });
  const rule =
    input.kind === undefined && input.value === undefined
      ? current.rule
      : ruleOf(input.kind ?? current.rule.kind, input.value, 'value', problems);
  const plans: Record<string, CommissionRule> = {};
  if (input.plans !== undefined && input.plans !== null) {
    if (typeof input.plans !== 'object' || Array.isArray(input.plans)) problems.push({ field: 'plans', message: 'Per-plan commissions name a plan each.' });
    else
      for (const [plan, planRule] of Object.entries(input.plans as Record<string, unknown>)) {
        // slugs as the catalogue writes them (euMonthly), so a per-plan rule can match an order's plan
        if (!/^[A-Za-z0-9_-]{1,40}$/.test(plan) || (knownPlans !== undefined && !knownPlans.includes(plan))) {
          problems.push({ field: `plans.${plan.slice(0, 40)}`, message: `${plan.slice(0, 40)} is not a plan of the shop.` });
          continue;
        }
        const parsed = planRule && typeof planRule === 'object' ? ruleOf((planRule as { kind?: unknown }).kind, (planRule as { value?: unknown }).value, `plans.${plan}`, problems) : null;
        if (parsed) plans[plan] = parsed;
        else if (!planRule || typeof planRule !== 'object') problems.push({ field: `plans.${plan}`, message: 'The commission is a percentage or a fixed amount.' });
      }
  }
  const duration = input.duration ?? current.duration;
  if (!(COMMISSION_DURATIONS as readonly unknown[]).includes(duration)) problems.push({ field: 'duration', message: 'Commissions are for the first payment, N months, or as long as the member pays.' });
  const durationMonths = duration === 'months' ? boundedInteger(input.durationMonths ?? current.durationMonths ?? undefined, 0, 1, 120, 'durationMonths', 'The number of months', problems) : null;
  if (duration === 'months' && durationMonths === 0 && !problems.some((problem) => problem.field === 'durationMonths')) problems.push({ field: 'durationMonths', message: 'Say for how many months commissions are paid.' });
  const cookieDays = boundedInteger(input.cookieDays, current.cookieDays, 1, 365, 'cookieDays', 'The cookie length in days', problems);
  const holdDays = boundedInteger(input.holdDays, current.holdDays, 0, 365, 'holdDays', 'The hold period in days', problems);
  const minimumPayout = boundedInteger(input.minimumPayout, current.minimumPayout, 0, 100_000_000, 'minimumPayout', 'The minimum payout in cents', problems);
  const currency = input.currency ?? current.currency;
  if (typeof currency !== 'string' || !/^[a-z]{3}$/i.test(currency)) problems.push({ field: 'currency', message: 'The payout currency is a three-letter code such as usd.' });
  if (problems.length > 0 || !rule) return { ok: false, problems: problems.length ? problems : [{ field: 'value', message: 'The commission needs a number.' }] };
  return {
    ok: true,
    terms: { mode: mode as ProgramMode, rule, plans: input.plans === undefined ? current.plans : plans, duration: duration as CommissionDuration, durationMonths, cookieDays, holdDays, minimumPayout, currency: (currency as string).toLowerCase() },
  };
}

/** The rule for a plan: its own, else the program's. */
export function ruleForPlan(terms: AffiliateTerms, plan: string): CommissionRule {
  return terms.plans[plan] ?? terms.rule;
}

/** "30 %" or "$10.00" (the amount as minor units with two decimals). */
export function ruleLabel(rule: CommissionRule): string {
  return rule.kind === 'percent' ? `${rule.value / 100} %` : `${(rule.value / 100).toFixed(2)} per payment`;
}

export function durationText(terms: Pick<AffiliateTerms, 'duration' | 'durationMonths'>): string {
  if (terms.duration === 'first') return 'on the first payment';
  if (terms.duration === 'months') return `on every payment for ${terms.durationMonths} month${terms.durationMonths === 1 ? '' : 's'}`;
  return 'on every payment for as long as the member pays';
}

// ---------------------------------------------------------------- one payment

/** What a commission is computed from: what was paid after discounts, before tax. */
export function commissionBase(order: { amount: number; amountTax: number | null }): number {
  return Math.max(0, order.amount - Math.max(0, order.amountTax ?? 0));
}

/** The commission of `base` (minor units) under `rule`; a fixed one never exceeds what was paid. */
export function commissionAmount(rule: CommissionRule, base: number): number {
  if (base <= 0) return 0;
  if (rule.kind === 'fixed') return Math.min(rule.value, base);
  return Math.round((base * rule.value) / 10_000);
}

export function addMonths(at: Date, months: number): Date {
  const next = new Date(at.getTime());
  next.setUTCMonth(next.getUTCMonth() + months);
  return next;
}

export function addDays(at: Date, days: number): Date {
  return new Date(at.getTime() + days * 86_400_000);
}

/** Whether a payment at `paidAt` still earns, the attribution's first payment having been at `firstPaidAt` (null: this is the first). */
export function withinDuration(terms: Pick<AffiliateTerms, 'duration' | 'durationMonths'>, firstPaidAt: Date | null, paidAt: Date): boolean {
  if (firstPaidAt === null || terms.duration === 'lifetime') return true;
  if (terms.duration === 'first') return false;
  return paidAt.getTime() < addMonths(firstPaidAt, terms.durationMonths ?? 0).getTime();
}

export type CommissionDecision =
  | { status: 'pending'; amount: number; base: number; approvableAt: Date }
  | { status: 'refused'; reason: RefusalReason; base: number }
  /** Nothing paid (a free trial's start), or a rule that gives nothing: no row at all. */
  | { status: 'none' };

export function decideCommission(input: {
  terms: AffiliateTerms;
  plan: string;
  order: { amount: number; amountTax: number | null; paidAt: Date };
  firstPaidAt: Date | null;
  affiliateSuspended: boolean;
  ownPurchase: RefusalReason | null;
}): CommissionDecision {
  const base = commissionBase(input.order);
  if (input.ownPurchase) return { status: 'refused', reason: input.ownPurchase, base };
  if (input.affiliateSuspended) return { status: 'refused', reason: 'suspended', base };
  if (base <= 0) return { status: 'none' };
  if (!withinDuration(input.terms, input.firstPaidAt, input.order.paidAt)) return { status: 'refused', reason: 'outside_terms', base };
  const amount = commissionAmount(ruleForPlan(input.terms, input.plan), base);
  if (amount <= 0) return { status: 'none' };
  return { status: 'pending', amount, base, approvableAt: addDays(input.order.paidAt, input.terms.holdDays) };
}

// ---------------------------------------------------------------- fraud

export type Person = { userId: string | null; email: string | null; cardFingerprints: readonly string[] };

/** Why a purchase is the affiliate's own (same account, same mailbox, same card), or null. */
export function ownPurchase(buyer: Person, affiliate: Person): RefusalReason | null {
  if (buyer.userId && affiliate.userId && buyer.userId === affiliate.userId) return 'own_account';
  if (buyer.email && affiliate.email && normaliseEmailIdentity(buyer.email) === normaliseEmailIdentity(affiliate.email)) return 'own_email';
  if (buyer.cardFingerprints.some((fingerprint) => affiliate.cardFingerprints.includes(fingerprint))) return 'own_card';
  return null;
}

/** The UTC day a click is counted on: one click per browser, affiliate and day. */
export function clickDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

export const VISITOR_ID = /^[A-Za-z0-9_-]{16,32}$/;

/** The referral cookie's value: the code and the browser's visitor id, `CODE.VISITOR`. */
export function referralCookieValue(code: string, visitor: string): string {
  return `${code}.${visitor}`;
}

export function parseReferralCookie(value: string | undefined | null): { code: string; visitor: string } | null {
  if (!value || value.length > 100) return null;
  const dot = value.lastIndexOf('.');
  const code = normalizeAffiliateCode(value.slice(0, dot));
  const visitor = value.slice(dot + 1);
  return code && VISITOR_ID.test(visitor) ? { code, visitor } : null;
}

export const FLAG_REFUND_RATE = 0.25;

/** Flagged: a quarter or more of the referred buyers refunded or disputed. */
export function refundRateFlagged(buyers: number, reversedBuyers: number): boolean {
  return buyers > 0 && reversedBuyers / buyers >= FLAG_REFUND_RATE;
}

// ---------------------------------------------------------------- payouts

const EMAIL = /^[^\s@]{1,64}@[^\s@.]+(\.[^\s@.]+)+$/;

/** A PayPal or Wise address: an e-mail. */
export function payoutAddressProblem(raw: string): string | null {
  const email = raw.trim();
  if (email.length === 0) return 'Give the e-mail of your PayPal or Wise account.';
  if (email.length > 254 || !EMAIL.test(email)) return 'The payout address must be an e-mail address (your PayPal or Wise account).';
  return null;
}

/** Why an affiliate's balance is not paid in this run, or null. */
export function payoutRefusal(balance: number, minimum: number, payoutEmail: string | null): string | null {
  if (!payoutEmail) return 'No payout address yet.';
  if (balance <= 0) return 'Nothing to pay.';
  if (balance < minimum) return `The balance is below the minimum payout of ${(minimum / 100).toFixed(2)}.`;
  return null;
}

/** One line of the mass-payout CSV (PayPal Payouts and Wise batch both read e-mail, amount, currency, note). */
export function payoutCsv(lines: readonly { email: string; amount: number; currency: string; reference: string }[]): string {
  return ['email,amount,currency,reference', ...lines.map((line) => [csvCell(line.email), (line.amount / 100).toFixed(2), line.currency.toUpperCase(), csvCell(line.reference)].join(','))].join('\n') + '\n';
}
