// The sandbox payment provider's own JSON API (served only while payments run in the sandbox):
// its hosted checkout page and its customer portal. Money in integer minor units.
import { z } from 'zod';
import { currencySchema, minorUnitsSchema, planTypeSchema } from './api-contract';
import { safeText } from './validation';

export const SANDBOX_PATHS = {
  checkout: (sessionId: string) => `/api/sandbox/checkout/${encodeURIComponent(sessionId)}`,
  pay: (sessionId: string) => `/api/sandbox/checkout/${encodeURIComponent(sessionId)}/pay`,
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
  /** Months per billing period; null for a one-time payment. */
  intervalMonths: z.number().int().positive().nullable(),
  /** Fixed by the shop (or the buyer, once paid): shown, not editable; masked unless this browser started the checkout. */
  customerEmail: z.string().nullable(),
  cancelUrl: z.string(),
  /** Where a completed checkout continues. */
  successUrl: z.string().nullable(),
});
export type SandboxCheckout = z.infer<typeof sandboxCheckoutSchema>;

export const sandboxPayRequestSchema = z.object({
  email: safeText().max(254).nullable(),
  cardNumber: safeText().max(32),
  expiry: safeText().max(16),
  cvc: safeText().max(8),
  name: safeText().max(200),
});
export type SandboxPayRequest = z.infer<typeof sandboxPayRequestSchema>;

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
      intervalMonths: z.number().int().positive(),
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
