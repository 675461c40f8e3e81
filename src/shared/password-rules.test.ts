import { describe, expect, it } from 'vitest';
import { passwordRulesMessage, rulesNamedPasswordSchema, unmetPasswordRules } from './password-rules';
import { signUpPasswordSchema, VALIDATION_MESSAGES } from './validation';

describe('password rules named one by one (#46)', () => {
  it.each([
    ['weak', 'Password needs at least 8 characters, an uppercase letter and a number.'],
    ['weakpassword1', 'Password needs an uppercase letter.'],
    ['ALLCAPS123', 'Password needs a lowercase letter.'],
    ['NoDigitsHere', 'Password needs a number.'],
    ['Str0ng-enough', null],
    ['', VALIDATION_MESSAGES.passwordRequired],
    [`A1${'a'.repeat(127)}`, VALIDATION_MESSAGES.passwordTooLong],
  ])('%j → %j', (value, message) => {
    expect(passwordRulesMessage(value)).toBe(message);
  });

  it('accepts exactly what the sign-up rule accepts', () => {
    for (const value of ['weak', 'weakpassword1', 'Str0ng-enough', 'ALLCAPS123', 'Abcdefg1']) {
      expect(rulesNamedPasswordSchema.safeParse(value).success).toBe(signUpPasswordSchema.safeParse(value).success);
      expect(unmetPasswordRules(value).length === 0).toBe(signUpPasswordSchema.safeParse(value).success);
    }
  });

  it('the sign-up form keeps the spec sentence', () => {
    expect(signUpPasswordSchema.safeParse('weak').error?.issues[0]?.message).toBe(VALIDATION_MESSAGES.signUpPassword);
  });
});
