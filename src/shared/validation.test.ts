import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  MISSING_CREDENTIALS,
  NAME_MAX_LENGTH,
  VALIDATION_MESSAGES,
  VALIDATION_TOASTS,
  displayNameSchema,
  findUnsafeText,
  isSafeText,
  accountPasswordSchema,
  emailSchema,
  forgotPasswordSchema,
  missingCredentials,
  newPasswordSchema,
  sanitizeEmail,
  signInPasswordSchema,
  signInSchema,
  signUpPasswordSchema,
  signUpSchema,
  tradingViewUsernameSchema,
} from './validation';
import { JSON_MAX_DEPTH } from './json-limits';

/** Messages of a failed parse, or the parsed value on success. */
function outcome(schema: z.ZodType, input: unknown): { ok: unknown } | { errors: string[] } {
  const result = schema.safeParse(input);
  return result.success ? { ok: result.data } : { errors: result.error.issues.map((i) => i.message) };
}

function issuesByPath(schema: z.ZodType, input: unknown): Record<string, string[]> {
  const result = schema.safeParse(input);
  const byPath: Record<string, string[]> = {};
  for (const issue of result.error?.issues ?? []) {
    const key = issue.path.join('.');
    (byPath[key] ??= []).push(issue.message);
  }
  return byPath;
}

const VALID_EMAIL_MSG = 'Please enter a valid email address.';
const SIGN_UP_MSG =
  'Password must be at least 8 characters long. Password should contain at least one character of each: lowercase, uppercase, numbers.';

describe('sanitizeEmail', () => {
  it.each([
    ['  user@example.com  ', 'user@example.com'],
    ['<script>user@example.com</script>', 'scriptuser@example.com/script'],
    ['a<b>@x.io', 'ab@x.io'],
    ['x'.repeat(300), 'x'.repeat(254)],
    ['', ''],
  ])('sanitizeEmail(%j) → %j', (raw, expected) => {
    expect(sanitizeEmail(raw)).toBe(expected);
  });
});

describe('emailSchema', () => {
  it.each<[unknown, unknown]>([
    ['user@example.com', { ok: 'user@example.com' }],
    ['  user@example.com ', { ok: 'user@example.com' }],
    ['<user@example.com>', { ok: 'user@example.com' }],
    ['a@b.c', { ok: 'a@b.c' }],
    ['', { errors: ['Email is required'] }],
    ['   ', { errors: ['Email is required'] }],
    [undefined, { errors: ['Email is required'] }],
    ['a@', { errors: [VALID_EMAIL_MSG] }],
    ['user', { errors: [VALID_EMAIL_MSG] }],
    ['user@example', { errors: [VALID_EMAIL_MSG] }],
    ['us er@example.com', { errors: [VALID_EMAIL_MSG] }],
    ['a@@b.com', { errors: [VALID_EMAIL_MSG] }],
    [`${'a'.repeat(242)}@example.com`, { ok: `${'a'.repeat(242)}@example.com` }],
    [`${'a'.repeat(243)}@example.com`, { errors: [VALID_EMAIL_MSG] }],
  ])('emailSchema(%j) → %j', (input, expected) => {
    expect(outcome(emailSchema, input)).toEqual(expected);
  });
});

describe('passwords', () => {
  it.each<[unknown, unknown]>([
    ['Abcdefg1', { ok: 'Abcdefg1' }],
    ['', { errors: ['Password is required'] }],
    [undefined, { errors: ['Password is required'] }],
    ['Abcdef1', { errors: [SIGN_UP_MSG] }],
    ['abcdefg1', { errors: [SIGN_UP_MSG] }],
    ['ABCDEFG1', { errors: [SIGN_UP_MSG] }],
    ['Abcdefgh', { errors: [SIGN_UP_MSG] }],
    [`Aa1${'x'.repeat(125)}`, { ok: `Aa1${'x'.repeat(125)}` }],
    [`Aa1${'x'.repeat(126)}`, { errors: ['Password must be at most 128 characters long.'] }],
  ])('signUpPasswordSchema(%j) → %j', (input, expected) => {
    expect(outcome(signUpPasswordSchema, input)).toEqual(expected);
  });

  it.each<[unknown, unknown]>([
    ['a', { ok: 'a' }],
    ['password', { ok: 'password' }],
    ['  spaced  ', { ok: '  spaced  ' }],
    ['', { errors: ['Password is required'] }],
    ['x'.repeat(129), { errors: ['Password must be at most 128 characters long.'] }],
  ])('signInPasswordSchema(%j) → %j', (input, expected) => {
    expect(outcome(signInPasswordSchema, input)).toEqual(expected);
  });

  it.each<[unknown, unknown]>([
    ['12345678', { ok: '12345678' }],
    ['1234567', { errors: ['Password must be at least 8 characters long'] }],
    ['', { errors: ['Password must be at least 8 characters long'] }],
  ])('accountPasswordSchema(%j) → %j', (input, expected) => {
    expect(outcome(accountPasswordSchema, input)).toEqual(expected);
  });

  it.each<[{ password: string; confirmPassword: string }, Record<string, string[]>]>([
    [{ password: 'longenough', confirmPassword: 'longenough' }, {}],
    [{ password: 'longenough', confirmPassword: 'longenougH' }, { confirmPassword: ['Passwords do not match'] }],
    [{ password: 'short', confirmPassword: 'short' }, { password: ['Password must be at least 8 characters long'] }],
    [
      { password: 'short', confirmPassword: 'other' },
      { password: ['Password must be at least 8 characters long'], confirmPassword: ['Passwords do not match'] },
    ],
  ])('newPasswordSchema(%j) → %j', (input, expected) => {
    expect(issuesByPath(newPasswordSchema, input)).toEqual(expected);
  });

  it('newPasswordSchema refuses a non-object without throwing', () => {
    expect(newPasswordSchema.safeParse(null).success).toBe(false);
  });
});

describe('form schemas', () => {
  it.each<[unknown, Record<string, string[]>]>([
    [{ email: 'a@b.co', password: 'x' }, {}],
    [{ email: '', password: '' }, { email: ['Email is required'], password: ['Password is required'] }],
    [{ email: 'nope', password: 'x' }, { email: [VALID_EMAIL_MSG] }],
  ])('signInSchema(%j) → %j', (input, expected) => {
    expect(issuesByPath(signInSchema, input)).toEqual(expected);
  });

  it.each<[unknown, Record<string, string[]>]>([
    [{ email: 'a@b.co', password: 'Abcdefg1' }, {}],
    [{ email: 'a@b.co', password: 'weakpass' }, { password: [SIGN_UP_MSG] }],
  ])('signUpSchema(%j) → %j', (input, expected) => {
    expect(issuesByPath(signUpSchema, input)).toEqual(expected);
  });

  it.each<[unknown, unknown]>([
    [{ email: ' a@b.co ' }, { ok: { email: 'a@b.co' } }],
    [{ email: '' }, { errors: ['Please enter a valid email address'] }],
    [{ email: 'not-an-email' }, { errors: ['Please enter a valid email address'] }],
    [{ email: `${'a'.repeat(250)}@b.co` }, { errors: ['Please enter a valid email address'] }],
  ])('forgotPasswordSchema(%j) → %j', (input, expected) => {
    expect(outcome(forgotPasswordSchema, input)).toEqual(expected);
  });
});

describe('tradingViewUsernameSchema', () => {
  it.each<[unknown, unknown]>([
    ['Trader_123', { ok: 'Trader_123' }],
    ['  trader-x  ', { ok: 'trader-x' }],
    ['@SomeTrader', { ok: 'SomeTrader' }],
    ['a', { ok: 'a' }],
    ['x'.repeat(50), { ok: 'x'.repeat(50) }],
    ['', { errors: ['Please enter your TradingView username.'] }],
    ['   ', { errors: ['Please enter your TradingView username.'] }],
    ['@', { errors: ['Please enter your TradingView username.'] }],
    [undefined, { errors: ['Please enter your TradingView username.'] }],
    ['two words', { errors: ['TradingView usernames contain only letters, numbers, underscores (_) and hyphens (-).'] }],
    ['name.with.dots', { errors: ['TradingView usernames contain only letters, numbers, underscores (_) and hyphens (-).'] }],
    ['tradér', { errors: ['TradingView usernames contain only letters, numbers, underscores (_) and hyphens (-).'] }],
    ['x'.repeat(51), { errors: ['TradingView usernames are at most 50 characters long.'] }],
  ])('tradingViewUsernameSchema(%j) → %j', (input, expected) => {
    expect(outcome(tradingViewUsernameSchema, input)).toEqual(expected);
  });
});

describe('credentials and toasts', () => {
  it.each<[Parameters<typeof missingCredentials>[0], boolean]>([
    [{ email: 'a@b.co', password: 'x' }, false],
    [{ phone: '+15550100', password: 'x' }, false],
    [{ email: '  ', password: 'x' }, true],
    [{ email: 'a@b.co', password: '' }, true],
    [{ email: null, phone: null, password: 'x' }, true],
    [{}, true],
  ])('missingCredentials(%j) → %s', (input, expected) => {
    expect(missingCredentials(input)).toBe(expected);
  });

  it('keeps the spec texts', () => {
    expect(MISSING_CREDENTIALS).toBe('You must provide either an email or phone number and a password');
    expect(Object.values(VALIDATION_TOASTS).map((t) => `${t.title} - ${t.description}`)).toEqual([
      'Invalid Password - Password must be at least 8 characters long.',
      'Missing TradingView Username - Please provide your TradingView username.',
      'Username Required - Please enter your TradingView username.',
      'Password Required - Please enter your password to continue.',
      'Invalid Payment Session - No payment session found. Please try again.',
    ]);
  });
});

// NUL bytes and lone surrogates once reached Postgres and answered 500
describe('the text rule', () => {
  it.each<[string, string, boolean]>([
    ['plain text', 'hello@example.com', true],
    ['accents and emoji (a surrogate pair)', 'Zoë 📈', true],
    ['empty', '', true],
    ['NUL', 'a\u0000b', false],
    ['escape', '\u001b[31m', false],
    ['line break', 'a\nb', false],
    ['DEL', '\u007f', false],
    ['C1 control', '\u0085', false],
    ['lone high surrogate', 'a\uD83D', false],
    ['lone low surrogate', '\uDCA9b', false],
    ['reversed pair', '\uDCA9\uD83D', false],
  ])('%s → %s', (_name, value, safe) => {
    expect(isSafeText(value)).toBe(safe);
    expect(outcome(emailSchema, `${value}x@y.zz`)).toEqual(safe ? expect.anything() : { errors: [VALIDATION_MESSAGES.unsafeText] });
  });

  it('finds the first unsafe string in a JSON body, keys included', () => {
    expect(findUnsafeText({ email: 'a@b.co', password: 'x' })).toBeNull();
    expect(findUnsafeText({ email: 'a@b.co', nested: [1, { token: 'ab\u0000' }] })).toBe('nested.1.token');
    expect(findUnsafeText({ 'a\uD800': 1 })).toBe('(key)');
    expect(findUnsafeText('\u0000')).toBe('(body)');
  });

  it('answers in field order, a bad key before its value and before later fields', () => {
    expect(findUnsafeText({ a: { 'k\u0000': 'v\u0000' }, b: '\u0000' })).toBe('a.(key)');
    expect(findUnsafeText({ a: ['ok', { b: '\u0001' }], c: '\u0000' })).toBe('a.1.b');
  });

  // 30,000 nested arrays overflowed the call stack of the recursive walk (a 500 on sign-in)
  it('walks a value nested far deeper than any body without recursion', () => {
    let deep: unknown = 'fine';
    for (let level = 0; level < 30_000; level += 1) deep = [deep];
    expect(findUnsafeText(deep)).toBeNull();
    let bad: unknown = '\u0000';
    for (let level = 0; level < 30_000; level += 1) bad = [bad];
    expect(findUnsafeText(bad)).toBe(`${Array(JSON_MAX_DEPTH).fill('0').join('.')}.…`);
  });

  it('ends on a value that contains itself', () => {
    const loop: Record<string, unknown> = { name: 'ok' };
    loop.self = loop;
    expect(findUnsafeText(loop)).toBeNull();
  });

  it('limits the account name (a 1 MB name was stored)', () => {
    expect(outcome(displayNameSchema, '  Ada  ')).toEqual({ ok: 'Ada' });
    expect(outcome(displayNameSchema, 'x'.repeat(NAME_MAX_LENGTH + 1))).toEqual({ errors: [VALIDATION_MESSAGES.nameTooLong] });
  });
});
