// The JSON API's request and response shapes: the routes named after the product's operations
// (create-checkout, verify-payment, …) and the subscription view they return. Routes parse
// requests with these schemas; the client parses responses with them. Money is always integer
// minor units with a lowercase ISO 4217 currency; dates travel as ISO 8601 strings.
import { z } from 'zod';
import { ERROR_CODES, ERROR_HTTP_STATUS, SERVER_ERROR_MESSAGES } from './error-messages';
import type { ErrorCode, ErrorInput } from './error-messages';
import { listOfPage, pageOfList, activeCatalogue } from './catalogue';
import { isPlanType, planTypes } from './plans';
import { REPEAT_REASONS, TRIAL_OUTCOMES } from './trials';
import { PROMOTION_CODE_LENGTH_TEXT, PROMOTION_INPUT_MAX_LENGTH } from './promotions';
import {
  EMAIL_MAX_LENGTH,
  accountPasswordSchema,
  emailSchema,
  safeText,
  tradingViewUsernameSchema,
} from './validation';

export const API_PATHS = {
  createCheckout: '/api/create-checkout',
  getPaymentDetails: '/api/get-payment-details',
  verifyPayment: '/api/verify-payment',
  activateExistingSubscription: '/api/activate-existing-subscription',
  postPaymentCleanup: '/api/post-payment-cleanup',
  checkSubscription: '/api/check-subscription',
  previewUpgradeCost: '/api/preview-upgrade-cost',
  updateSubscription: '/api/update-subscription',
  customerPortal: '/api/customer-portal',
  tradingviewActivate: '/api/tradingview/activate',
  subscription: '/api/subscription',
  access: '/api/access',
  securityAlerts: '/api/security/alerts',
  invoices: '/api/invoices',
} as const;

// ---------------------------------------------------------------- building blocks

/** A plan of the catalogue in effect (decision record 045): checked here, at the edge. */
export const planTypeSchema = z.custom<string>((value) => isPlanType(value), {
  error: () => `Plan type must be one of: ${planTypes().join(', ')}.`,
});

const listPages = () => activeCatalogue().priceLists.map((list) => pageOfList(list.slug));

/** The page of one of the catalogue's price lists: '/', '/eu'. */
export const originPageSchema = z.custom<string>((value) => typeof value === 'string' && listPages().includes(value) && pageOfList(listOfPage(value)) === value, {
  error: () => `Origin page must be ${listPages().map((page) => `'${page}'`).join(' or ')}.`,
});

export const minorUnitsSchema = z
  .int({ error: 'Amounts are whole numbers of minor units (cents).' })
  .min(0, { error: 'Amounts cannot be negative.' })
  .max(100_000_000, { error: 'Amount is too large.' });

export const currencySchema = z
  .string()
  .regex(/^[a-z]{3}$/, { error: 'Currency must be a lowercase three-letter ISO 4217 code.' });

export const SESSION_ID_MAX_LENGTH = 255;

export const sessionIdSchema = safeText({ error: 'Missing payment session information.' })
  .trim()
  .min(1, { error: 'Missing payment session information.', abort: true })
  .max(SESSION_ID_MAX_LENGTH, { error: 'Payment session id is too long.' });

export const isoDateTimeSchema = z.iso.datetime({ offset: true, error: 'Expected an ISO 8601 date-time.' });

const optionalTrackingValue = (name: string, max: number) =>
  safeText().max(max, { error: `${name} is too long.` }).nullable();

// ---------------------------------------------------------------- errors

export const fieldIssueSchema = z.object({ path: z.string(), message: z.string() });
export type FieldIssue = z.infer<typeof fieldIssueSchema>;

/** The one error shape every /api route answers with (better-auth's own routes excepted). */
export const apiErrorSchema = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES),
    message: z.string(),
    details: z.array(fieldIssueSchema).optional(),
  }),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

export function apiErrorBody(code: ErrorCode, message?: string, details?: FieldIssue[]): ApiError {
  return {
    error: {
      code,
      message: message ?? SERVER_ERROR_MESSAGES[code],
      ...(details ? { details } : {}),
    },
  };
}

export function apiErrorStatus(code: ErrorCode): number {
  return ERROR_HTTP_STATUS[code];
}

type IssueLike = { path: readonly PropertyKey[]; message: string };

/** A 400 body for failed input validation: the first problem as the message, all as details. */
export function validationErrorBody(issues: readonly IssueLike[]): ApiError {
  const details = issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
  const first = details[0];
  const message = first
    ? first.path
      ? `${first.path}: ${first.message}`
      : first.message
    : SERVER_ERROR_MESSAGES.validation_failed;
  return apiErrorBody('validation_failed', message, details);
}

const asRecord = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;

/** What the client's error mappers need from a failed response (any body, even non-JSON). */
export function errorInputFromResponse(status: number, body: unknown): ErrorInput {
  // Ours is { error: { code, message } }; better-auth answers { code, message } at the top level.
  const outer = asRecord(body);
  const inner = asRecord(outer?.error) ?? outer;
  const input: ErrorInput = { status };
  if (typeof inner?.code === 'string') input.code = inner.code;
  if (typeof inner?.message === 'string') input.message = inner.message;
  return input;
}

// ---------------------------------------------------------------- checkout

export const createCheckoutRequestSchema = z.object({
  planType: planTypeSchema,
  customerEmail: emailSchema.nullable(),
  fbc: optionalTrackingValue('fbc', 512),
  fbp: optionalTrackingValue('fbp', 512),
  userAgent: optionalTrackingValue('userAgent', 2048),
  originPage: originPageSchema,
  /** A promotion code (/?code=CODE); the server checks it again before applying it. */
  promotionCode: safeText().max(PROMOTION_INPUT_MAX_LENGTH, { error: PROMOTION_CODE_LENGTH_TEXT }).nullable().optional(),
});
export type CreateCheckoutRequest = z.infer<typeof createCheckoutRequestSchema>;

export const createCheckoutResponseSchema = z.object({
  // May be relative (the sandbox checkout page is served by this app).
  url: z.string().min(1).max(2048),
  sessionId: z.string().min(1).max(SESSION_ID_MAX_LENGTH),
});
export type CreateCheckoutResponse = z.infer<typeof createCheckoutResponseSchema>;

// ---------------------------------------------------------------- after payment

export const PAYMENT_USER_STATUSES = [
  'new',
  'existing_needs_login',
  'existing_needs_tv',
  'new_needs_tv',
  'existing_complete',
] as const;
export type PaymentUserStatus = (typeof PAYMENT_USER_STATUSES)[number];


/** The signed token of the mailed "Finish setting up" link; proves the e-mail in any browser. */
export const purchaseProofSchema = z
  .string()
  .max(100, { error: 'The link is not valid.' })
  .regex(/^[\w.-]*$/, { error: 'The link is not valid.' })
  .optional();

export const getPaymentDetailsRequestSchema = z.object({ sessionId: sessionIdSchema, proof: purchaseProofSchema });
export type GetPaymentDetailsRequest = z.infer<typeof getPaymentDetailsRequestSchema>;

/** A member's free trial (settings, the payment pages). */
export const memberTrialSchema = z.object({
  planType: planTypeSchema,
  outcome: z.enum(TRIAL_OUTCOMES),
  startedAt: isoDateTimeSchema,
  endsAt: isoDateTimeSchema,
  /** What the plan charges when the trial ends (or was charged, for a refused repeat). */
  amount: minorUnitsSchema,
  currency: currencySchema,
  /** Why the trial was refused as a repeat; null otherwise. */
  repeatReason: z.enum(REPEAT_REASONS).nullable(),
});
export type MemberTrial = z.infer<typeof memberTrialSchema>;

export const getPaymentDetailsResponseSchema = z.object({
  email: z.string().max(EMAIL_MAX_LENGTH),
  planType: planTypeSchema,
  amountTotal: minorUnitsSchema,
  currency: currencySchema,
  userStatus: z.enum(PAYMENT_USER_STATUSES),
  /** The tax included in amountTotal (absent or 0: none). */
  amountTax: minorUnitsSchema.optional(),
  /** What a promotion code took off (amountTotal is what was charged) and the code; absent or 0/null: none. */
  amountDiscount: minorUnitsSchema.optional(),
  promotionCode: z.string().max(40).nullable().optional(),
  /** The free trial this checkout started (amountTotal is then 0 today); absent or null: none. */
  trial: memberTrialSchema.nullable().optional(),
  /**
   * Whether this browser proved the purchase (it started the checkout, opened the mailed link, or
   * is signed in as the paid e-mail). When false, `email` is masked and no account can be made here.
   */
  emailProven: z.boolean(),
});
export type GetPaymentDetailsResponse = z.infer<typeof getPaymentDetailsResponseSchema>;

/** Creates the buyer's account with the password chosen on the payment page. */
export const verifyPaymentRequestSchema = z.object({
  sessionId: sessionIdSchema,
  proof: purchaseProofSchema,
  password: accountPasswordSchema,
});
export type VerifyPaymentRequest = z.infer<typeof verifyPaymentRequestSchema>;

// `signedIn` replaces the spec's authTokens: the server sets the session cookie itself.
export const verifyPaymentResponseSchema = z.object({
  email: z.string().max(EMAIL_MAX_LENGTH),
  signedIn: z.boolean(),
});
export type VerifyPaymentResponse = z.infer<typeof verifyPaymentResponseSchema>;

export const activateExistingSubscriptionRequestSchema = z.object({
  sessionId: sessionIdSchema,
  proof: purchaseProofSchema,
  tradingviewUsername: tradingViewUsernameSchema.optional(),
});
export type ActivateExistingSubscriptionRequest = z.infer<
  typeof activateExistingSubscriptionRequestSchema
>;

export const activateExistingSubscriptionResponseSchema = z.object({
  success: z.boolean(),
  signedIn: z.boolean(),
});
export type ActivateExistingSubscriptionResponse = z.infer<
  typeof activateExistingSubscriptionResponseSchema
>;

export const postPaymentCleanupRequestSchema = z.object({
  email: emailSchema,
  newPlanType: planTypeSchema,
});
export type PostPaymentCleanupRequest = z.infer<typeof postPaymentCleanupRequestSchema>;

export const successResponseSchema = z.object({ success: z.boolean() });
export type SuccessResponse = z.infer<typeof successResponseSchema>;

export const postPaymentCleanupResponseSchema = successResponseSchema;
export const checkSubscriptionResponseSchema = successResponseSchema;

// ---------------------------------------------------------------- plan changes

export const planRequestSchema = z.object({ planType: planTypeSchema });

export const previewUpgradeCostRequestSchema = planRequestSchema;
export type PreviewUpgradeCostRequest = z.infer<typeof previewUpgradeCostRequestSchema>;

/** Proration credit is a positive amount; totalDue = max(0, newPlanCharge − prorationCredit). */
export const upgradePreviewSchema = z.object({
  currentPlan: planTypeSchema,
  newPlan: planTypeSchema,
  prorationCredit: minorUnitsSchema,
  newPlanCharge: minorUnitsSchema,
  totalDue: minorUnitsSchema,
  currency: currencySchema,
});
export type UpgradePreview = z.infer<typeof upgradePreviewSchema>;

// The spec's "preview succeeds with no data": no upgrade path, buy through checkout instead.
export const redirectToCheckoutSchema = z.object({ redirectToCheckout: z.literal(true) });

export const previewUpgradeCostResponseSchema = z.union([
  redirectToCheckoutSchema,
  upgradePreviewSchema,
]);
export type PreviewUpgradeCostResponse = z.infer<typeof previewUpgradeCostResponseSchema>;

export function isRedirectToCheckout(
  response: PreviewUpgradeCostResponse,
): response is z.infer<typeof redirectToCheckoutSchema> {
  return 'redirectToCheckout' in response;
}

export const updateSubscriptionRequestSchema = planRequestSchema;
export type UpdateSubscriptionRequest = z.infer<typeof updateSubscriptionRequestSchema>;

export const updateSubscriptionResponseSchema = z.object({
  success: z.literal(true),
  planType: planTypeSchema,
});
export type UpdateSubscriptionResponse = z.infer<typeof updateSubscriptionResponseSchema>;

/** details of a 402 payment_action_required: the invoice page where the member authenticates the payment. */
export const paymentActionRequiredDetailsSchema = z.object({ url: z.url() });

/** The page to authenticate a plan change's payment on, when an error is payment_action_required. */
export function paymentActionUrl(error: { code?: string; details?: unknown }): string | null {
  if (error.code !== 'payment_action_required') return null;
  const parsed = paymentActionRequiredDetailsSchema.safeParse(error.details);
  return parsed.success && /^https:\/\//.test(parsed.data.url) ? parsed.data.url : null;
}

export const customerPortalResponseSchema = z.union([
  z.object({ url: z.string().min(1).max(2048) }),
  z.object({ configurationRequired: z.literal(true), setupUrl: z.string().max(2048) }),
]);
export type CustomerPortalResponse = z.infer<typeof customerPortalResponseSchema>;

// ---------------------------------------------------------------- TradingView

// The field name is the spec's ({product}-api/activate takes tv_username).
export const tradingviewActivateRequestSchema = z.object({ tv_username: tradingViewUsernameSchema });
export type TradingviewActivateRequest = z.infer<typeof tradingviewActivateRequestSchema>;

export const tradingviewActivateResponseSchema = z.object({
  success: z.literal(true),
  verifiedUsername: z.string(),
});
export type TradingviewActivateResponse = z.infer<typeof tradingviewActivateResponseSchema>;

// ---------------------------------------------------------------- subscription, access, security

export const subscriptionViewDtoSchema = z.object({
  planType: planTypeSchema.nullable(),
  isActive: z.boolean(),
  isCanceled: z.boolean(),
  status: z.string().nullable(),
  expiresAt: isoDateTimeSchema.nullable(),
  purchaseDate: isoDateTimeSchema.nullable(),
  amount: minorUnitsSchema.nullable(),
  currency: currencySchema.nullable(),
  tradingviewUsername: z.string().nullable(),
  canCancel: z.boolean(),
  /** Plan of the newest row of any kind, for the premium-required screen; null: no history. */
  latestPlanType: planTypeSchema.nullable(),
  /**
   * Where the shown subscription was bought: the price list its checkout's page sold from (null:
   * none named, e.g. an import) and the currency it is billed in; null without one. The
   * plan-change card shows that list's plans and prices (planChangeList).
   */
  boughtOn: z.object({ list: z.string().nullable(), currency: currencySchema }).nullable(),
});
export type SubscriptionViewDto = z.infer<typeof subscriptionViewDtoSchema>;

export const accessResponseSchema = z.object({ hasAccess: z.boolean() });
export type AccessResponse = z.infer<typeof accessResponseSchema>;

export const SECURITY_ALERT_TYPES = ['critical', 'warning', 'info'] as const;

export const securityAlertDtoSchema = z.object({
  id: z.string(),
  type: z.enum(SECURITY_ALERT_TYPES),
  message: z.string(),
  timestamp: isoDateTimeSchema,
});
export type SecurityAlertDto = z.infer<typeof securityAlertDtoSchema>;

export const securityAlertsResponseSchema = z.object({
  score: z.int().min(0).max(100),
  alerts: z.array(securityAlertDtoSchema),
});
export type SecurityAlertsResponse = z.infer<typeof securityAlertsResponseSchema>;

// ---------------------------------------------------------------- invoices

/** A provider's invoice id (Stripe in_…, the sandbox's in_sbx_…). */
export const invoiceIdSchema = z
  .string()
  .max(100, { error: 'Invoice id is too long.' })
  .regex(/^[A-Za-z0-9_]+$/, { error: 'Malformed invoice id.' });

/** One invoice of the member's, any plan: what it charged with the tax included, and its page. */
export const invoiceDtoSchema = z.object({
  id: z.string(),
  /** The provider's invoice number; null in the sandbox. */
  number: z.string().nullable(),
  createdAt: isoDateTimeSchema,
  /** paid, open, void, uncollectible */
  status: z.string(),
  /** Tax included; negative for a plan change that left a credit. */
  total: z.int(),
  amountTax: minorUnitsSchema,
  currency: currencySchema,
  /** The invoice's page (Stripe's hosted invoice; the sandbox's receipt, a path on this site). */
  url: z.string().max(2048).nullable(),
  pdfUrl: z.string().max(2048).nullable(),
});
export type InvoiceDto = z.infer<typeof invoiceDtoSchema>;

export const invoicesResponseSchema = z.object({ invoices: z.array(invoiceDtoSchema) });
export type InvoicesResponse = z.infer<typeof invoicesResponseSchema>;
