// The affiliate program's JSON shapes: the member's summary (GET /api/affiliate), joining, the
// payout address, and the operator console's list, terms and payout run. Request schemas check
// types and sizes; what the terms mean is checked by the rules (affiliates.ts).
import { z } from 'zod';
import { COMMISSION_DURATIONS, COMMISSION_KINDS, COMMISSION_STATUSES, PROGRAM_MODES } from './affiliates';
import { currencySchema, isoDateTimeSchema } from './api-contract';
import { safeText } from './validation';

export const AFFILIATE_PATHS = {
  summary: '/api/affiliate',
  program: '/api/affiliate/program',
  join: '/api/affiliate/join',
  payoutAddress: '/api/affiliate/payout-address',
  promotionCode: '/api/affiliate/promotion-code',
  admin: '/api/admin/affiliates',
  terms: '/api/admin/affiliates/terms',
  suspend: (id: string) => `/api/admin/affiliates/${encodeURIComponent(id)}/suspend`,
  reinstate: (id: string) => `/api/admin/affiliates/${encodeURIComponent(id)}/reinstate`,
  approve: '/api/admin/affiliates/payouts/approve',
  payoutCsv: '/api/admin/affiliates/payouts.csv',
  markPaid: '/api/admin/affiliates/payouts/mark-paid',
} as const;

const amounts = z.object({ pending: z.number().int(), approved: z.number().int(), paid: z.number().int(), reversed: z.number().int() });
export type CommissionTotals = z.infer<typeof amounts>;

export const commissionItemSchema = z.object({
  id: z.uuid(),
  at: isoDateTimeSchema,
  planType: z.string(),
  currency: currencySchema,
  /** What the payment was, after discounts, before tax. */
  base: z.number().int(),
  amount: z.number().int(),
  status: z.enum(COMMISSION_STATUSES),
  /** Refused: why nothing was earned; reversed: refunded or disputed. */
  reason: z.string().nullable(),
  approvableAt: isoDateTimeSchema.nullable(),
});
export type CommissionItem = z.infer<typeof commissionItemSchema>;

export const termsSummarySchema = z.object({
  mode: z.enum(PROGRAM_MODES),
  commission: z.string(),
  duration: z.string(),
  cookieDays: z.number().int(),
  holdDays: z.number().int(),
  minimumPayout: z.number().int(),
  currency: currencySchema,
});

export const affiliateSummarySchema = z.object({
  code: z.string(),
  link: z.string(),
  clicks: z.number().int(),
  /** Paid payments that earned a commission (reversed ones included). */
  sales: z.number().int(),
  currency: currencySchema,
  /** In minor units of `currency`. */
  commissions: amounts,
  status: z.enum(['active', 'suspended']),
  /** Referred buyers (accounts or checkouts attributed), and of them those who started with a free trial. */
  signups: z.number().int(),
  trials: z.number().int(),
  /** What the next payout would pay: approved, less commissions taken back after they were paid (may be negative). */
  balance: z.number().int(),
  payoutEmail: z.string().nullable(),
  promotionCode: z.string().nullable(),
  /** Commissions in other currencies than `currency` (EU plans). */
  otherCurrencies: z.array(amounts.extend({ currency: currencySchema })),
  history: z.array(commissionItemSchema),
  payouts: z.array(z.object({ id: z.uuid(), at: isoDateTimeSchema, amount: z.number().int(), currency: currencySchema, email: z.string() })),
  terms: termsSummarySchema,
});
export type AffiliateSummary = z.infer<typeof affiliateSummarySchema>;

export const programResponseSchema = z.object({
  joined: z.boolean(),
  /** Null when this person may join now; else why not. */
  refusal: z.string().nullable(),
  terms: termsSummarySchema,
});
export type ProgramResponse = z.infer<typeof programResponseSchema>;

export const payoutAddressRequestSchema = z.object({ email: safeText().max(320, { error: 'The payout address is too long.' }) });

// ---------------------------------------------------------------- console

export const affiliateAdminItemSchema = z.object({
  id: z.uuid(),
  code: z.string(),
  email: z.string(),
  userId: z.uuid(),
  status: z.enum(['active', 'suspended']),
  suspendedReason: z.string().nullable(),
  flagged: z.boolean(),
  clicks: z.number().int(),
  buyers: z.number().int(),
  reversedBuyers: z.number().int(),
  sales: z.number().int(),
  /** What the referred payments brought in (after discounts, before tax), per currency. */
  revenue: z.array(z.object({ currency: currencySchema, amount: z.number().int() })),
  currency: currencySchema,
  commissions: amounts,
  balance: z.number().int(),
  payoutEmail: z.string().nullable(),
  promotionCode: z.string().nullable(),
  createdAt: isoDateTimeSchema,
});
export type AffiliateAdminItem = z.infer<typeof affiliateAdminItemSchema>;

/** The console lists affiliates a page at a time, oldest first. */
export const AFFILIATES_PAGE_SIZE = 50;

export const affiliateListSchema = z.object({
  /** One page of the affiliates matching the search. */
  affiliates: z.array(affiliateAdminItemSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Counts over every affiliate matching the search (affiliates: how many, across the pages); commissions over the whole program. */
  totals: z.object({ affiliates: z.number().int(), flagged: z.number().int(), suspended: z.number().int(), currency: currencySchema, commissions: amounts, dueToApprove: z.number().int() }),
  /** The five affiliates whose buyers paid the most in the program's currency, of the whole program (the overview's card). */
  topByRevenue: z.array(z.object({ id: z.string(), code: z.string(), revenue: z.array(z.object({ currency: currencySchema, amount: z.number().int() })) })),
});
export type AffiliateList = z.infer<typeof affiliateListSchema>;

export const affiliateListQuerySchema = z.object({
  q: safeText().max(200, { error: 'The search is too long.' }).optional(),
  page: z.coerce.number({ error: 'The page is a whole number from 1.' }).int({ error: 'The page is a whole number from 1.' }).min(1, { error: 'The page is a whole number from 1.' }).max(10_000, { error: 'The page is at most 10,000.' }).default(1),
});

export const addAffiliateRequestSchema = z.object({ email: safeText().max(320, { error: 'The e-mail is too long.' }) });
export const suspendRequestSchema = z.object({ reason: safeText().max(500, { error: 'The reason is too long.' }).optional() });

export const termsSchema = z.object({
  mode: z.enum(PROGRAM_MODES),
  kind: z.enum(COMMISSION_KINDS),
  /** Percent (30 = 30 %) or minor units. */
  value: z.number(),
  plans: z.record(z.string(), z.object({ kind: z.enum(COMMISSION_KINDS), value: z.number() })),
  duration: z.enum(COMMISSION_DURATIONS),
  durationMonths: z.number().int().nullable(),
  cookieDays: z.number().int(),
  holdDays: z.number().int(),
  minimumPayout: z.number().int(),
  currency: currencySchema,
  updatedAt: isoDateTimeSchema.nullable(),
  updatedBy: z.string().nullable(),
});
export type TermsResponse = z.infer<typeof termsSchema>;

/** Types and sizes only: the rules say what is allowed (a rate above 100 % is a clear 400 from them). */
export const termsRequestSchema = z.object({
  mode: safeText().max(20).optional(),
  kind: safeText().max(20).optional(),
  value: z.number({ error: 'The commission needs a number.' }).optional(),
  plans: z.record(safeText().max(60), z.object({ kind: safeText().max(20), value: z.number({ error: 'The commission needs a number.' }) })).nullable().optional(),
  duration: safeText().max(20).optional(),
  durationMonths: z.number({ error: 'The number of months needs a number.' }).nullable().optional(),
  cookieDays: z.number({ error: 'The cookie length needs a number.' }).optional(),
  holdDays: z.number({ error: 'The hold period needs a number.' }).optional(),
  minimumPayout: z.number({ error: 'The minimum payout needs a number.' }).optional(),
  currency: safeText().max(10).optional(),
});

export const payoutLineSchema = z.object({ affiliateId: z.uuid(), code: z.string(), email: z.string(), amount: z.number().int(), currency: currencySchema });
export const approveResponseSchema = z.object({ approved: z.number().int() });
export const markPaidRequestSchema = z.object({ affiliateIds: z.array(z.uuid({ error: 'Affiliate ids are UUIDs.' })).max(10_000).optional() });
export const markPaidResponseSchema = z.object({
  paid: z.array(payoutLineSchema),
  /** Affiliates asked for and not paid, with why (below the minimum, no address, nothing due). */
  skipped: z.array(z.object({ affiliateId: z.uuid(), code: z.string(), reason: z.string() })),
});
export type MarkPaidResponse = z.infer<typeof markPaidResponseSchema>;

