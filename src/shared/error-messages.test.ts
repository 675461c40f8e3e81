import { describe, expect, it } from 'vitest';
import {
  ERROR_CODES,
  ERROR_HTTP_STATUS,
  SERVER_ERROR_MESSAGES,
  accountCreationError,
  activationError,
  activationErrorKind,
  checkoutError,
  errorCodeOf,
  loginError,
  paymentDetailsError,
  paymentLoginError,
  planUpdatedToast,
  portalError,
  previewError,
  resetError,
  signUpError,
  subscriptionActivationError,
  upgradeError,
  PAYMENT_LOGIN_TEXTS,
  PAYMENT_PAGE_TEXTS,
  RESET_TEXTS,
  SUBSCRIPTION_LOAD_TEXTS,
  AUTH_LIBRARY_MESSAGES,
} from './error-messages';
import type { ErrorCode, ErrorInput } from './error-messages';

const serverError = (code: ErrorCode): ErrorInput => ({
  code,
  message: SERVER_ERROR_MESSAGES[code],
  status: ERROR_HTTP_STATUS[code],
});

describe('server error catalogue', () => {
  it('gives every code a message and a 4xx/5xx status', () => {
    for (const code of ERROR_CODES) {
      expect(SERVER_ERROR_MESSAGES[code].length).toBeGreaterThan(0);
      expect(ERROR_HTTP_STATUS[code]).toBeGreaterThanOrEqual(400);
      expect(ERROR_HTTP_STATUS[code]).toBeLessThan(600);
    }
  });

  it.each<[ErrorCode, string]>([
    ['lifetime_owned', 'already have a Lifetime'],
    ['subscription_exists', 'already have an active'],
    ['no_customer', 'No Stripe customer found'],
    ['portal_not_configured', 'Customer portal not configured'],
    ['payment_failed', 'card'],
  ])('the %s message keeps the substring %j that the client maps on', (code, substring) => {
    expect(SERVER_ERROR_MESSAGES[code]).toContain(substring);
  });

  // Without the code, the message alone must still map to the same text.
  it.each<[ErrorCode, (e: ErrorInput) => string, string]>([
    ['lifetime_owned', (e) => previewError(e).description, 'You already have a Lifetime subscription active. No further purchase required.'],
    ['no_customer', (e) => previewError(e).description, 'No subscription found. Please contact support.'],
    ['payment_failed', (e) => upgradeError(e, 'settings').description, 'Payment failed. Your current subscription remains active. Please check your payment method and try again.'],
    ['portal_not_configured', (e) => portalError(e).title, 'Setup Required'],
    ['subscription_exists', (e) => checkoutError(e).description, 'You already have an active subscription of this type.'],
  ])('%s maps by message alone', (code, map, expected) => {
    expect(map({ message: SERVER_ERROR_MESSAGES[code] })).toBe(expected);
  });

  it.each([
    ['invalid_credentials', 'invalid_credentials'],
    ['INVALID_EMAIL_OR_PASSWORD', 'invalid_credentials'],
    ['USER_ALREADY_EXISTS', 'user_exists'],
    ['identity_already_exists', 'user_exists'],
    ['PASSWORD_TOO_SHORT', 'weak_password'],
    ['EMAIL_NOT_VERIFIED', 'email_not_verified'],
    ['INVALID_TOKEN', 'reset_token_invalid'],
    ['something_else', null],
    [undefined, null],
  ])('errorCodeOf(%s) → %s', (code, expected) => {
    expect(errorCodeOf({ code })).toBe(expected);
  });
});

describe('loginError', () => {
  it.each<[string, ErrorInput, string, string]>([
    ['code invalid_credentials', serverError('invalid_credentials'), 'Invalid Credentials', 'Invalid email or password. Please check your credentials and try again.'],
    ['better-auth code', { code: 'INVALID_EMAIL_OR_PASSWORD', status: 401 }, 'Invalid Credentials', 'Invalid email or password. Please check your credentials and try again.'],
    ['hosted-auth message', { message: 'Invalid login credentials' }, 'Invalid Credentials', 'Invalid email or password. Please check your credentials and try again.'],
    ['429', { status: 429 }, 'Too Many Attempts', 'Please wait a moment before trying again.'],
    ['rate-limit message', { message: 'Too many requests' }, 'Too Many Attempts', 'Please wait a moment before trying again.'],
    ['unconfirmed e-mail', { code: 'EMAIL_NOT_VERIFIED', message: 'Email not verified', status: 403 }, 'Email Not Confirmed', 'Please confirm your email address using the link we sent you, then sign in again.'],
    ['unconfirmed e-mail message', { message: 'Email not confirmed' }, 'Email Not Confirmed', 'Please confirm your email address using the link we sent you, then sign in again.'],
    ['other provider message', { message: 'Account locked', status: 403 }, 'Login Failed', 'Account locked'],
    ['network', { network: true }, 'Login Failed', 'Network connection failed. Please check your internet connection and try again.'],
    ['500', { message: 'db down', status: 500 }, 'Login Failed', 'An unexpected error occurred. Please try again.'],
    ['nothing known', {}, 'Login Failed', 'An unexpected error occurred. Please try again.'],
  ])('%s', (_name, err, title, description) => {
    expect(loginError(err)).toEqual({ title, description });
  });
});

describe('paymentLoginError', () => {
  it.each<[string, ErrorInput, string, string]>([
    ['wrong password', serverError('invalid_credentials'), 'Login Failed', 'Incorrect password. Please try again.'],
    ['server message', { message: 'Email not verified', status: 403 }, 'Login Failed', 'Email not verified'],
    ['rate limited', { status: 429 }, 'Login Failed', 'Please wait a moment before trying again.'],
    ['network', { network: true }, 'Login Error', 'There was a problem logging you in. Please try again.'],
    ['500', { status: 500, message: 'boom' }, 'Login Error', 'There was a problem logging you in. Please try again.'],
    ['no message', { status: 400 }, 'Login Error', 'There was a problem logging you in. Please try again.'],
  ])('%s', (_name, err, title, description) => {
    expect(paymentLoginError(err)).toEqual({ title, description });
  });

  it('has the success text', () => {
    expect(PAYMENT_LOGIN_TEXTS.success).toEqual({ title: 'Login Successful', description: 'Welcome back! Processing your purchase...' });
  });
});

describe('signUpError', () => {
  it.each<[string, ErrorInput, string, string, boolean]>([
    ['user exists code', serverError('user_exists'), 'User Already Exists', 'An account with this email already exists. Please try logging in instead.', true],
    ['better-auth user exists', { code: 'USER_ALREADY_EXISTS', message: 'User already exists. Use another email.', status: 422 }, 'User Already Exists', 'An account with this email already exists. Please try logging in instead.', true],
    ['hosted-auth message', { message: 'User already registered' }, 'User Already Exists', 'An account with this email already exists. Please try logging in instead.', true],
    ['weak password', serverError('weak_password'), 'Sign Up Failed', 'Password must be at least 8 characters long.', false],
    ['password too short', { code: 'PASSWORD_TOO_SHORT', status: 400 }, 'Sign Up Failed', 'Password must be at least 8 characters long.', false],
    ['registration disabled', serverError('registration_disabled'), 'Sign Up Failed', 'User registration is currently disabled. Please contact support.', false],
    ['signups disabled message', { message: 'Signups not allowed for this instance', status: 403 }, 'Sign Up Failed', 'User registration is currently disabled. Please contact support.', false],
    ['other 4xx', { message: 'Email domain blocked', status: 400 }, 'Sign Up Failed', 'An error occurred during registration.', false],
    ['500', { status: 500 }, 'Sign Up Failed', 'An unexpected error occurred. Please try again.', false],
    ['thrown without details', {}, 'Sign Up Failed', 'An unexpected error occurred. Please try again.', false],
    ['network', { network: true }, 'Sign Up Failed', 'Network connection failed. Please check your internet connection and try again.', false],
  ])('%s', (_name, err, title, description, switchToSignIn) => {
    expect(signUpError(err)).toEqual({ title, description, switchToSignIn });
  });
});

describe('payment page', () => {
  it.each<[string, ErrorInput, string]>([
    ['server message', serverError('session_not_found'), 'Payment session not found.'],
    ['no message', { status: 400 }, 'There was a problem loading your payment information.'],
    ['500', { status: 500, message: 'stack trace' }, 'There was a problem loading your payment information.'],
  ])('paymentDetailsError: %s', (_name, err, description) => {
    expect(paymentDetailsError(err)).toEqual({ title: 'Error loading payment details', description });
  });

  it('paymentDetailsError: a duplicate payment explains the refund', () => {
    expect(paymentDetailsError(serverError('duplicate_payment'))).toEqual({
      title: 'Payment Refunded',
      description:
        'You already have an active subscription with this email address, so this second payment has been refunded in full and nothing new was activated. Your existing subscription is unchanged.',
    });
  });

  it.each<[string, ErrorInput, string]>([
    ['network', { network: true }, 'Unable to connect to our servers. Please check your internet connection and try again.'],
    ['503', { status: 503 }, 'Account creation service is temporarily unavailable. Please contact support.'],
    ['404 (service missing)', { status: 404 }, 'Account creation service is temporarily unavailable. Please contact support.'],
    ['registration disabled', serverError('registration_disabled'), 'Account creation service is temporarily unavailable. Please contact support.'],
    ['claimed session', serverError('session_claimed'), 'This payment has already been used to activate an account. Please log in.'],
    ['email mismatch', serverError('email_mismatch'), 'This payment belongs to a different email address.'],
    ['validation failure', serverError('validation_failed'), 'There was a problem creating your account. Please try again.'],
    ['500', serverError('internal'), 'There was a problem creating your account. Please try again.'],
  ])('accountCreationError: %s', (_name, err, description) => {
    expect(accountCreationError(err)).toEqual({ title: 'Account Creation Failed', description });
  });

  it.each<[string, ErrorInput, string]>([
    ['server message', serverError('session_not_paid'), 'This payment has not been completed.'],
    ['500', serverError('internal'), 'There was a problem activating your subscription. Please try again.'],
    ['network', { network: true }, 'Network connection failed. Please check your internet connection and try again.'],
  ])('subscriptionActivationError: %s', (_name, err, description) => {
    expect(subscriptionActivationError(err)).toEqual({ title: 'Error activating subscription', description });
  });

  it('keeps the spec texts', () => {
    expect(PAYMENT_PAGE_TEXTS.timeoutToast.title).toBe('Processing Taking Too Long');
    expect(PAYMENT_PAGE_TEXTS.timeoutScreen).toBe('Processing Timeout');
    expect(PAYMENT_PAGE_TEXTS.noPaymentData).toBe('No payment data received');
    expect(PAYMENT_PAGE_TEXTS.missingSession).toEqual({ title: 'Error', description: 'Missing payment session information.' });
    expect(PAYMENT_PAGE_TEXTS.accountCreated.title).toBe('Account created!');
    expect(PAYMENT_PAGE_TEXTS.accountCreatedLoginManually.description).toMatch(/^Account created successfully! Please log in manually/);
    expect(PAYMENT_PAGE_TEXTS.activated.title).toBe('Subscription activated successfully!');
    expect(SUBSCRIPTION_LOAD_TEXTS).toEqual({ failed: 'Failed to load subscription data', settingsCard: 'Error loading subscription data' });
    expect(AUTH_LIBRARY_MESSAGES).toEqual({ sessionMissing: 'Auth session missing!', sessionOrUserMissing: 'Auth session or user missing' });
  });
});

describe('TradingView activation', () => {
  it.each<[string, ErrorInput, string | null, string]>([
    ['vendor session expired', serverError('tv_session_expired'), 'session_expired', 'Your session has expired. Please refresh the page and try again.'],
    ['session expired message', { message: 'Session has expired' }, 'session_expired', 'Your session has expired. Please refresh the page and try again.'],
    ['username not found', serverError('tv_username_not_found'), 'not_found', 'This TradingView username does not exist. Please check your username and try again.'],
    ['not found by message', { message: 'Username not found' }, 'not_found', 'This TradingView username does not exist. Please check your username and try again.'],
    ['cannot verify', serverError('tv_unverifiable'), 'cannot_verify', 'Unable to verify TradingView username. Please check the username and try again.'],
    ['network', { network: true }, 'network', 'Connection error. Please check your internet connection and try again.'],
    ['401', { status: 401 }, 'unauthorized', 'Session expired. Please sign in again.'],
    ['unauthorized code', serverError('unauthorized'), 'unauthorized', 'Session expired. Please sign in again.'],
    ['invalid JWT message', { message: 'Invalid JWT' }, 'unauthorized', 'Session expired. Please sign in again.'],
    ['generic 404 is not a username problem', serverError('not_found'), null, 'Not found.'],
    ['other message', { message: 'Username is required', status: 400 }, null, 'Username is required'],
    ['500', serverError('internal'), null, 'There was a problem activating your TradingView access. Please try again.'],
  ])('%s', (_name, err, kind, description) => {
    expect(activationErrorKind(err)).toBe(kind);
    expect(activationError(err)).toEqual({ title: 'TradingView Activation Failed', description });
  });
});

describe('resetError', () => {
  it.each<[string, ErrorInput, 'request' | 'update', string, string]>([
    ['send failure', { message: 'SMTP refused', status: 400 }, 'request', 'Failed to send reset email', 'SMTP refused'],
    ['send 500', { status: 500 }, 'request', 'Failed to send reset email', 'An unexpected error occurred. Please try again.'],
    ['send network', { network: true }, 'request', 'Failed to send reset email', 'Network connection failed. Please check your internet connection and try again.'],
    ['update bad token', { code: 'INVALID_TOKEN', status: 400 }, 'update', 'Reset Link Error', 'This password reset link is invalid or has expired. Please request a new one.'],
    ['update expired', serverError('reset_token_invalid'), 'update', 'Reset Link Error', 'This password reset link is invalid or has expired. Please request a new one.'],
    ['update other', { message: 'Password too long', status: 400 }, 'update', 'Failed to update password', 'Password too long'],
    ['update nothing known', {}, 'update', 'Failed to update password', 'An unexpected error occurred. Please try again.'],
    ['a bad token while requesting is not a link error', { code: 'INVALID_TOKEN', status: 400 }, 'request', 'Failed to send reset email', 'An unexpected error occurred. Please try again.'],
  ])('%s', (_name, err, stage, title, description) => {
    expect(resetError(err, stage)).toEqual({ title, description });
  });

  it('keeps the spec titles', () => {
    expect(RESET_TEXTS.invalidLink.title).toBe('Invalid Reset Link');
    expect(RESET_TEXTS.linkSent.title).toBe('Reset Link Sent');
    expect(RESET_TEXTS.linkSent.description).toContain('10 minutes');
    expect(RESET_TEXTS.passwordUpdated.title).toBe('Password Updated');
  });
});

describe('previewError', () => {
  it.each<[string, ErrorInput, string]>([
    ['lifetime', serverError('lifetime_owned'), 'You already have a Lifetime subscription active. No further purchase required.'],
    ['no customer', serverError('no_customer'), 'No subscription found. Please contact support.'],
    ['other message', { message: 'Plan is the same', status: 400 }, 'Plan is the same'],
    ['nothing', {}, 'Could not preview upgrade costs. Please try again.'],
    ['500', serverError('internal'), 'Could not preview upgrade costs. Please try again.'],
    ['network', { network: true }, 'Could not preview upgrade costs. Please try again.'],
  ])('%s', (_name, err, description) => {
    expect(previewError(err)).toEqual({ title: 'Preview Error', description });
  });
});

describe('upgradeError', () => {
  it.each<[string, ErrorInput, 'settings' | 'landing', string, string]>([
    ['lifetime', serverError('lifetime_owned'), 'settings', 'Plan Upgrade Error', 'You already have a Lifetime subscription active. No further purchase required.'],
    ['lifetime on landing', serverError('lifetime_owned'), 'landing', 'Plan Update Error', 'You already have a Lifetime subscription active. No further purchase required.'],
    ['no customer', serverError('no_customer'), 'settings', 'Plan Upgrade Error', 'No subscription found. Please contact support.'],
    ['same plan', serverError('subscription_exists'), 'settings', 'Plan Upgrade Error', 'You already have an active subscription of this type.'],
    ['3-D Secure on landing', serverError('payment_action_required'), 'landing', 'Plan Update Error', 'Your bank asks you to confirm this payment. Open the secure payment page to approve it; your new plan starts as soon as it is confirmed.'],
    ['payment failed code', serverError('payment_failed'), 'landing', 'Plan Update Error', 'Payment failed. Your current subscription remains active. Please check your payment method and try again.'],
    ['payment_intent message', { message: 'payment_intent requires action', status: 402 }, 'settings', 'Plan Upgrade Error', 'Payment failed. Your current subscription remains active. Please check your payment method and try again.'],
    ['insufficient funds', { message: 'Insufficient funds', status: 402 }, 'settings', 'Plan Upgrade Error', 'Payment failed. Your current subscription remains active. Please check your payment method and try again.'],
    ['other message', { message: 'Subscription is paused.', status: 409 }, 'settings', 'Plan Upgrade Error', 'Upgrade failed: Subscription is paused. Your current subscription remains active.'],
    ['other message without stop', { message: 'Subscription is paused', status: 409 }, 'landing', 'Plan Update Error', 'Upgrade failed: Subscription is paused. Your current subscription remains active.'],
    ['nothing on settings', {}, 'settings', 'Plan Upgrade Error', 'There was a problem upgrading your plan. Your current subscription remains active.'],
    ['nothing on landing', {}, 'landing', 'Plan Update Error', 'There was a problem updating your plan. Please try again.'],
    ['500 on settings', serverError('internal'), 'settings', 'Plan Upgrade Error', 'There was a problem upgrading your plan. Your current subscription remains active.'],
  ])('%s', (_name, err, where, title, description) => {
    expect(upgradeError(err, where)).toEqual({ title, description });
  });

  it.each([
    ['quarterly', 'Your subscription has been updated to Quarterly.'],
    ['euMonthly', 'Your subscription has been updated to Monthly.'],
    ['yearly', 'Your subscription has been updated to Yearly.'],
  ] as const)('planUpdatedToast(%s)', (plan, description) => {
    expect(planUpdatedToast(plan)).toEqual({ title: 'Plan Updated Successfully', description });
  });
});

describe('checkoutError', () => {
  it.each<[string, ErrorInput, string]>([
    ['lifetime code', serverError('lifetime_owned'), 'You already have Lifetime access. No further purchase required.'],
    ['lifetime message', { message: 'You already have Lifetime access.' }, 'You already have Lifetime access. No further purchase required.'],
    ['same plan', serverError('subscription_exists'), 'You already have an active subscription of this type.'],
    ['banned account', serverError('account_banned'), 'This account can no longer buy from this shop. If you think this is a mistake, please contact support.'],
    ['anything else', { message: 'Stripe exploded', status: 502 }, 'There was a problem processing your request. Please try again.'],
    ['network', { network: true }, 'There was a problem processing your request. Please try again.'],
  ])('%s', (_name, err, description) => {
    expect(checkoutError(err)).toEqual({ title: 'Error', description });
  });

  it('a refused checkout says which limit and when to retry, as the server words it', () => {
    const message = 'This browser has started too many checkouts in the last few minutes. Please try again in 4 minutes.';
    expect(checkoutError({ code: 'rate_limited', message, status: 429 })).toEqual({ title: 'Too many checkouts', description: message });
  });
});

describe('portalError', () => {
  const setup = { title: 'Setup Required', description: 'Your Stripe Customer Portal needs to be configured first. Please set it up in your Stripe dashboard.' };
  const error = { title: 'Error', description: 'Could not access subscription management. Please try again.' };
  it.each<[string, ErrorInput & { configurationRequired?: boolean }, typeof setup]>([
    ['configurationRequired flag', { configurationRequired: true }, setup],
    ['code', serverError('portal_not_configured'), setup],
    ['message only', { message: 'Customer portal not configured yet' }, setup],
    ['no customer', serverError('no_customer'), error],
    ['no url', {}, error],
    ['network', { network: true }, error],
  ])('%s', (_name, err, expected) => {
    expect(portalError(err)).toEqual(expected);
  });
});

describe('better-auth codes and rate limits (regressions found by the accounts suite)', () => {
  it.each([
    { code: 'EMAIL_PASSWORD_SIGN_UP_DISABLED', expected: 'registration_disabled' },
    { code: 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL', expected: 'user_exists' },
  ])('$code is understood as $expected', ({ code, expected }) => {
    expect(errorCodeOf({ code })).toBe(expected);
  });

  it('a rate-limited reset request asks to wait instead of showing the raw server text', () => {
    expect(resetError({ status: 429, message: 'Too many requests. Please try again later.' }, 'request')).toEqual({
      title: 'Failed to send reset email',
      description: 'Please wait a moment before trying again.',
    });
  });
});
