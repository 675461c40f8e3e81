// The cancellation flow's API: the member's options and choice (Settings → Subscription), the
// console's offers per reason and its list of cancellations with their reasons and pauses.
import { z } from 'zod';
import {
  CANCELLATION_OUTCOMES,
  CANCELLATION_REASONS,
  DISCOUNT_PERCENT_MAX,
  DISCOUNT_PERCENT_MIN,
  DISCOUNT_PERIODS_MAX,
  DISCOUNT_PERIODS_MIN,
  PAUSE_MONTHS_MAX,
  PAUSE_MONTHS_MIN,
  REASON_TEXT_MAX,
  type CancellationReason,
} from './retention';

export const RETENTION_PATHS = {
  member: '/api/cancellation',
  offers: '/api/admin/retention/offers',
  cancellations: '/api/admin/cancellations',
} as const;

const reasonSchema = z.enum(CANCELLATION_REASONS, { error: 'Please choose a reason from the list.' });

export const retentionOfferSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('discount'),
    percentOff: z.number().int().min(DISCOUNT_PERCENT_MIN, `A discount takes at least ${DISCOUNT_PERCENT_MIN} % off.`).max(DISCOUNT_PERCENT_MAX, `A discount takes at most ${DISCOUNT_PERCENT_MAX} % off.`),
    periods: z.number().int().min(DISCOUNT_PERIODS_MIN, `A discount lasts at least ${DISCOUNT_PERIODS_MIN} billing period.`).max(DISCOUNT_PERIODS_MAX, `A discount lasts at most ${DISCOUNT_PERIODS_MAX} billing periods.`),
  }),
  z.object({
    kind: z.literal('pause'),
    months: z.number().int().min(PAUSE_MONTHS_MIN, `A pause lasts at least ${PAUSE_MONTHS_MIN} month.`).max(PAUSE_MONTHS_MAX, `A pause lasts at most ${PAUSE_MONTHS_MAX} months.`),
  }),
]);

const offersShape = Object.fromEntries(CANCELLATION_REASONS.map((reason) => [reason, retentionOfferSchema.nullable()])) as Record<CancellationReason, z.ZodNullable<typeof retentionOfferSchema>>;
export const retentionOffersSchema = z.object(offersShape).strict();

/** GET /api/cancellation: what the member may do now, and the offer each reason would bring. */
export const cancellationOptionsSchema = z.object({
  /** null: nothing to cancel (no plan, lifetime, or already ending), with `blocked` saying why. */
  subscription: z.object({ planType: z.string(), currentPeriodEnd: z.iso.datetime().nullable() }).nullable(),
  blocked: z.string().nullable(),
  offers: retentionOffersSchema,
  /** A pause the member accepted that has not ended yet. */
  pause: z.object({ accessUntil: z.iso.datetime(), resumesAt: z.iso.datetime() }).nullable(),
});
export type CancellationOptions = z.infer<typeof cancellationOptionsSchema>;

export const cancellationRequestSchema = z
  .object({
    reason: reasonSchema,
    text: z.string().trim().max(REASON_TEXT_MAX, `Please keep your note to ${REASON_TEXT_MAX} characters.`).optional(),
    choice: z.enum(CANCELLATION_OUTCOMES, { error: 'Choose to cancel, or the offer shown.' }),
    pauseMonths: z.number().int().min(PAUSE_MONTHS_MIN).max(PAUSE_MONTHS_MAX).optional(),
  })
  .strict();
export type CancellationRequest = z.infer<typeof cancellationRequestSchema>;

export const cancellationResponseSchema = z.object({ message: z.string(), outcome: z.enum(CANCELLATION_OUTCOMES) });
export type CancellationResponse = z.infer<typeof cancellationResponseSchema>;

export const cancellationsQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(3650).default(90),
  userId: z.uuid('Malformed member id.').optional(),
});

export const cancellationEntrySchema = z.object({
  id: z.string(),
  userId: z.string(),
  email: z.string(),
  planType: z.string(),
  reason: reasonSchema,
  text: z.string().nullable(),
  outcome: z.enum(CANCELLATION_OUTCOMES),
  offer: retentionOfferSchema.nullable(),
  pauseMonths: z.number().int().nullable(),
  pauseResumesAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type CancellationEntry = z.infer<typeof cancellationEntrySchema>;

export const cancellationsReportSchema = z.object({
  days: z.number().int(),
  total: z.number().int().min(0),
  byReason: z.array(z.object({ reason: reasonSchema, declined: z.number().int(), discount: z.number().int(), pause: z.number().int() })),
  /** Members whose pause runs now. */
  pausedNow: z.number().int().min(0),
  entries: z.array(cancellationEntrySchema),
});
export type CancellationsReport = z.infer<typeof cancellationsReportSchema>;
