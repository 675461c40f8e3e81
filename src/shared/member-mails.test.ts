import { describe, expect, it } from 'vitest';
import { applyMailSettings, MAIL_SWITCH_DEFAULTS, setupReminderStep, winbackWindow, type MailSettings } from './member-mails';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const start = new Date('2026-03-01T00:00:00Z');
const after = (ms: number) => new Date(start.getTime() + ms);

describe('the set-up reminders cadence', () => {
  it.each([
    [2 * HOUR, null],
    [3 * HOUR, 0],
    [23 * HOUR, 0],
    [24 * HOUR, 1],
    [48 * HOUR, 2],
    [6 * DAY, 2],
    [7 * DAY, 3],
    [10 * DAY - 1, 3],
    [10 * DAY, null],
  ])('%i ms after the purchase → step %s (the latest reached; nothing once the last is 3 days late)', (elapsed, step) => {
    expect(setupReminderStep(start, after(elapsed))).toBe(step);
  });
});

describe('the win-back day', () => {
  it('mails the access that ended N days ago, or up to 3 days before that', () => {
    expect(winbackWindow(after(20 * DAY), 14)).toEqual({ endedAfter: after(3 * DAY), endedBy: after(6 * DAY) });
  });
});

describe('the operator mail settings', () => {
  const current: MailSettings = { switches: { ...MAIL_SWITCH_DEFAULTS }, winbackDays: 14, winbackCode: null };

  it('applies what is given and keeps the rest', () => {
    expect(applyMailSettings(current, { switches: { checkout_recovery: false, winback: true }, winbackCode: 'BACK20', winbackDays: 30 })).toEqual({
      ok: true,
      settings: { switches: { ...MAIL_SWITCH_DEFAULTS, checkout_recovery: false, winback: true }, winbackDays: 30, winbackCode: 'BACK20' },
    });
  });

  it('answers every problem at once and nothing of the rest', () => {
    expect(applyMailSettings(current, { switches: { newsletter: true, winback: true }, winbackDays: 366 })).toEqual({
      ok: false,
      problems: ['Unknown mail type: newsletter.', 'Days after access ends must be a whole number from 1 to 365.', 'Choose the win-back promotion code before turning the win-back mail on.'],
    });
  });
});
