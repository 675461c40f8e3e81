// Every user-facing error and success text, and the mapping from API errors to them.
// The server sends a machine code plus a message; the client maps either (codes first, then the
// message substrings the spec's client matched on) so older or third-party messages still map.
import { planDisplayName } from './plans';
import type { PlanType } from './plans';
import { JSON_MAX_DEPTH } from './json-limits';

export type Toast = { title: string; description: string };

export const ERROR_CODES = [
  'lifetime_owned',
  'subscription_exists',
  'no_customer',
  'portal_not_configured',
  'tv_username_not_found',
  'tv_session_expired',
  'tv_unverifiable',
  'payment_failed',
  'payment_action_required',
  'session_not_paid',
  'session_not_found',
  'session_claimed',
  'email_mismatch',
  'purchase_unproven',
  'duplicate_payment',
  'plan_change_in_progress',
  'rate_limited',
  'invalid_credentials',
  'email_not_verified',
  'user_exists',
  'weak_password',
  'registration_disabled',
  'reset_token_invalid',
  'provider_unavailable',
  'validation_failed',
  'payload_too_large',
  'json_too_deep',
  'unauthorized',
  'forbidden',
  'not_found',
  'internal',
  'discord_already_linked',
  'discord_denied',
  'discord_needs_access',
  'discord_link_expired',
  'discord_unavailable',
  'promotion_code_invalid',
  'account_banned',
  'tv_username_taken',
  'tv_username_change_too_soon',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The refusal of a request body whose JSON nests deeper than `limit` arrays and objects. */
export function jsonTooDeepMessage(limit: number): string {
  return `The request body is nested too deeply: JSON may nest at most ${limit} levels of arrays and objects.`;
}

/**
 * The message the server sends with each code. Several must keep the substrings the client maps
 * on ('already have a Lifetime', 'already have an active', 'No Stripe customer found',
 * 'Customer portal not configured', 'card').
 */
export const SERVER_ERROR_MESSAGES: Record<ErrorCode, string> = {
  lifetime_owned: 'You already have a Lifetime subscription active. No further purchase required.',
  subscription_exists: 'You already have an active subscription of this type.',
  no_customer: 'No Stripe customer found for this account.',
  portal_not_configured: 'Customer portal not configured. Activate it in the Stripe dashboard.',
  tv_username_not_found: 'This TradingView username does not exist.',
  tv_session_expired: 'The TradingView session used to grant access has expired.',
  tv_unverifiable: 'Unable to verify TradingView username.',
  payment_failed: 'Your card was declined.',
  payment_action_required:
    'Your bank asks you to confirm this payment. Open the secure payment page to approve it; your new plan starts as soon as it is confirmed.',
  session_not_paid: 'This payment has not been completed.',
  session_not_found: 'Payment session not found.',
  session_claimed: 'This payment has already been used to activate an account. Please log in.',
  email_mismatch: 'This payment belongs to a different email address.',
  purchase_unproven: 'To protect your purchase, please continue with the link we e-mailed to the address used for this payment.',
  duplicate_payment:
    'You already have an active subscription with this email address, so this second payment has been refunded in full and nothing new was activated. Your existing subscription is unchanged.',
  plan_change_in_progress: 'Your plan is already being changed. Please wait a moment and refresh.',
  rate_limited: 'Too many requests. Please wait a moment before trying again.',
  invalid_credentials: 'Invalid email or password.',
  email_not_verified: 'Email not confirmed.',
  user_exists: 'An account with this email already exists.',
  weak_password: 'Password must be at least 8 characters long.',
  registration_disabled: 'User registration is currently disabled.',
  reset_token_invalid: 'This reset link is invalid or has expired.',
  provider_unavailable: 'The payment provider is temporarily unavailable. Please try again.',
  validation_failed: 'The request is invalid.',
  payload_too_large: 'The request is too large.',
  json_too_deep: jsonTooDeepMessage(JSON_MAX_DEPTH),
  unauthorized: 'You need to sign in to do this.',
  forbidden: 'You do not have permission to do this.',
  not_found: 'Not found.',
  internal: 'Something went wrong on our side. Please try again.',
  discord_already_linked: 'That Discord account is linked to another member.',
  discord_denied: 'Discord connection was cancelled. Try again when you are ready.',
  discord_needs_access: 'You need an active subscription to connect Discord.',
  discord_link_expired: 'The Discord connection expired before it was finished. Please try again.',
  discord_unavailable: 'Discord could not be reached. Please try again in a moment.',
  promotion_code_invalid: 'This promotion code cannot be used.',
  account_banned: 'This account can no longer buy from this shop. If you think this is a mistake, please contact support.',
  tv_username_taken: 'This TradingView username is already linked to another account. Contact support if it is yours.',
  tv_username_change_too_soon: 'You changed your TradingView username recently. Please try again later or contact support.',
};

/** HTTP status the server answers with for each code. */
export const ERROR_HTTP_STATUS: Record<ErrorCode, number> = {
  lifetime_owned: 409,
  subscription_exists: 409,
  no_customer: 404,
  portal_not_configured: 409,
  tv_username_not_found: 422,
  tv_session_expired: 503,
  tv_unverifiable: 502,
  payment_failed: 402,
  payment_action_required: 402,
  session_not_paid: 409,
  session_not_found: 404,
  session_claimed: 409,
  email_mismatch: 403,
  purchase_unproven: 403,
  duplicate_payment: 409,
  plan_change_in_progress: 409,
  rate_limited: 429,
  invalid_credentials: 401,
  email_not_verified: 403,
  user_exists: 409,
  weak_password: 400,
  registration_disabled: 403,
  reset_token_invalid: 400,
  provider_unavailable: 503,
  validation_failed: 400,
  payload_too_large: 413,
  json_too_deep: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  internal: 500,
  discord_already_linked: 409,
  discord_denied: 400,
  discord_needs_access: 403,
  discord_link_expired: 400,
  discord_unavailable: 502,
  promotion_code_invalid: 400,
  account_banned: 403,
  tv_username_taken: 409,
  tv_username_change_too_soon: 429,
};

/** What the client knows about a failed call; `network` means no HTTP response arrived. */
export type ErrorInput = {
  code?: string | undefined;
  message?: string | undefined;
  status?: number | undefined;
  network?: boolean | undefined;
};

// better-auth and the spec's hosted auth name some conditions differently; fold them together.
const CODE_ALIASES: Record<string, ErrorCode> = {
  invalid_email_or_password: 'invalid_credentials',
  invalid_login_credentials: 'invalid_credentials',
  invalid_password: 'invalid_credentials',
  user_already_exists: 'user_exists',
  identity_already_exists: 'user_exists',
  email_exists: 'user_exists',
  password_too_short: 'weak_password',
  email_not_confirmed: 'email_not_verified',
  too_many_requests: 'rate_limited',
  over_request_rate_limit: 'rate_limited',
  invalid_token: 'reset_token_invalid',
  signup_disabled: 'registration_disabled',
  // better-auth's own codes
  email_password_sign_up_disabled: 'registration_disabled',
  user_already_exists_use_another_email: 'user_exists',
  email_not_verified: 'email_not_verified',
};

/** Normalises a server or auth-library code (any case) to one of ours, or null. */
export function errorCodeOf(err: ErrorInput): ErrorCode | null {
  if (!err.code) return null;
  const code = err.code.toLowerCase();
  if ((ERROR_CODES as readonly string[]).includes(code)) return code as ErrorCode;
  return CODE_ALIASES[code] ?? null;
}

function has(err: ErrorInput, pattern: RegExp): boolean {
  return err.message !== undefined && pattern.test(err.message);
}

function serverMessage(err: ErrorInput): string | null {
  const message = err.message?.trim();
  return message ? message : null;
}

/** True when the call failed without a usable answer: no response, a 5xx, or nothing to show. */
function isUnexpected(err: ErrorInput): boolean {
  return (
    err.network === true ||
    (err.status !== undefined && err.status >= 500) ||
    (err.code === undefined && serverMessage(err) === null && err.status === undefined)
  );
}

const isRateLimited = (err: ErrorInput) =>
  errorCodeOf(err) === 'rate_limited' || err.status === 429 || has(err, /too many|rate limit/i);

const isInvalidCredentials = (err: ErrorInput) =>
  errorCodeOf(err) === 'invalid_credentials' ||
  has(err, /invalid (login credentials|email or password|credentials)|incorrect password/i);

// ---------------------------------------------------------------- generic

export const UNEXPECTED_ERROR = 'An unexpected error occurred. Please try again.';
export const NETWORK_ERROR =
  'Network connection failed. Please check your internet connection and try again.';

// Texts of the hosted auth library the product was first built on; kept so tests and adapters can
// recognise them.
export const AUTH_LIBRARY_MESSAGES = {
  sessionMissing: 'Auth session missing!',
  sessionOrUserMissing: 'Auth session or user missing',
} as const;

// ---------------------------------------------------------------- login (/auth)

export const LOGIN_TEXTS = {
  invalidCredentials: {
    title: 'Invalid Credentials',
    description: 'Invalid email or password. Please check your credentials and try again.',
  },
  tooManyAttempts: {
    title: 'Too Many Attempts',
    description: 'Please wait a moment before trying again.',
  },
  emailNotConfirmed: {
    title: 'Email Not Confirmed',
    description:
      'Please confirm your email address using the link we sent you, then sign in again.',
  },
  failedTitle: 'Login Failed',
} as const;

export function loginError(err: ErrorInput): Toast {
  if (isRateLimited(err)) return { ...LOGIN_TEXTS.tooManyAttempts };
  if (isInvalidCredentials(err)) return { ...LOGIN_TEXTS.invalidCredentials };
  if (errorCodeOf(err) === 'email_not_verified' || has(err, /not (confirmed|verified)/i)) {
    return { ...LOGIN_TEXTS.emailNotConfirmed };
  }
  if (err.network) return { title: LOGIN_TEXTS.failedTitle, description: NETWORK_ERROR };
  const message = isUnexpected(err) ? null : serverMessage(err);
  return { title: LOGIN_TEXTS.failedTitle, description: message ?? UNEXPECTED_ERROR };
}

// ---------------------------------------------------------------- login on /payment-success

export const PAYMENT_LOGIN_TEXTS = {
  incorrectPassword: { title: 'Login Failed', description: 'Incorrect password. Please try again.' },
  loginError: {
    title: 'Login Error',
    description: 'There was a problem logging you in. Please try again.',
  },
  success: {
    title: 'Login Successful',
    description: 'Welcome back! Processing your purchase...',
  },
} as const;

export function paymentLoginError(err: ErrorInput): Toast {
  if (isInvalidCredentials(err)) return { ...PAYMENT_LOGIN_TEXTS.incorrectPassword };
  if (isRateLimited(err)) return { title: 'Login Failed', description: LOGIN_TEXTS.tooManyAttempts.description };
  const message = isUnexpected(err) ? null : serverMessage(err);
  return message
    ? { title: 'Login Failed', description: message }
    : { ...PAYMENT_LOGIN_TEXTS.loginError };
}

// ---------------------------------------------------------------- sign-up

export const SIGN_UP_TEXTS = {
  userExists: {
    title: 'User Already Exists',
    description: 'An account with this email already exists. Please try logging in instead.',
  },
  failedTitle: 'Sign Up Failed',
  weakPassword: 'Password must be at least 8 characters long.',
  registrationDisabled: 'User registration is currently disabled. Please contact support.',
  registrationError: 'An error occurred during registration.',
  // Sign-up that returns no session (the address must be confirmed first): the form switches to sign-in.
  pleaseLogIn: {
    title: 'Account Created',
    description: 'Your account has been created. Please log in to continue.',
  },
  welcome: { title: 'Welcome!', description: 'Your account has been created.' },
} as const;

export type SignUpErrorToast = Toast & { switchToSignIn: boolean };

export function signUpError(err: ErrorInput): SignUpErrorToast {
  const code = errorCodeOf(err);
  const title = SIGN_UP_TEXTS.failedTitle;
  if (code === 'user_exists' || has(err, /already (exists|registered)/i)) {
    return { ...SIGN_UP_TEXTS.userExists, switchToSignIn: true };
  }
  if (err.network) return { title, description: NETWORK_ERROR, switchToSignIn: false };
  if (isRateLimited(err)) {
    return { ...LOGIN_TEXTS.tooManyAttempts, switchToSignIn: false };
  }
  if (code === 'weak_password' || has(err, /password.*(at least|too short|weak)/i)) {
    return { title, description: SIGN_UP_TEXTS.weakPassword, switchToSignIn: false };
  }
  if (code === 'registration_disabled' || has(err, /(signups?|registration).*(disabled|not allowed)/i)) {
    return { title, description: SIGN_UP_TEXTS.registrationDisabled, switchToSignIn: false };
  }
  if (isUnexpected(err)) return { title, description: UNEXPECTED_ERROR, switchToSignIn: false };
  return { title, description: SIGN_UP_TEXTS.registrationError, switchToSignIn: false };
}

// ---------------------------------------------------------------- /payment-success

export const PAYMENT_PAGE_TEXTS = {
  timeoutToast: {
    title: 'Processing Taking Too Long',
    description: 'Loading your payment is taking longer than expected. Please retry.',
  },
  timeoutScreen: 'Processing Timeout',
  loadDetailsTitle: 'Error loading payment details',
  loadDetailsDefault: 'There was a problem loading your payment information.',
  noPaymentData: 'No payment data received',
  missingSession: { title: 'Error', description: 'Missing payment session information.' },
  accountCreated: {
    title: 'Account created!',
    description: 'Now enter your TradingView username to activate your access.',
  },
  accountCreatedLoginManually: {
    title: 'Account created!',
    description: 'Account created successfully! Please log in manually to activate your access.',
  },
  activationFailedTitle: 'Error activating subscription',
  activationFailedDefault: 'There was a problem activating your subscription. Please try again.',
  activated: {
    title: 'Subscription activated successfully!',
    description: 'Welcome! Taking you to your dashboard...',
  },
  /** Shown to a browser that holds the payment link but neither started the checkout nor opened the mailed link. */
  useMailedLink: {
    title: 'Continue from your e-mail',
    description:
      'For your security, this payment can only be set up from the browser that paid or from the link we e-mailed to the address used for the payment. Open the "Finish setting up your access" e-mail and follow its link; it works in any browser.',
  },
  // A second payment while the buyer already holds a subscription: refunded, not activated.
  duplicatePayment: {
    title: 'Payment Refunded',
    description: SERVER_ERROR_MESSAGES.duplicate_payment,
  },
} as const;

/** The buyer paid again while holding a subscription: the page explains the refund instead of activating. */
export function isDuplicatePayment(err: ErrorInput): boolean {
  return errorCodeOf(err) === 'duplicate_payment';
}

export function paymentDetailsError(err: ErrorInput): Toast {
  if (isDuplicatePayment(err)) return { ...PAYMENT_PAGE_TEXTS.duplicatePayment };
  if (err.network) return { title: PAYMENT_PAGE_TEXTS.loadDetailsTitle, description: NETWORK_ERROR };
  const message = isUnexpected(err) ? null : serverMessage(err);
  return {
    title: PAYMENT_PAGE_TEXTS.loadDetailsTitle,
    description: message ?? PAYMENT_PAGE_TEXTS.loadDetailsDefault,
  };
}

export const ACCOUNT_CREATION_TEXTS = {
  title: 'Account Creation Failed',
  network: 'Unable to connect to our servers. Please check your internet connection and try again.',
  unavailable: 'Account creation service is temporarily unavailable. Please contact support.',
  default: 'There was a problem creating your account. Please try again.',
  // Title when creating the account threw before any answer could be read.
  thrownTitle: 'Error creating account',
} as const;

// These codes carry a message the buyer must read to get unstuck (log in, use another e-mail).
const ACCOUNT_CREATION_PASSTHROUGH: readonly ErrorCode[] = [
  'session_claimed',
  'email_mismatch',
  'session_not_paid',
  'session_not_found',
  'user_exists',
  'weak_password',
  'rate_limited',
];

export function accountCreationError(err: ErrorInput): Toast {
  const title = ACCOUNT_CREATION_TEXTS.title;
  if (err.network) return { title, description: ACCOUNT_CREATION_TEXTS.network };
  const code = errorCodeOf(err);
  if (
    code === 'registration_disabled' ||
    code === 'provider_unavailable' ||
    err.status === 404 ||
    err.status === 502 ||
    err.status === 503 ||
    err.status === 504
  ) {
    return { title, description: ACCOUNT_CREATION_TEXTS.unavailable };
  }
  const message = serverMessage(err);
  if (code !== null && ACCOUNT_CREATION_PASSTHROUGH.includes(code) && message) {
    return { title, description: message };
  }
  return { title, description: ACCOUNT_CREATION_TEXTS.default };
}

/** Activating a paid session for an existing account failed ('Error activating subscription'). */
export function subscriptionActivationError(err: ErrorInput): Toast {
  const title = PAYMENT_PAGE_TEXTS.activationFailedTitle;
  if (err.network) return { title, description: NETWORK_ERROR };
  const message = isUnexpected(err) ? null : serverMessage(err);
  return { title, description: message ?? PAYMENT_PAGE_TEXTS.activationFailedDefault };
}

// ---------------------------------------------------------------- TradingView username activation

export type ActivationErrorKind =
  | 'taken'
  | 'session_expired'
  | 'not_found'
  | 'cannot_verify'
  | 'network'
  | 'unauthorized';

export const ACTIVATION_TEXTS = {
  title: 'TradingView Activation Failed',
  session_expired: 'Your session has expired. Please refresh the page and try again.',
  not_found: 'This TradingView username does not exist. Please check your username and try again.',
  cannot_verify: 'Unable to verify TradingView username. Please check the username and try again.',
  network: 'Connection error. Please check your internet connection and try again.',
  unauthorized: 'Session expired. Please sign in again.',
  taken: 'This TradingView username is already linked to another account. Contact support if it is yours.',
  default: 'There was a problem activating your TradingView access. Please try again.',
  success: {
    title: 'TradingView Access Activated!',
    description: 'Your indicators will appear under Invite-only scripts in TradingView shortly.',
  },
} as const;

/** Which of the spec's activation failures this is, or null for anything else. */
export function activationErrorKind(err: ErrorInput): ActivationErrorKind | null {
  const code = errorCodeOf(err);
  if (err.network) return 'network';
  if (code === 'tv_username_taken' || has(err, /already linked to another account/i)) return 'taken';
  if (code === 'tv_session_expired') return 'session_expired';
  if (code === 'tv_username_not_found' || has(err, /does not exist|username (was )?not found/i)) {
    return 'not_found';
  }
  if (code === 'tv_unverifiable' || has(err, /unable to verify|could not verify/i)) return 'cannot_verify';
  if (code === 'unauthorized' || err.status === 401 || has(err, /unauthori[sz]ed|invalid token|jwt/i)) {
    return 'unauthorized';
  }
  if (has(err, /session (has )?expired/i)) return 'session_expired';
  return null;
}

export function activationError(err: ErrorInput): Toast {
  const kind = activationErrorKind(err);
  if (kind) return { title: ACTIVATION_TEXTS.title, description: ACTIVATION_TEXTS[kind] };
  const message = isUnexpected(err) ? null : serverMessage(err);
  return { title: ACTIVATION_TEXTS.title, description: message ?? ACTIVATION_TEXTS.default };
}

// ---------------------------------------------------------------- password reset

export const RESET_TEXTS = {
  invalidLink: {
    title: 'Invalid Reset Link',
    description: 'This password reset link is invalid or incomplete. Please request a new one.',
  },
  linkError: {
    title: 'Reset Link Error',
    description: 'This password reset link is invalid or has expired. Please request a new one.',
  },
  sendFailedTitle: 'Failed to send reset email',
  updateFailedTitle: 'Failed to update password',
  linkSent: {
    title: 'Reset Link Sent',
    description: 'Check your email for a link to reset your password. The link expires in 10 minutes.',
  },
  passwordUpdated: {
    title: 'Password Updated',
    description: 'Your password has been updated. Taking you to your dashboard...',
  },
} as const;

/** Failure while requesting the reset e-mail ('request') or setting the new password ('update'). */
export function resetError(err: ErrorInput, stage: 'request' | 'update'): Toast {
  if (stage === 'update' && (errorCodeOf(err) === 'reset_token_invalid' || has(err, /invalid token|expired/i))) {
    return { ...RESET_TEXTS.linkError };
  }
  const title = stage === 'request' ? RESET_TEXTS.sendFailedTitle : RESET_TEXTS.updateFailedTitle;
  if (err.network) return { title, description: NETWORK_ERROR };
  if (isRateLimited(err)) return { title, description: LOGIN_TEXTS.tooManyAttempts.description };
  const message = isUnexpected(err) ? null : serverMessage(err);
  return { title, description: message ?? UNEXPECTED_ERROR };
}

// ---------------------------------------------------------------- plan preview and upgrade

export const PLAN_CHANGE_TEXTS = {
  previewTitle: 'Preview Error',
  previewDefault: 'Could not preview upgrade costs. Please try again.',
  lifetimeOwned: 'You already have a Lifetime subscription active. No further purchase required.',
  noCustomer: 'No subscription found. Please contact support.',
  upgradeTitle: { settings: 'Plan Upgrade Error', landing: 'Plan Update Error' },
  upgradeDefault: {
    settings: 'There was a problem upgrading your plan. Your current subscription remains active.',
    landing: 'There was a problem updating your plan. Please try again.',
  },
  paymentFailed:
    'Payment failed. Your current subscription remains active. Please check your payment method and try again.',
  successTitle: 'Plan Updated Successfully',
} as const;

const isLifetimeOwned = (err: ErrorInput) =>
  errorCodeOf(err) === 'lifetime_owned' || has(err, /already have a Lifetime/);
const isNoCustomer = (err: ErrorInput) =>
  errorCodeOf(err) === 'no_customer' || has(err, /No Stripe customer found/);

export function previewError(err: ErrorInput): Toast {
  const title = PLAN_CHANGE_TEXTS.previewTitle;
  if (isLifetimeOwned(err)) return { title, description: PLAN_CHANGE_TEXTS.lifetimeOwned };
  if (isNoCustomer(err)) return { title, description: PLAN_CHANGE_TEXTS.noCustomer };
  const message = isUnexpected(err) ? null : serverMessage(err);
  return { title, description: message ?? PLAN_CHANGE_TEXTS.previewDefault };
}

export function upgradeError(err: ErrorInput, where: 'settings' | 'landing'): Toast {
  const title = PLAN_CHANGE_TEXTS.upgradeTitle[where];
  if (isLifetimeOwned(err)) return { title, description: PLAN_CHANGE_TEXTS.lifetimeOwned };
  if (isNoCustomer(err)) return { title, description: PLAN_CHANGE_TEXTS.noCustomer };
  const message = isUnexpected(err) ? null : serverMessage(err);
  if (message && /already have an active/.test(message)) return { title, description: message };
  if (errorCodeOf(err) === 'payment_action_required') return { title, description: SERVER_ERROR_MESSAGES.payment_action_required };
  if (errorCodeOf(err) === 'payment_failed' || has(err, /payment_intent|card|insufficient/i)) {
    return { title, description: PLAN_CHANGE_TEXTS.paymentFailed };
  }
  if (message) {
    // The spec appends its own full stop, so one at the end of the server message is dropped.
    const reason = message.replace(/[.!]+$/, '');
    return { title, description: `Upgrade failed: ${reason}. Your current subscription remains active.` };
  }
  return { title, description: PLAN_CHANGE_TEXTS.upgradeDefault[where] };
}

export function planUpdatedToast(planType: PlanType): Toast {
  return {
    title: PLAN_CHANGE_TEXTS.successTitle,
    description: `Your subscription has been updated to ${planDisplayName(planType)}.`,
  };
}

// ---------------------------------------------------------------- checkout

export const CHECKOUT_TEXTS = {
  title: 'Error',
  limitedTitle: 'Too many checkouts',
  default: 'There was a problem processing your request. Please try again.',
  lifetimeOwned: 'You already have Lifetime access. No further purchase required.',
  subscriptionExists: 'You already have an active subscription of this type.',
  reactivationFailed: { title: 'Error', description: 'Could not create checkout. Please try again.' },
  noCheckoutUrl: { title: 'Error', description: 'No checkout URL received' },
} as const;

export function checkoutError(err: ErrorInput): Toast {
  const title = CHECKOUT_TEXTS.title;
  if (isLifetimeOwned(err) || has(err, /already have Lifetime/)) {
    return { title, description: CHECKOUT_TEXTS.lifetimeOwned };
  }
  if (errorCodeOf(err) === 'subscription_exists' || has(err, /already have an active/)) {
    return { title, description: CHECKOUT_TEXTS.subscriptionExists };
  }
  // The code expired or ran out between the landing page and the click: its reason, as the server says it.
  if (errorCodeOf(err) === 'promotion_code_invalid') return { title, description: serverMessage(err) ?? SERVER_ERROR_MESSAGES.promotion_code_invalid };
  if (errorCodeOf(err) === 'account_banned') return { title, description: SERVER_ERROR_MESSAGES.account_banned };
  // Too many checkouts at once (a sale, a shared network): which limit and when to come back, as the server says it.
  if (errorCodeOf(err) === 'rate_limited') return { title: CHECKOUT_TEXTS.limitedTitle, description: serverMessage(err) ?? SERVER_ERROR_MESSAGES.rate_limited };
  return { title, description: CHECKOUT_TEXTS.default };
}

// ---------------------------------------------------------------- customer portal

export const PORTAL_TEXTS = {
  setupRequired: {
    title: 'Setup Required',
    description:
      'Your Stripe Customer Portal needs to be configured first. Please set it up in your Stripe dashboard.',
  },
  error: { title: 'Error', description: 'Could not access subscription management. Please try again.' },
} as const;

/** Portal failure; also used when the portal answered `configurationRequired` or no url. */
export function portalError(err: ErrorInput & { configurationRequired?: boolean }): Toast {
  if (
    err.configurationRequired === true ||
    errorCodeOf(err) === 'portal_not_configured' ||
    has(err, /Customer portal not configured/)
  ) {
    return { ...PORTAL_TEXTS.setupRequired };
  }
  return { ...PORTAL_TEXTS.error };
}

// ---------------------------------------------------------------- subscription data

export const SUBSCRIPTION_LOAD_TEXTS = {
  failed: 'Failed to load subscription data',
  settingsCard: 'Error loading subscription data',
} as const;

// ---------------------------------------------------------------- connecting Discord

export const DISCORD_LINK_TEXTS = {
  title: 'Discord Not Connected',
  default: 'Discord could not be connected. Please try again.',
} as const;

/**
 * better-auth's answers to a Discord link (the ?error=… of the page it returns to, or the code of
 * a refused POST /api/auth/link-social), folded into ours. better-auth names a Discord account
 * linked to someone else, a refused consent and a link that outlived its state in its own words.
 */
const DISCORD_LINK_CODES: Record<string, ErrorCode> = {
  access_denied: 'discord_denied',
  account_already_linked_to_different_user: 'discord_already_linked',
  social_account_already_linked: 'discord_already_linked',
  state_mismatch: 'discord_link_expired',
  state_not_found: 'discord_link_expired',
  state_invalid: 'discord_link_expired',
  please_restart_the_process: 'discord_link_expired',
  no_code: 'discord_link_expired',
  // the session that started the link ended before Discord answered
  unable_to_link_account: 'discord_link_expired',
  // a code used or expired fails its state first: what is left is Discord not answering the exchange
  invalid_code: 'discord_unavailable',
  unable_to_get_user_info: 'discord_unavailable',
};

/** Which of our codes a Discord link failure is, or null for one we have no words for. */
export function discordLinkErrorCode(err: ErrorInput): ErrorCode | null {
  const raw = err.code?.toLowerCase();
  if (raw && Object.hasOwn(DISCORD_LINK_CODES, raw)) return DISCORD_LINK_CODES[raw]!;
  const code = errorCodeOf(err);
  return code?.startsWith('discord_') ? code : null;
}

/** The message for a failed Discord link: ours for the failures we know, else the default. */
export function discordLinkError(err: ErrorInput): Toast {
  const title = DISCORD_LINK_TEXTS.title;
  const code = discordLinkErrorCode(err);
  if (code) return { title, description: SERVER_ERROR_MESSAGES[code] };
  if (err.network) return { title, description: NETWORK_ERROR };
  if (isRateLimited(err)) return { title, description: LOGIN_TEXTS.tooManyAttempts.description };
  return { title, description: DISCORD_LINK_TEXTS.default };
}
