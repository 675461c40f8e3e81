// The mails that keep members (decision 056): the win-back mail N days after a member's access
// ended, the set-up reminders (TradingView username, Discord, Telegram) at growing intervals after
// the purchase, and the operator's switches for them and for the checkout recovery mail. Pure:
// when each is due, and what an operator may set.

/** The mails a member may turn off (Settings, or the mail's unsubscribe link). */
export const MEMBER_MAIL_KINDS = ['winback', 'setup_tradingview', 'setup_discord', 'setup_telegram'] as const;
export type MemberMailKind = (typeof MEMBER_MAIL_KINDS)[number];

/** The operator's switches: the member mails and the checkout recovery mail (decision 053). */
export const MAIL_SWITCHES = ['checkout_recovery', ...MEMBER_MAIL_KINDS] as const;
export type MailSwitch = (typeof MAIL_SWITCHES)[number];

/** Recovery and reminders were asked for; a win-back mail needs its code chosen first. */
export const MAIL_SWITCH_DEFAULTS: Record<MailSwitch, boolean> = {
  checkout_recovery: true,
  winback: false,
  setup_tradingview: true,
  setup_discord: true,
  setup_telegram: true,
};

export const MAIL_SWITCH_LABELS: Record<MailSwitch, string> = {
  checkout_recovery: 'Checkout recovery',
  winback: 'Win-back offer',
  setup_tradingview: 'Reminder: add your TradingView username',
  setup_discord: 'Reminder: link Discord',
  setup_telegram: 'Reminder: link Telegram',
};

export const isMailSwitch = (value: string): value is MailSwitch => (MAIL_SWITCHES as readonly string[]).includes(value);
export const isMemberMailKind = (value: string): value is MemberMailKind => (MEMBER_MAIL_KINDS as readonly string[]).includes(value);

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

/** The operator's settings as stored and shown. */
export type MailSettings = { switches: Record<MailSwitch, boolean>; winbackDays: number; winbackCode: string | null };

/** What an operator sends: any of the switches, the days, the code (null: none). */
export type MailSettingsInput = { switches?: Record<string, boolean>; winbackDays?: number; winbackCode?: string | null };

/** The stored switches with their defaults filled in. */
export function switchesWithDefaults(stored: Partial<Record<string, boolean>>): Record<MailSwitch, boolean> {
  return Object.fromEntries(MAIL_SWITCHES.map((name) => [name, stored[name] ?? MAIL_SWITCH_DEFAULTS[name]])) as Record<MailSwitch, boolean>;
}

/** What the settings come to after `input`, or every problem (unknown mail type, days out of range, no code for the mail). */
export function applyMailSettings(current: MailSettings, input: MailSettingsInput): { ok: true; settings: MailSettings } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const unknown = Object.keys(input.switches ?? {}).filter((name) => !isMailSwitch(name));
  if (unknown.length > 0) problems.push(`Unknown mail type: ${unknown.join(', ')}.`);
  const days = input.winbackDays ?? current.winbackDays;
  if (!Number.isSafeInteger(days) || days < WINBACK_DAYS_MIN || days > WINBACK_DAYS_MAX) problems.push(`Days after access ends must be a whole number from ${WINBACK_DAYS_MIN} to ${WINBACK_DAYS_MAX}.`);
  const switches = { ...current.switches, ...Object.fromEntries(Object.entries(input.switches ?? {}).filter(([name]) => isMailSwitch(name))) };
  const winbackCode = input.winbackCode === undefined ? current.winbackCode : input.winbackCode;
  if (switches.winback && !winbackCode) problems.push('Choose the win-back promotion code before turning the win-back mail on.');
  return problems.length > 0 ? { ok: false, problems } : { ok: true, settings: { switches, winbackDays: days, winbackCode } };
}
