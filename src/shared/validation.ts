// Form and request validation with the exact messages users see, shared by forms and routes.
import { z } from 'zod';
import type { Toast } from './error-messages';
import { JSON_MAX_DEPTH } from './json-limits';

export const EMAIL_MAX_LENGTH = 254;
export const EMAIL_MIN_LENGTH = 3;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const NAME_MAX_LENGTH = 100;

export const VALIDATION_MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address.',
  forgotEmailInvalid: 'Please enter a valid email address',
  passwordRequired: 'Password is required',
  signUpPassword:
    'Password must be at least 8 characters long. Password should contain at least one character of each: lowercase, uppercase, numbers.',
  passwordTooLong: 'Password must be at most 128 characters long.',
  newPasswordTooShort: 'Password must be at least 8 characters long',
  passwordsDoNotMatch: 'Passwords do not match',
  tradingViewUsernameRequired: 'Please enter your TradingView username.',
  tradingViewUsernameInvalid:
    'TradingView usernames contain only letters, numbers, underscores (_) and hyphens (-).',
  tradingViewUsernameTooLong: 'TradingView usernames are at most 50 characters long.',
  unsafeText: 'Text may not contain control characters or invalid Unicode (such as a NUL byte or a lone surrogate).',
  nameTooLong: 'Name must be at most 100 characters long.',
} as const;

// C0 and C1 control characters (NUL, escape sequences, line breaks…) and UTF-16 surrogates that
// are not part of a pair: Postgres refuses the first and the second cannot be encoded as UTF-8.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE_TEXT = /[\u0000-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The one text rule for every input: no control characters, only well-formed UTF-16. */
export function isSafeText(value: string): boolean {
  return !UNSAFE_TEXT.test(value);
}

/** A string field that passes the text rule; chain further checks on it. */
export const safeText = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine(isSafeText, { error: VALIDATION_MESSAGES.unsafeText, abort: true });

type Visit = { value: unknown; key: string | null; parent: Visit | null };

// A path longer than any body the server accepts is cut: it only names where to look.
function pathOf(visit: Visit | null, last?: string): string {
  const keys: string[] = last === undefined ? [] : [last];
  for (let at = visit; at; at = at.parent) if (at.key !== null) keys.push(at.key);
  keys.reverse();
  if (keys.length > JSON_MAX_DEPTH) return `${keys.slice(0, JSON_MAX_DEPTH).join('.')}.…`;
  return keys.join('.') || '(body)';
}

/**
 * The dotted path of the first string in a JSON value that breaks the text rule, or null. For
 * bodies whose fields we do not parse ourselves (better-auth's). Walks with its own stack, each
 * object once, so however deep the value its cost is its size (a recursive walk overflowed the
 * call stack on 30,000 nested arrays).
 */
export function findUnsafeText(value: unknown): string | null {
  const pending: Visit[] = [{ value, key: null, parent: null }];
  const seen = new Set<object>();
  for (let visit = pending.pop(); visit; visit = pending.pop()) {
    if (visit.key !== null && !isSafeText(visit.key)) return pathOf(visit.parent, '(key)');
    const item = visit.value;
    if (typeof item === 'string') {
      if (!isSafeText(item)) return pathOf(visit);
      continue;
    }
    if (typeof item !== 'object' || item === null || seen.has(item)) continue;
    seen.add(item);
    const entries = Object.entries(item);
    // reversed onto the stack, so that fields are looked at in their order, depth first
    for (let index = entries.length - 1; index >= 0; index -= 1) {
      const [key, child] = entries[index]!;
      pending.push({ value: child, key, parent: visit });
    }
  }
  return null;
}

/** The name an account carries (sign-up, profile update). */
export const displayNameSchema = safeText().trim().max(NAME_MAX_LENGTH, { error: VALIDATION_MESSAGES.nameTooLong });

export const MISSING_CREDENTIALS = 'You must provide either an email or phone number and a password';

export const VALIDATION_TOASTS = {
  invalidPassword: {
    title: 'Invalid Password',
    description: 'Password must be at least 8 characters long.',
  },
  missingTradingViewUsername: {
    title: 'Missing TradingView Username',
    description: 'Please provide your TradingView username.',
  },
  usernameRequired: {
    title: 'Username Required',
    description: 'Please enter your TradingView username.',
  },
  passwordRequired: {
    title: 'Password Required',
    description: 'Please enter your password to continue.',
  },
  invalidPaymentSession: {
    title: 'Invalid Payment Session',
    description: 'No payment session found. Please try again.',
  },
} as const satisfies Record<string, Toast>;

const stripAngleBrackets = (value: string) => value.replace(/[<>]/g, '');

/** What an e-mail input keeps of typed text: trimmed, no < or >, at most 254 characters. */
export function sanitizeEmail(raw: string): string {
  return stripAngleBrackets(raw.trim()).slice(0, EMAIL_MAX_LENGTH);
}

// The spec asks only for the basic x@y.z shape; the mail server is the real judge of an address.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// Schemas sanitise but never truncate: silently cutting an address could make a different,
// valid one, so an over-long value is refused instead.
export const emailSchema = safeText({ error: VALIDATION_MESSAGES.emailRequired })
  .overwrite((value) => stripAngleBrackets(value.trim()))
  .min(1, { error: VALIDATION_MESSAGES.emailRequired, abort: true })
  .min(EMAIL_MIN_LENGTH, { error: VALIDATION_MESSAGES.emailInvalid, abort: true })
  .max(EMAIL_MAX_LENGTH, { error: VALIDATION_MESSAGES.emailInvalid, abort: true })
  .regex(EMAIL_SHAPE, { error: VALIDATION_MESSAGES.emailInvalid });

export const signUpPasswordSchema = safeText({ error: VALIDATION_MESSAGES.passwordRequired })
  .min(1, { error: VALIDATION_MESSAGES.passwordRequired, abort: true })
  .max(PASSWORD_MAX_LENGTH, { error: VALIDATION_MESSAGES.passwordTooLong, abort: true })
  .refine(
    (value) =>
      value.length >= PASSWORD_MIN_LENGTH &&
      /[a-z]/.test(value) &&
      /[A-Z]/.test(value) &&
      /[0-9]/.test(value),
    { error: VALIDATION_MESSAGES.signUpPassword },
  );

// Sign-in checks no length: accounts may predate the current password rules.
export const signInPasswordSchema = safeText({ error: VALIDATION_MESSAGES.passwordRequired })
  .min(1, { error: VALIDATION_MESSAGES.passwordRequired, abort: true })
  .max(PASSWORD_MAX_LENGTH, { error: VALIDATION_MESSAGES.passwordTooLong });

export const signInSchema = z.object({ email: emailSchema, password: signInPasswordSchema });
export type SignInInput = z.infer<typeof signInSchema>;

export const signUpSchema = z.object({ email: emailSchema, password: signUpPasswordSchema });
export type SignUpInput = z.infer<typeof signUpSchema>;

/** A password chosen on account creation (payment page) or reset: at least 8, at most 128. */
export const accountPasswordSchema = safeText({ error: VALIDATION_MESSAGES.newPasswordTooShort })
  // No `abort` here: an aborting field issue would stop the confirm-match check below.
  .min(PASSWORD_MIN_LENGTH, { error: VALIDATION_MESSAGES.newPasswordTooShort })
  .max(PASSWORD_MAX_LENGTH, { error: VALIDATION_MESSAGES.passwordTooLong });

export const newPasswordSchema = z
  .object({ password: accountPasswordSchema, confirmPassword: z.string() })
  .refine((value) => value.password === value.confirmPassword, {
    error: VALIDATION_MESSAGES.passwordsDoNotMatch,
    path: ['confirmPassword'],
    // Report a mismatch even while the password itself is still too short.
    when: (payload) => typeof payload.value === 'object' && payload.value !== null,
  });
export type NewPasswordInput = z.infer<typeof newPasswordSchema>;

export const forgotPasswordSchema = z.object({
  email: safeText({ error: VALIDATION_MESSAGES.forgotEmailInvalid })
    .overwrite((value) => stripAngleBrackets(value.trim()))
    .max(EMAIL_MAX_LENGTH, { error: VALIDATION_MESSAGES.forgotEmailInvalid, abort: true })
    .regex(EMAIL_SHAPE, { error: VALIDATION_MESSAGES.forgotEmailInvalid }),
});
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

export const TRADINGVIEW_USERNAME_MAX_LENGTH = 50;

/**
 * TradingView's help centre allows only Latin letters, digits, underscore and hyphen in a
 * username; it publishes no maximum, so 50 is a generous guard against pasted junk. A leading
 * '@' is dropped because profiles display the name as '@name' and buyers copy it that way.
 * Whether the account exists is checked by the server against TradingView.
 */
export const tradingViewUsernameSchema = safeText({ error: VALIDATION_MESSAGES.tradingViewUsernameRequired })
  .overwrite((value) => value.trim().replace(/^@/, ''))
  .min(1, { error: VALIDATION_MESSAGES.tradingViewUsernameRequired, abort: true })
  .max(TRADINGVIEW_USERNAME_MAX_LENGTH, {
    error: VALIDATION_MESSAGES.tradingViewUsernameTooLong,
    abort: true,
  })
  .regex(/^[A-Za-z0-9_-]+$/, { error: VALIDATION_MESSAGES.tradingViewUsernameInvalid });

export const tradingViewUsernameFormSchema = z.object({
  tradingviewUsername: tradingViewUsernameSchema,
});
export type TradingViewUsernameFormInput = z.infer<typeof tradingViewUsernameFormSchema>;

/** True when an auth request lacks an identifier or a password (MISSING_CREDENTIALS). */
export function missingCredentials(input: {
  email?: string | null;
  phone?: string | null;
  password?: string | null;
}): boolean {
  const identifier = (input.email ?? '').trim() || (input.phone ?? '').trim();
  return identifier === '' || !input.password;
}
