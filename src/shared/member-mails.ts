// The mails that keep members (decision 056): the win-back mail N days after a member's access
// ended, the set-up reminders (the TradingView username, and a linked account in each community
// integration) at growing intervals after the purchase, and the operator's switches for them and
// for the checkout recovery mail. Pure: when each is due, and what an operator may set.

/**
 * The mails a member may turn off (Settings, or the mail's unsubscribe link): the win-back offer
 * and a set-up reminder per step, `setup_<step>` (the TradingView username, or the community
 * integration of that name), the string stored in the opt-outs and the switches.
 */
export type MemberMailKind = 'winback' | `setup_${string}`;

/** The operator's switches: the member mails and the checkout recovery mail (decision 053). */
export type MailSwitch = 'checkout_recovery' | MemberMailKind;

/** The switch and opt-out kind of a set-up step's reminder. */
export const setupKind = (step: string): `setup_${string}` => `setup_${step}`;

const KIND_SHAPE = /^setup_[a-z][a-z0-9]*$/;

/** A value shaped like a member mail's kind (which ones this shop sends, its integrations say). */
export const isMemberMailKind = (value: string): value is MemberMailKind => value === 'winback' || KIND_SHAPE.test(value);

/** The switches every shop has, with their defaults: recovery and reminders were asked for; a win-back mail needs its code chosen first. */
export const MAIL_SWITCH_DEFAULTS = { checkout_recovery: true, winback: false, setup_tradingview: true } as const satisfies Record<MailSwitch, boolean>;

const FIXED_LABELS: Record<keyof typeof MAIL_SWITCH_DEFAULTS, string> = {
  checkout_recovery: 'Checkout recovery',
  winback: 'Win-back offer',
  setup_tradingview: 'Reminder: add your TradingView username',
};

/**
 * A community integration's set-up reminder (its descriptor's): the mail to a member with access
 * who has not linked an account there yet (subject, text, the link's label and path), the label of
 * its switch in the console and in the member's Settings, and its step as the access-active mail
 * names it (`offer`): "Your plan includes {includes}: connect your {account} account at {the
 * path's link} and {then}." The mails' templates name no community.
 */
export type SetupReminder = {
  subject: string;
  text: string;
  label: string;
  path: string;
  switchLabel: string;
  offer: { includes: string; account: string; then: string };
};

/** One switch as the console lists it. */
export type MailSwitchItem = { name: MailSwitch; label: string };

/** Every switch of a shop with these community integrations (by name, with their reminders), in the console's order. */
export function mailSwitchesOf(communities: readonly { name: string; reminder: Pick<SetupReminder, 'switchLabel'> }[]): MailSwitchItem[] {
  const fixed = (Object.keys(FIXED_LABELS) as (keyof typeof FIXED_LABELS)[]).map((name) => ({ name, label: FIXED_LABELS[name] }));
  return [...fixed, ...communities.map(({ name, reminder }) => ({ name: setupKind(name), label: reminder.switchLabel }))];
}

export const WINBACK_DAYS_MIN = 1;
export const WINBACK_DAYS_MAX = 365;
export const WINBACK_DAYS_DEFAULT = 14;

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** The set-up reminders after the purchase (Whop's cadence): 3 h, 24 h, 48 h, 7 days. */
export const SETUP_REMINDER_AFTER_MS = [3 * HOUR_MS, 24 * HOUR_MS, 48 * HOUR_MS, 7 * DAY_MS] as const;

/**
 * A mail missed for longer than this (the server was down) is skipped, not sent late: the next
 * one, or nothing, follows. Also how long after its day a win-back mail may still go out.
 */
export const LATE_MAIL_WINDOW_MS = 3 * DAY_MS;

/**
 * Which set-up reminder (0-based) is due at `now` for access that started at `startedAt`: the
 * latest step reached, so a server that was down sends one mail, not the steps it missed; null
 * before the first and after the last step's window.
 */
export function setupReminderStep(startedAt: Date, now: Date): number | null {
  const elapsed = now.getTime() - startedAt.getTime();
  let step: number | null = null;
  SETUP_REMINDER_AFTER_MS.forEach((after, index) => {
    if (elapsed >= after) step = index;
  });
  if (step === null) return null;
  const lastAt = SETUP_REMINDER_AFTER_MS[SETUP_REMINDER_AFTER_MS.length - 1] ?? 0;
  return elapsed >= lastAt + LATE_MAIL_WINDOW_MS ? null : step;
}

/**
 * The access ends whose win-back mail is due at `now`: `days` ago, or up to the late window
 * before that (a pass every few minutes, or a server down for a while, still mails each once).
 */
export function winbackWindow(now: Date, days: number): { endedAfter: Date; endedBy: Date } {
  const endedBy = new Date(now.getTime() - days * DAY_MS);
  return { endedAfter: new Date(endedBy.getTime() - LATE_MAIL_WINDOW_MS), endedBy };
}

/** The operator's settings as stored and shown: a value for each of the shop's switches. */
export type MailSettings = { switches: Record<string, boolean>; winbackDays: number; winbackCode: string | null };

/** What an operator sends: any of the switches, the days, the code (null: none). */
export type MailSettingsInput = { switches?: Record<string, boolean>; winbackDays?: number; winbackCode?: string | null };

/** The stored switches of these names with their defaults filled in (a community's reminder is on until switched off). */
export function switchesWithDefaults(stored: Partial<Record<string, boolean>>, names: readonly MailSwitch[]): Record<string, boolean> {
  const defaults: Partial<Record<string, boolean>> = MAIL_SWITCH_DEFAULTS;
  return Object.fromEntries(names.map((name) => [name, stored[name] ?? defaults[name] ?? true]));
}

/** What the settings come to after `input`, or every problem (a mail type not among the current switches, days out of range, no code for the mail). */
export function applyMailSettings(current: MailSettings, input: MailSettingsInput): { ok: true; settings: MailSettings } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const known = (name: string) => Object.hasOwn(current.switches, name);
  const unknown = Object.keys(input.switches ?? {}).filter((name) => !known(name));
  if (unknown.length > 0) problems.push(`Unknown mail type: ${unknown.join(', ')}.`);
  const days = input.winbackDays ?? current.winbackDays;
  if (!Number.isSafeInteger(days) || days < WINBACK_DAYS_MIN || days > WINBACK_DAYS_MAX) problems.push(`Days after access ends must be a whole number from ${WINBACK_DAYS_MIN} to ${WINBACK_DAYS_MAX}.`);
  const switches = { ...current.switches, ...Object.fromEntries(Object.entries(input.switches ?? {}).filter(([name]) => known(name))) };
  const winbackCode = input.winbackCode === undefined ? current.winbackCode : input.winbackCode;
  if (switches.winback && !winbackCode) problems.push('Choose the win-back promotion code before turning the win-back mail on.');
  return problems.length > 0 ? { ok: false, problems } : { ok: true, settings: { switches, winbackDays: days, winbackCode } };
}
