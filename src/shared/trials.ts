// Free trials, one per person: which plans have one, who may start one, what makes a trial a
// repeat, and every text that advertises or explains a trial. Pure, so the cards, the checkout,
// the settings, the mails and the server's decisions can never disagree.
import { normaliseEmailIdentity } from './email-identity';
import { activeCatalogue, chargePeriodText, findPlan, type Catalogue } from './catalogue';
import { formatCardPrice, isRecurring, planPeriod, type PlanType } from './plans';

/** The public trial settings (TRIAL_DAYS, TRIAL_PLANS); `days: 0` is no trial anywhere. */
export type TrialSettings = { days: number; plans: readonly PlanType[] };

export const NO_TRIAL: TrialSettings = { days: 0, plans: [] };

/** The recurring plans of the default page: the trial's plans unless TRIAL_PLANS names others. */
export const DEFAULT_TRIAL_PLANS = ['monthly', 'quarterly', 'yearly'] as const satisfies readonly PlanType[];

/** Longest trial a shop may offer (Stripe's limit on trial_period_days is 730). */
export const MAX_TRIAL_DAYS = 730;

/** Days before the trial's end when the buyer is reminded (Stripe's customer.subscription.trial_will_end). */
export const TRIAL_REMINDER_DAYS = 3;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The free-trial days of a plan: its record's own (the console's, 0: none) or, when it has none,
 * the shop's TRIAL_DAYS for the plans TRIAL_PLANS names (the seed's default); 0 for a one-time plan.
 */
export function planTrialDays(settings: TrialSettings, planType: PlanType, catalogue: Catalogue = activeCatalogue()): number {
  const plan = findPlan(catalogue, planType);
  if (plan ? plan.period === null : !isRecurring(planType)) return 0;
  const own = plan?.trialDays ?? null;
  if (own !== null) return own;
  return settings.plans.includes(planType) ? settings.days : 0;
}

/** Whether a checkout of `planType` offers a trial at all (before asking who buys). */
export function planHasTrial(settings: TrialSettings, planType: PlanType): boolean {
  return planTrialDays(settings, planType) > 0;
}

/** What ended a trial: still running, paid for, canceled before it was charged, or refused as a repeat. */
export const TRIAL_OUTCOMES = ['running', 'converted', 'canceled', 'refused_repeat'] as const;
export type TrialOutcome = (typeof TRIAL_OUTCOMES)[number];

/** Which earlier trial's key the new one shares. */
export const REPEAT_REASONS = ['email', 'tradingview_username', 'card'] as const;
export type RepeatReason = (typeof REPEAT_REASONS)[number];

/** The keys that identify a person: each may be unknown yet (a card before payment, a username before activation). */
export type TrialKeys = { email: string | null; tradingviewUsername: string | null; cardFingerprint: string | null };

export type EarlierTrial = TrialKeys & { id: string };

const sameText = (a: string | null, b: string | null) => a !== null && b !== null && a.trim().toLowerCase() === b.trim().toLowerCase();
/** The same person's mailbox, as the provider delivers (Gmail's dots and +tags, googlemail.com). */
const sameEmailIdentity = (a: string | null, b: string | null) => a !== null && b !== null && normaliseEmailIdentity(a) === normaliseEmailIdentity(b);

/**
 * Why the trial `trial` repeats one of `earlier` (other trials, in any outcome), or null.
 * E-mail first (the buyer was told at checkout), then the card, then the TradingView username.
 */
export function repeatReason(trial: TrialKeys & { id: string }, earlier: readonly EarlierTrial[]): RepeatReason | null {
  const others = earlier.filter((other) => other.id !== trial.id);
  if (others.some((other) => sameEmailIdentity(other.email, trial.email))) return 'email';
  if (others.some((other) => other.cardFingerprint !== null && other.cardFingerprint === trial.cardFingerprint)) return 'card';
  if (others.some((other) => sameText(other.tradingviewUsername, trial.tradingviewUsername))) return 'tradingview_username';
  return null;
}

/**
 * Whether a checkout may include the trial: the plan has one, and the e-mail (when known) never
 * started a trial nor bought before. An unknown e-mail (typed on the provider's page) gets the
 * trial; the checks after payment refuse it if it turns out to be a repeat.
 */
export function checkoutTrialDays(settings: TrialSettings, planType: PlanType, buyer: { hadTrial: boolean; boughtBefore: boolean }): number | null {
  if (!planHasTrial(settings, planType)) return null;
  if (buyer.hadTrial || buyer.boughtBefore) return null;
  return planTrialDays(settings, planType);
}

/** When a trial started at `start` ends. */
export function trialEnd(start: Date, days: number): Date {
  return new Date(start.getTime() + days * DAY_MS);
}

/** When the "your trial ends soon" reminder is due: three days before the end, or at once for a shorter trial. */
export function trialReminderAt(start: Date, end: Date): Date {
  const at = end.getTime() - TRIAL_REMINDER_DAYS * DAY_MS;
  return new Date(Math.max(start.getTime(), at));
}

/** '/month', ' every 3 months', '/year': how a plan's full charge repeats. */
export function chargePeriod(planType: PlanType): string {
  const period = planPeriod(planType);
  return period === null ? '' : chargePeriodText(period);
}

/** The cards' and the checkout's words: "7-day free trial, then $36/month". */
export function trialOfferText(days: number, planType: PlanType, amount: number): string {
  return `${days}-day free trial, then ${formatCardPrice(amount)}${chargePeriod(planType)}`;
}

/** The FAQ's question and answer about trials, when trials are on. */
export const TRIAL_FAQ_QUESTION = 'Is there a free trial?';

/**
 * The FAQ's answer about trials, from the trial days of the plans on sale (each plan's own, else
 * TRIAL_DAYS for the plans TRIAL_PLANS names); null when no plan on sale has a trial.
 */
export function trialFaqAnswer(settings: TrialSettings, catalogue: Catalogue = activeCatalogue()): string | null {
  const onSale = catalogue.plans
    .filter((plan) => !plan.archived && catalogue.priceLists.some((list) => list.entries.some((entry) => entry.plan === plan.slug)))
    .sort((a, b) => a.order - b.order);
  const offers = new Map<string, number>();
  for (const plan of onSale) {
    const days = planTrialDays(settings, plan.slug, catalogue);
    const name = plan.name.toLowerCase();
    // a list's variant (euMonthly) reads as the plan it stands for: named once
    if (days > 0 && !offers.has(name)) offers.set(name, days);
  }
  if (offers.size === 0) return null;
  const and = (words: readonly string[]) => (words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : (words[0] ?? ''));
  const days = new Set(offers.values());
  const names = [...offers.keys()];
  const offer =
    days.size === 1
      ? `a ${[...days][0]}-day free trial on the ${and(names)} plan${names.length > 1 ? 's' : ''}`
      : `a free trial on ${and([...offers].map(([name, count]) => `the ${name} plan (${count} days)`))}`;
  return (
    `New members get ${offer}. Your card is collected at checkout and ` +
    `nothing is charged today; the plan is charged when the trial ends unless you cancel before then, in which case access ` +
    `simply ends with the trial. One trial per person: an e-mail, card or TradingView username that already had a trial is ` +
    `charged right away.`
  );
}

/** The buyer's explanation of a refused repeat (page and mail). */
export function repeatReasonText(reason: RepeatReason): string {
  switch (reason) {
    case 'email':
      return 'This e-mail address already had a free trial.';
    case 'card':
      return 'This card was already used for a free trial.';
    case 'tradingview_username':
      return 'This TradingView username already had a free trial.';
  }
}

/** The console's short label of each outcome. */
export const TRIAL_OUTCOME_LABELS: Record<TrialOutcome, string> = {
  running: 'Running',
  converted: 'Converted',
  canceled: 'Canceled',
  refused_repeat: 'Refused repeat',
};

/** Share of finished trials (converted or canceled; repeats are not real trials) that converted; null before any finished. */
export function conversionRate(counts: Record<TrialOutcome, number>): number | null {
  const finished = counts.converted + counts.canceled;
  return finished === 0 ? null : Math.round((counts.converted / finished) * 1000) / 10;
}
