import { describe, expect, it } from 'vitest';
import { OPERATOR_SESSION_HOURS, operatorStanding, type OperatorFacts } from './operator-standing';

const now = new Date('2026-11-24T12:00:00Z');
const proven: OperatorFacts = {
  named: true,
  emailVerified: true,
  twoFactorRequired: true,
  twoFactorEnabled: true,
  signedInAt: new Date(now.getTime() - 60_000),
  signInPassedTwoFactor: true,
  now,
};
const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000);

describe('operatorStanding', () => {
  it.each<[string, Partial<OperatorFacts>, ReturnType<typeof operatorStanding>]>([
    ['a proven operator signed in with two-factor', {}, 'operator'],
    ['an account nobody named', { named: false }, 'member'],
    ['a named address whose account never proved its e-mail', { emailVerified: false }, 'confirm_email'],
    ['named, unproven and without two-factor: the e-mail comes first', { emailVerified: false, twoFactorEnabled: false }, 'confirm_email'],
    ['two-factor required and not set up', { twoFactorEnabled: false, signInPassedTwoFactor: false }, 'enrol_two_factor'],
    ['two-factor not required and not set up', { twoFactorRequired: false, twoFactorEnabled: false, signInPassedTwoFactor: false }, 'operator'],
    ['a sign-in that skipped the second factor (password reset)', { signInPassedTwoFactor: false }, 'sign_in_again'],
    ['an enrolled account whose sign-in skipped it, even where not required', { twoFactorRequired: false, signInPassedTwoFactor: false }, 'sign_in_again'],
    ['a sign-in exactly at the limit', { signedInAt: hoursAgo(OPERATOR_SESSION_HOURS) }, 'operator'],
    ['a sign-in older than the limit', { signedInAt: new Date(hoursAgo(OPERATOR_SESSION_HOURS).getTime() - 1) }, 'sign_in_again'],
  ])('%s', (_name, change, expected) => {
    expect(operatorStanding({ ...proven, ...change })).toBe(expected);
  });
});
