// The sign-up password rule, rule by rule, so that a screen outside the spec's own (the operator
// invitation page) can name only what a password still lacks. The sign-up form keeps the spec's
// one sentence (VALIDATION_MESSAGES.signUpPassword).
import { z } from 'zod';
import { isSafeText, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, VALIDATION_MESSAGES } from './validation';

export const PASSWORD_RULES = [
  { id: 'length', text: `at least ${PASSWORD_MIN_LENGTH} characters`, met: (value: string) => value.length >= PASSWORD_MIN_LENGTH },
  { id: 'lowercase', text: 'a lowercase letter', met: (value: string) => /[a-z]/.test(value) },
  { id: 'uppercase', text: 'an uppercase letter', met: (value: string) => /[A-Z]/.test(value) },
  { id: 'number', text: 'a number', met: (value: string) => /[0-9]/.test(value) },
] as const;

/** The rules `value` does not meet yet, in the rule's order. */
export function unmetPasswordRules(value: string): string[] {
  return PASSWORD_RULES.filter((rule) => !rule.met(value)).map((rule) => rule.text);
}

const joinWithAnd = (parts: readonly string[]) => (parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`);

/** What is wrong with `value`, naming only the rules not met; null when it is a good password. */
export function passwordRulesMessage(value: string): string | null {
  if (value.length === 0) return VALIDATION_MESSAGES.passwordRequired;
  if (value.length > PASSWORD_MAX_LENGTH) return VALIDATION_MESSAGES.passwordTooLong;
  const unmet = unmetPasswordRules(value);
  return unmet.length === 0 ? null : `Password needs ${joinWithAnd(unmet)}.`;
}

/** A new password outside the spec's screens: the sign-up rule, refused with only the rules not met. */
export const rulesNamedPasswordSchema = z.string().superRefine((value, context) => {
  const message = isSafeText(value) ? passwordRulesMessage(value) : VALIDATION_MESSAGES.unsafeText;
  if (message !== null) context.addIssue({ code: 'custom', message });
});
