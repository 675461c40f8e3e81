// Affiliate routes: the signed-in person's program, joining, summary and payout address, and the
// operator console's list, terms, suspensions and payout run (mounted under /api/admin, behind
// requireOperator). Handlers validate, call the service and answer a DTO.
import { Hono } from 'hono';
import { z } from 'zod';
import {
  addAffiliateRequestSchema,
  affiliateAdminItemSchema,
  affiliateListQuerySchema,
  affiliateListSchema,
  affiliateSummarySchema,
  approveResponseSchema,
  markPaidRequestSchema,
  markPaidResponseSchema,
  payoutAddressRequestSchema,
  programResponseSchema,
  suspendRequestSchema,
  termsRequestSchema,
  termsSchema,
} from '@shared/affiliates-contract';
import { readJson } from '../../http/errors';
import { describeOperation } from '../../http/openapi';
import { serverError } from '../../http/server-errors';
import { requireUser, type AuthVariables } from '../../http/session-user';
import type { AffiliatesService } from './affiliates.service';

const NO_STORE = { 'cache-control': 'private, no-store' };

export function affiliateRoutes({ affiliates }: { affiliates: AffiliatesService }) {
  return new Hono<{ Variables: AuthVariables }>()
    .get('/affiliate', describeOperation({ summary: "The signed-in affiliate's link, clicks, sales and commissions by status (minor units), payout address and history", auth: 'session', response: affiliateSummarySchema }), async (c) =>
      c.json(await affiliates.summary(requireUser(c).id), 200, NO_STORE),
    )
    .get('/affiliate/program', describeOperation({ summary: 'The affiliate program as the signed-in person sees it: its terms, whether they joined or may join', auth: 'session', response: programResponseSchema }), async (c) =>
      c.json(await affiliates.program(requireUser(c)), 200, NO_STORE),
    )
    .post('/affiliate/join', describeOperation({ summary: 'Join the affiliate program (as its mode allows): answers the new code and link', auth: 'session', response: affiliateSummarySchema }), async (c) =>
      c.json(await affiliates.join(requireUser(c)), 201, NO_STORE),
    )
    .post('/affiliate/promotion-code', describeOperation({ summary: "Ask for a promotion code bound to the signed-in affiliate (10 % off a first-time buyer's first payment)", auth: 'session', response: affiliateSummarySchema }), async (c) =>
      c.json(await affiliates.requestPromotionCode(requireUser(c).id), 201, NO_STORE),
    )
    .put('/affiliate/payout-address', describeOperation({ summary: 'The PayPal or Wise e-mail payouts are sent to', auth: 'session', body: payoutAddressRequestSchema, response: affiliateSummarySchema }), async (c) => {
      const user = requireUser(c);
      const { email } = await readJson(c, payoutAddressRequestSchema);
      return c.json(await affiliates.setPayoutAddress(user.id, email), 200, NO_STORE);
    });
}

/** Every console route below (under /api/admin), for the authorisation test. */
export const AFFILIATE_ADMIN_ROUTES = [
  { method: 'GET', path: '/affiliates' },
  { method: 'POST', path: '/affiliates' },
  { method: 'GET', path: '/affiliates/terms' },
  { method: 'PUT', path: '/affiliates/terms' },
  { method: 'POST', path: '/affiliates/payouts/approve' },
  { method: 'GET', path: '/affiliates/payouts.csv' },
  { method: 'POST', path: '/affiliates/payouts/mark-paid' },
  { method: 'POST', path: '/affiliates/:id/suspend' },
  { method: 'POST', path: '/affiliates/:id/reinstate' },
  { method: 'PUT', path: '/affiliates/:id/promotion-code' },
] as const;

const idSchema = z.uuid();
function idParam(raw: string): string {
  const parsed = idSchema.safeParse(raw);
  if (!parsed.success) throw serverError('affiliateNotFound', 'No affiliate with this id.');
  return parsed.data;
}

const bindRequestSchema = z.object({ code: z.string().max(100, { error: 'A promotion code is at most 40 characters.' }).nullable() });

export function affiliateAdminRoutes(affiliates: AffiliatesService) {
  return new Hono<{ Variables: AuthVariables }>()
    .get('/affiliates', describeOperation({ summary: 'Affiliates with clicks, buyers, sales, revenue, commissions, balance and refund-rate flags, a page of 50 at a time (q: search code or e-mail; page: from 1)', auth: 'operator', response: affiliateListSchema }), async (c) => {
      const query = affiliateListQuerySchema.safeParse(c.req.query());
      if (!query.success) throw serverError('affiliateRefused', query.error.issues[0]?.message ?? 'The search is not valid.');
      return c.json(await affiliates.list(query.data.q ?? null, query.data.page), 200, NO_STORE);
    })
    .post('/affiliates', describeOperation({ summary: 'Make the account with this e-mail an affiliate', auth: 'operator', body: addAffiliateRequestSchema, response: affiliateAdminItemSchema }), async (c) => {
      const { email } = await readJson(c, addAffiliateRequestSchema);
      return c.json(await affiliates.add(email, requireUser(c).email), 201);
    })
    .get('/affiliates/terms', describeOperation({ summary: "The affiliate program's terms", auth: 'operator', response: termsSchema }), async (c) => c.json(await affiliates.terms(), 200, NO_STORE))
    .put('/affiliates/terms', describeOperation({ summary: "Change the program's terms: mode, commission (percent or fixed, per plan), duration, cookie, hold, minimum payout (audited)", auth: 'operator', body: termsRequestSchema, response: termsSchema }), async (c) =>
      c.json(await affiliates.setTerms(await readJson(c, termsRequestSchema), requireUser(c).email)),
    )
    .post('/affiliates/payouts/approve', describeOperation({ summary: 'Approve the pending commissions whose hold period is over (audited)', auth: 'operator', response: approveResponseSchema }), async (c) =>
      c.json(await affiliates.approveDue(requireUser(c).email)),
    )
    .get('/affiliates/payouts.csv', describeOperation({ summary: 'The mass-payout CSV (PayPal, Wise): e-mail, amount, currency, reference of each balance that reaches the minimum', auth: 'operator', ok: 'text/csv' }), async (c) => {
      const csv = await affiliates.payoutCsv();
      return c.body(csv, 200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="affiliate-payouts.csv"', ...NO_STORE });
    })
    .post('/affiliates/payouts/mark-paid', describeOperation({ summary: "Mark the CSV's balances paid (all, or the affiliates named): one payout each, audited, mailed", auth: 'operator', body: markPaidRequestSchema, response: markPaidResponseSchema }), async (c) => {
      const { affiliateIds } = await readJson(c, markPaidRequestSchema);
      return c.json(await affiliates.markPaid(affiliateIds ?? null, requireUser(c).email));
    })
    .post('/affiliates/:id/suspend', describeOperation({ summary: 'Suspend an affiliate: their link sets no cookie and their buyers earn nothing (audited)', auth: 'operator', body: suspendRequestSchema, response: affiliateAdminItemSchema }), async (c) => {
      const { reason } = await readJson(c, suspendRequestSchema);
      return c.json(await affiliates.suspend(idParam(c.req.param('id')), reason ?? null, requireUser(c).email));
    })
    .post('/affiliates/:id/reinstate', describeOperation({ summary: 'Lift a suspension (audited)', auth: 'operator', response: affiliateAdminItemSchema }), async (c) =>
      c.json(await affiliates.reinstate(idParam(c.req.param('id')), requireUser(c).email)),
    )
    .put('/affiliates/:id/promotion-code', describeOperation({ summary: 'Bind a promotion code to an affiliate (null unbinds): orders with it earn for them, over any cookie (audited)', auth: 'operator', body: bindRequestSchema, response: affiliateAdminItemSchema }), async (c) => {
      const { code } = await readJson(c, bindRequestSchema);
      return c.json(await affiliates.bindPromotionCode(idParam(c.req.param('id')), code, requireUser(c).email));
    });
}
