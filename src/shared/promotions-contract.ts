// The promotion codes' JSON shapes: the operator console's (create, list, deactivate) and the
// public lookup the landing page makes for /?code=CODE. The request schema checks types and sizes
// only; what the terms mean is checked by the rules (promotions.ts), whose messages the 400 carries.
import { z } from 'zod';
import { currencySchema, isoDateTimeSchema, minorUnitsSchema, planTypeSchema } from './api-contract';
import { PROMOTION_CODE_LENGTH_TEXT, PROMOTION_DURATIONS, PROMOTION_INPUT_MAX_LENGTH } from './promotions';
import { safeText } from './validation';

export const PROMOTION_PATHS = {
  lookup: (code: string) => `/api/promotion-codes/${encodeURIComponent(code)}`,
  admin: '/api/admin/promotion-codes',
  deactivate: (code: string) => `/api/admin/promotion-codes/${encodeURIComponent(code)}/deactivate`,
  sync: (code: string) => `/api/admin/promotion-codes/${encodeURIComponent(code)}/sync`,
} as const;

/** A code as typed into a URL or a form: bounded before the rules read it. */
export const promotionCodeInputSchema = safeText().max(PROMOTION_INPUT_MAX_LENGTH, { error: PROMOTION_CODE_LENGTH_TEXT });

const count = z.number({ error: 'Expected a number.' }).nullable().optional();

export const createPromotionRequestSchema = z.object({
  code: promotionCodeInputSchema,
  percentOff: count,
  amountOff: count,
  currency: safeText().max(10).nullable().optional(),
  duration: safeText().max(20).nullable().optional(),
  durationInMonths: count,
  plans: z.array(safeText().max(40)).max(20).nullable().optional(),
  firstTimeOnly: z.boolean().optional(),
  /** Win-back: only members whose access ended may use it. */
  churnedOnly: z.boolean().optional(),
  maxRedemptions: count,
  /** YYYY-MM-DD: the code works to the end of that day (UTC). */
  expires: safeText().max(20).nullable().optional(),
});
export type CreatePromotionRequest = z.infer<typeof createPromotionRequestSchema>;

/** What anyone may read of a usable code: enough to price the cards and say what it gives. */
export const publicPromotionSchema = z.object({
  code: z.string(),
  percentOff: z.number().int().nullable(),
  amountOff: minorUnitsSchema.nullable(),
  currency: currencySchema.nullable(),
  duration: z.enum(PROMOTION_DURATIONS),
  durationInMonths: z.number().int().nullable(),
  plans: z.array(planTypeSchema).nullable(),
  firstTimeOnly: z.boolean(),
  churnedOnly: z.boolean(),
  expiresAt: isoDateTimeSchema.nullable(),
});
export type PublicPromotion = z.infer<typeof publicPromotionSchema>;

const money = z.object({ currency: currencySchema, amount: z.number().int() });

/** Where the code stands: usable, switched off by an operator, past its expiry, or used up. */
export const PROMOTION_STATUSES = ['active', 'inactive', 'expired', 'exhausted'] as const;

/** The provider's copy: made, still to make (the shop retries), or failed with the provider's answer. */
export const PROVIDER_STATES = ['mirrored', 'pending', 'failed'] as const;

export const promotionItemSchema = publicPromotionSchema.extend({
  id: z.uuid(),
  maxRedemptions: z.number().int().nullable(),
  status: z.enum(PROMOTION_STATUSES),
  redemptions: z.number().int(),
  /** What the code's orders charged (first payments and renewals), per currency. */
  revenue: z.array(money),
  /** What it took off them, per currency. */
  discounted: z.array(money),
  provider: z.object({ state: z.enum(PROVIDER_STATES), kind: z.string().nullable(), promotionCodeId: z.string().nullable(), error: z.string().nullable() }),
  createdBy: z.string(),
  createdAt: isoDateTimeSchema,
});
export type PromotionItem = z.infer<typeof promotionItemSchema>;

export const promotionListSchema = z.object({ promotions: z.array(promotionItemSchema) });
export type PromotionList = z.infer<typeof promotionListSchema>;
