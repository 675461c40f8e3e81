// The sandbox payment provider's own JSON API (served only while payments run in the sandbox):
// its hosted checkout page and its customer portal. Money in integer minor units.
import { z } from 'zod';
import { currencySchema, minorUnitsSchema, planTypeSchema } from './api-contract';
import { safeText } from './validation';
import { PROMOTION_CODE_LENGTH_TEXT, PROMOTION_DURATIONS, PROMOTION_INPUT_MAX_LENGTH } from './promotions';
import { TAX_ID_MAX_LENGTH, TAX_TEXTS } from './vat';

export const SANDBOX_PATHS = {
  checkout: (sessionId: string) => `/api/sandbox/checkout/${encodeURIComponent(sessionId)}`,
  pay: (sessionId: string) => `/api/sandbox/checkout/${encodeURIComponent(sessionId)}/pay`,
  promotionCode: (sessionId: string) => `/api/sandbox/checkout/${encodeURIComponent(sessionId)}/promotion-code`,
  portal: (customerId: string) => `/api/sandbox/portal/${encodeURIComponent(customerId)}`,
  subscriptionAction: (customerId: string, subscriptionId: string, action: SandboxSubscriptionAction) =>
    `/api/sandbox/portal/${encodeURIComponent(customerId)}/subscriptions/${encodeURIComponent(subscriptionId)}/${action}`,
} as const;

export const SANDBOX_SUBSCRIPTION_ACTIONS = ['cancel', 'resume', 'renew-now'] as const;
export type SandboxSubscriptionAction = (typeof SANDBOX_SUBSCRIPTION_ACTIONS)[number];

export const sandboxCheckoutSchema = z.object({
  id: z.string(),
  status: z.enum(['open', 'complete', 'expired']),
  mode: z.enum(['payment', 'subscription']),
  planType: planTypeSchema,
  amount: minorUnitsSchema,
  currency: currencySchema,
  /** Months per billing period (a week: 0.23…); null for a one-time payment. */
  intervalMonths: z.number().positive().nullable(),
  /** Fixed by the shop (or the buyer, once paid): shown, not editable; masked unless this browser started the checkout. */
  customerEmail: z.string().nullable(),
  cancelUrl: z.string(),
  /** Where a completed checkout continues. */
  successUrl: z.string().nullable(),
  /** STRIPE_TAX: the page collects a billing country (VAT for EU addresses) and a tax ID; absent or null: no tax. */
  tax: z.object({ behavior: z.enum(['exclusive', 'inclusive']) }).nullable().optional(),
  /** A free trial: nothing is due today and `amount` is charged when it ends; absent or null: none. */
  trialDays: z.number().int().positive().nullable().optional(),
  /** The promotion code applied: `amount` (the price before it) less `discount.amount` is due. */
  discount: z
    .object({ code: z.string(), amount: minorUnitsSchema, duration: z.enum(PROMOTION_DURATIONS), durationInMonths: z.number().int().positive().nullable() })
    .nullable()
    .optional(),
  /** Whether the buyer may type a promotion code (none was applied by the shop). */
  allowPromotionCodes: z.boolean().optional(),
});
export type SandboxCheckout = z.infer<typeof sandboxCheckoutSchema>;

export const sandboxPayRequestSchema = z.object({
  email: safeText().max(254).nullable(),
  cardNumber: safeText().max(32),
  expiry: safeText().max(16),
  cvc: safeText().max(8),
  name: safeText().max(200),
  /** With tax on: the billing address's ISO country (required) and the buyer's tax ID (optional). */
  billingCountry: safeText().max(2, { error: TAX_TEXTS.unknownCountry }).optional(),
  taxId: safeText()
    .max(TAX_ID_MAX_LENGTH, { error: TAX_TEXTS.taxIdTooLong })
    .regex(/^[A-Za-z0-9 .-]*$/, { error: TAX_TEXTS.taxIdInvalid })
    .optional(),
});
export type SandboxPayRequest = z.infer<typeof sandboxPayRequestSchema>;

/** A promotion code the buyer types on the sandbox checkout page (its format is checked by the rules). */
export const sandboxPromotionCodeRequestSchema = z.object({ code: safeText().max(PROMOTION_INPUT_MAX_LENGTH, { error: PROMOTION_CODE_LENGTH_TEXT }) });

export const sandboxPayResponseSchema = z.object({ redirectUrl: z.string() });
export type SandboxPayResponse = z.infer<typeof sandboxPayResponseSchema>;

const isoDate = z.string();

export const sandboxPortalSchema = z.object({
  customerId: z.string(),
  email: z.string(),
  card: z.object({ brand: z.string(), last4: z.string() }).nullable(),
  returnUrl: z.string(),
  subscriptions: z.array(
    z.object({
      id: z.string(),
      planType: planTypeSchema,
      status: z.string(),
      amount: minorUnitsSchema,
      currency: currencySchema,
      intervalMonths: z.number().positive(),
      currentPeriodEnd: isoDate,
      cancelAtPeriodEnd: z.boolean(),
      canceledAt: isoDate.nullable(),
    }),
  ),
  invoices: z.array(
    z.object({
      id: z.string(),
      createdAt: isoDate,
      description: z.string(),
      amountDue: minorUnitsSchema,
      currency: currencySchema,
      status: z.string(),
    }),
  ),
});
export type SandboxPortal = z.infer<typeof sandboxPortalSchema>;
