// The free-trial API: the member's trial (settings, payment pages) and the console's trial report.
import { z } from 'zod';
import { isoDateTimeSchema, memberTrialSchema } from './api-contract';
import { REPEAT_REASONS, TRIAL_OUTCOMES } from './trials';

export const TRIAL_PATHS = { member: '/api/trial', admin: '/api/admin/trials' } as const;

// the member's trial travels with the payment details too, so its shape lives in api-contract
export { memberTrialSchema, type MemberTrial } from './api-contract';

export const memberTrialResponseSchema = z.object({ trial: memberTrialSchema.nullable() });
export type MemberTrialResponse = z.infer<typeof memberTrialResponseSchema>;

export const trialsQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(365).default(30),
  userId: z.uuid('Malformed member id.').optional(),
});

const outcomeCounts = z.object(Object.fromEntries(TRIAL_OUTCOMES.map((outcome) => [outcome, z.number().int().min(0)])) as Record<(typeof TRIAL_OUTCOMES)[number], z.ZodNumber>);

export const trialsReportSchema = z.object({
  /** TRIAL_DAYS now (0: trials are off). */
  trialDays: z.number().int().min(0),
  days: z.number().int(),
  started: z.number().int().min(0),
  counts: outcomeCounts,
  /** Converted share of finished trials (converted + canceled), in percent; null before any finished. */
  conversionRate: z.number().nullable(),
  refusedByReason: z.object(Object.fromEntries(REPEAT_REASONS.map((reason) => [reason, z.number().int().min(0)])) as Record<(typeof REPEAT_REASONS)[number], z.ZodNumber>),
  trials: z.array(
    memberTrialSchema.extend({
      id: z.string(),
      email: z.string(),
      tradingviewUsername: z.string().nullable(),
      outcomeAt: isoDateTimeSchema.nullable(),
    }),
  ),
});
export type TrialsReport = z.infer<typeof trialsReportSchema>;
