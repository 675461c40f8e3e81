import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  API_PATHS,
  accessResponseSchema,
  activateExistingSubscriptionRequestSchema,
  apiErrorBody,
  apiErrorSchema,
  apiErrorStatus,
  createCheckoutRequestSchema,
  createCheckoutResponseSchema,
  customerPortalResponseSchema,
  paymentActionUrl,
  errorInputFromResponse,
  getPaymentDetailsRequestSchema,
  getPaymentDetailsResponseSchema,
  isRedirectToCheckout,
  postPaymentCleanupRequestSchema,
  previewUpgradeCostResponseSchema,
  securityAlertsResponseSchema,
  tradingviewActivateRequestSchema,
  updateSubscriptionRequestSchema,
  updateSubscriptionResponseSchema,
  validationErrorBody,
  verifyPaymentRequestSchema,
} from './api-contract';

/** Messages of a failed parse, or the parsed value on success. */
function outcome(schema: z.ZodType, input: unknown): { ok: unknown } | { errors: string[] } {
  const result = schema.safeParse(input);
  return result.success ? { ok: result.data } : { errors: result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) };
}

const checkout = {
  planType: 'monthly',
  customerEmail: null,
  fbc: 'fb.1.1554763741205.AbCdEfGhIjKlMnOpQrStUvWxYz1234567890',
  fbp: 'fb.1.1596403881668.1116446470',
  userAgent: 'Mozilla/5.0',
  originPage: '/eu',
};

describe('create-checkout', () => {
  it.each<[string, Record<string, unknown>, unknown]>([
    ['anonymous', {}, { ok: checkout }],
    ['signed-in email is sanitised', { customerEmail: ' buyer@example.com ' }, { ok: { ...checkout, customerEmail: 'buyer@example.com' } }],
    ['tracking values may be null', { fbc: null, fbp: null, userAgent: null }, { ok: { ...checkout, fbc: null, fbp: null, userAgent: null } }],
    ['unknown keys are dropped', { extra: 1 }, { ok: checkout }],
    ['unknown plan', { planType: 'weekly' }, { errors: ['planType: Plan type must be one of: monthly, quarterly, yearly, lifetime, euMonthly, euQuarterly.'] }],
    ['bad origin', { originPage: '/de' }, { errors: ["originPage: Origin page must be '/' or '/eu'."] }],
    ['bad email', { customerEmail: 'nope' }, { errors: ['customerEmail: Please enter a valid email address.'] }],
    ['fbc too long', { fbc: 'x'.repeat(513) }, { errors: ['fbc: fbc is too long.'] }],
    ['missing tracking key', { fbp: undefined }, { errors: ['fbp: Invalid input: expected string, received undefined'] }],
  ])('%s', (_name, overrides, expected) => {
    expect(outcome(createCheckoutRequestSchema, { ...checkout, ...overrides })).toEqual(expected);
  });

  it.each<[unknown, boolean]>([
    [{ url: 'https://checkout.stripe.com/c/pay/cs_test_1', sessionId: 'cs_test_1' }, true],
    [{ url: '/sandbox/checkout/cs_sbx_1', sessionId: 'cs_sbx_1' }, true],
    [{ url: '', sessionId: 'cs_1' }, false],
    [{ url: 'https://x', sessionId: 'x'.repeat(256) }, false],
  ])('response %j valid: %s', (body, valid) => {
    expect(createCheckoutResponseSchema.safeParse(body).success).toBe(valid);
  });
});

describe('payment session calls', () => {
  it.each<[unknown, unknown]>([
    [{ sessionId: 'cs_test_123' }, { ok: { sessionId: 'cs_test_123' } }],
    [{ sessionId: '  cs_test_123  ' }, { ok: { sessionId: 'cs_test_123' } }],
    [{ sessionId: '' }, { errors: ['sessionId: Missing payment session information.'] }],
    [{}, { errors: ['sessionId: Missing payment session information.'] }],
    [{ sessionId: 'x'.repeat(255) }, { ok: { sessionId: 'x'.repeat(255) } }],
    [{ sessionId: 'x'.repeat(256) }, { errors: ['sessionId: Payment session id is too long.'] }],
  ])('get-payment-details %j → %j', (body, expected) => {
    expect(outcome(getPaymentDetailsRequestSchema, body)).toEqual(expected);
  });

  it.each<[Record<string, unknown>, boolean]>([
    [{}, true],
    [{ userStatus: 'existing_complete', email: 'a***@b.co', emailProven: false }, true],
    [{ emailProven: undefined }, false],
    [{ userStatus: 'returning' }, false],
    [{ amountTotal: 49.99 }, false],
    [{ amountTotal: -1 }, false],
    [{ currency: 'USD' }, false],
    [{ planType: 'weekly' }, false],
  ])('get-payment-details response with %j valid: %s', (overrides, valid) => {
    const body = { email: 'a@b.co', planType: 'quarterly', amountTotal: 7200, currency: 'usd', userStatus: 'new', emailProven: true, ...overrides };
    expect(getPaymentDetailsResponseSchema.safeParse(body).success).toBe(valid);
  });

  it.each<[unknown, unknown]>([
    [{ sessionId: 'cs_1', password: 'longenough' }, { ok: { sessionId: 'cs_1', password: 'longenough' } }],
    [{ sessionId: 'cs_1', password: 'longenough', proof: '1767225600.Ab-9_x' }, { ok: { sessionId: 'cs_1', password: 'longenough', proof: '1767225600.Ab-9_x' } }],
    [{ sessionId: 'cs_1', password: 'longenough', proof: 'a b' }, { errors: ['proof: The link is not valid.'] }],
    [{ sessionId: 'cs_1', password: 'longenough', proof: 'x'.repeat(101) }, { errors: ['proof: The link is not valid.'] }],
    [{ sessionId: 'cs_1', password: 'short' }, { errors: ['password: Password must be at least 8 characters long'] }],
    [{ sessionId: 'cs_1', password: 'x'.repeat(129) }, { errors: ['password: Password must be at most 128 characters long.'] }],
  ])('verify-payment %j → %j', (body, expected) => {
    expect(outcome(verifyPaymentRequestSchema, body)).toEqual(expected);
  });

  it.each<[unknown, unknown]>([
    [{ sessionId: 'cs_1' }, { ok: { sessionId: 'cs_1' } }],
    [{ sessionId: 'cs_1', tradingviewUsername: ' @Trader_1 ' }, { ok: { sessionId: 'cs_1', tradingviewUsername: 'Trader_1' } }],
    [{ sessionId: 'cs_1', tradingviewUsername: '' }, { errors: ['tradingviewUsername: Please enter your TradingView username.'] }],
  ])('activate-existing-subscription %j → %j', (body, expected) => {
    expect(outcome(activateExistingSubscriptionRequestSchema, body)).toEqual(expected);
  });

  it.each<[unknown, boolean]>([
    [{ email: 'a@b.co', newPlanType: 'yearly' }, true],
    [{ email: 'a@b.co', newPlanType: 'weekly' }, false],
    [{ email: '', newPlanType: 'yearly' }, false],
  ])('post-payment-cleanup %j valid: %s', (body, valid) => {
    expect(postPaymentCleanupRequestSchema.safeParse(body).success).toBe(valid);
  });
});

describe('plan changes', () => {
  const preview = { currentPlan: 'monthly', newPlan: 'yearly', prorationCredit: 1800, newPlanCharge: 20400, totalDue: 18600, currency: 'usd' };

  it.each<[unknown, 'preview' | 'redirect' | 'invalid']>([
    [preview, 'preview'],
    [{ redirectToCheckout: true }, 'redirect'],
    [{ redirectToCheckout: false }, 'invalid'],
    [{ ...preview, totalDue: 186.0 }, 'preview'],
    [{ ...preview, totalDue: 186.5 }, 'invalid'],
    [{ ...preview, prorationCredit: -1800 }, 'invalid'],
    [{ ...preview, newPlan: 'weekly' }, 'invalid'],
  ])('preview-upgrade-cost response %j → %s', (body, kind) => {
    const result = previewUpgradeCostResponseSchema.safeParse(body);
    if (kind === 'invalid') return expect(result.success).toBe(false);
    expect(result.success).toBe(true);
    expect(isRedirectToCheckout(result.data!)).toBe(kind === 'redirect');
  });

  it.each<[unknown, boolean]>([
    [{ planType: 'quarterly' }, true],
    [{ planType: 'Quarterly' }, false],
    [{}, false],
  ])('update-subscription request %j valid: %s', (body, valid) => {
    expect(updateSubscriptionRequestSchema.safeParse(body).success).toBe(valid);
  });

  it.each<[unknown, boolean]>([
    [{ success: true, planType: 'yearly' }, true],
    [{ success: false, planType: 'yearly' }, false],
  ])('update-subscription response %j valid: %s', (body, valid) => {
    expect(updateSubscriptionResponseSchema.safeParse(body).success).toBe(valid);
  });

  it.each<[unknown, boolean]>([
    [{ url: 'https://billing.stripe.com/p/session/x' }, true],
    [{ configurationRequired: true, setupUrl: 'https://dashboard.stripe.com/settings/billing/portal' }, true],
    [{ configurationRequired: false, setupUrl: '' }, false],
    [{}, false],
  ])('customer-portal response %j valid: %s', (body, valid) => {
    expect(customerPortalResponseSchema.safeParse(body).success).toBe(valid);
  });
});

describe('paymentActionUrl', () => {
  it.each([
    [{ code: 'payment_action_required', details: { url: 'https://invoice.stripe.com/i/acct_1/in_1' } }, 'https://invoice.stripe.com/i/acct_1/in_1'],
    [{ code: 'payment_action_required', details: { url: 'javascript:alert(1)' } }, null],
    [{ code: 'payment_action_required', details: { url: 'http://invoice.example/in_1' } }, null],
    [{ code: 'payment_action_required' }, null],
    [{ code: 'payment_failed', details: { url: 'https://invoice.stripe.com/i/acct_1/in_1' } }, null],
  ])('%j → %j', (error, url) => {
    expect(paymentActionUrl(error)).toBe(url);
  });
});

describe('other responses', () => {
  it.each<[unknown, unknown]>([
    [{ tv_username: 'Trader_1' }, { ok: { tv_username: 'Trader_1' } }],
    [{ tv_username: 'bad name' }, { errors: ['tv_username: TradingView usernames contain only letters, numbers, underscores (_) and hyphens (-).'] }],
    [{ tradingviewUsername: 'Trader_1' }, { errors: ['tv_username: Please enter your TradingView username.'] }],
  ])('tradingview/activate %j → %j', (body, expected) => {
    expect(outcome(tradingviewActivateRequestSchema, body)).toEqual(expected);
  });

  it.each<[unknown, boolean]>([
    [{ hasAccess: true }, true],
    [{ hasAccess: 'yes' }, false],
  ])('access %j valid: %s', (body, valid) => {
    expect(accessResponseSchema.safeParse(body).success).toBe(valid);
  });

  it.each<[unknown, boolean]>([
    [{ score: 100, alerts: [] }, true],
    [{ score: 85, alerts: [{ id: 'a', type: 'warning', message: 'm', timestamp: '2025-06-15T12:00:00.000Z' }] }, true],
    [{ score: 101, alerts: [] }, false],
    [{ score: 85, alerts: [{ id: 'a', type: 'danger', message: 'm', timestamp: '2025-06-15T12:00:00.000Z' }] }, false],
    [{ score: 85, alerts: [{ id: 'a', type: 'info', message: 'm', timestamp: 'yesterday' }] }, false],
  ])('security alerts %j valid: %s', (body, valid) => {
    expect(securityAlertsResponseSchema.safeParse(body).success).toBe(valid);
  });

  it('routes live under /api with the spec operation names', () => {
    expect(API_PATHS.createCheckout).toBe('/api/create-checkout');
    expect(API_PATHS.tradingviewActivate).toBe('/api/tradingview/activate');
    expect(Object.values(API_PATHS).every((p) => p.startsWith('/api/'))).toBe(true);
  });
});

describe('errors', () => {
  it.each<[Parameters<typeof apiErrorBody>, unknown, number]>([
    [['lifetime_owned'], { error: { code: 'lifetime_owned', message: 'You already have a Lifetime subscription active. No further purchase required.' } }, 409],
    [['not_found', 'Guide not found.'], { error: { code: 'not_found', message: 'Guide not found.' } }, 404],
    [['rate_limited'], { error: { code: 'rate_limited', message: 'Too many requests. Please wait a moment before trying again.' } }, 429],
  ])('apiErrorBody(%j)', (args, expected, status) => {
    const body = apiErrorBody(...args);
    expect(body).toEqual(expected);
    expect(apiErrorSchema.safeParse(body).success).toBe(true);
    expect(apiErrorStatus(args[0])).toBe(status);
  });

  it('validationErrorBody leads with the first problem and lists all', () => {
    const result = createCheckoutRequestSchema.safeParse({ ...checkout, planType: 'weekly', originPage: '/de' });
    expect(validationErrorBody(result.error!.issues)).toEqual({
      error: {
        code: 'validation_failed',
        message: 'planType: Plan type must be one of: monthly, quarterly, yearly, lifetime, euMonthly, euQuarterly.',
        details: [
          { path: 'planType', message: 'Plan type must be one of: monthly, quarterly, yearly, lifetime, euMonthly, euQuarterly.' },
          { path: 'originPage', message: "Origin page must be '/' or '/eu'." },
        ],
      },
    });
  });

  it.each<[unknown[], string]>([
    [[], 'The request is invalid.'],
    [[{ path: [], message: 'Expected an object.' }], 'Expected an object.'],
  ])('validationErrorBody(%j).message → %s', (issues, message) => {
    expect(validationErrorBody(issues as never).error.message).toBe(message);
  });

  it.each<[number, unknown, unknown]>([
    [409, apiErrorBody('subscription_exists'), { status: 409, code: 'subscription_exists', message: 'You already have an active subscription of this type.' }],
    [401, { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' }, { status: 401, code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' }],
    [502, '<html>Bad gateway</html>', { status: 502 }],
    [500, null, { status: 500 }],
    [400, { error: { code: 'made_up', message: 'x' } }, { status: 400, code: 'made_up', message: 'x' }],
    [400, { error: 'plain string' }, { status: 400 }],
    [404, { message: 'Not Found' }, { status: 404, message: 'Not Found' }],
  ])('errorInputFromResponse(%i, %j)', (status, body, expected) => {
    expect(errorInputFromResponse(status, body)).toEqual(expected);
  });
});
