// Promotion code routes: the public look-up the landing page makes for /?code=CODE (rate-limited
// per address, like the other anonymous calls) and the operator console's list, create,
// deactivate and retry (mounted under /api/admin, behind requireOperator).
import { Hono } from 'hono';
import { createPromotionRequestSchema, promotionCodeInputSchema, promotionItemSchema, promotionListSchema, publicPromotionSchema } from '@shared/promotions-contract';
import { PROMOTION_LOOKUPS_PER_ADDRESS } from '@shared/throttle';
import type { Db } from '../../db/client';
import { readJson } from '../../http/errors';
import { describeOperation } from '../../http/openapi';
import { serverError } from '../../http/server-errors';
import { requireUser, type AuthVariables } from '../../http/session-user';
import { limitPerAddress } from '../throttle/throttle.middleware';
import type { PromotionsService } from './promotions.service';

/** The code in the path, bounded before the rules read it (a 200-character code is a clear 400). */
function codeParam(raw: string): string {
  const parsed = promotionCodeInputSchema.safeParse(raw);
  if (!parsed.success) throw serverError('promotionRefused', parsed.error.issues[0]?.message ?? 'This promotion code is not valid.');
  return parsed.data;
}

export function promotionRoutes(deps: { db: Db; clock: () => Date; promotions: PromotionsService }) {
  return new Hono()
    .use('/promotion-codes/*', limitPerAddress(deps, 'promotion-lookup', PROMOTION_LOOKUPS_PER_ADDRESS))
    .get('/promotion-codes/:code', describeOperation({ summary: 'What a usable promotion code gives (the landing page prices its cards with it)', auth: 'none', response: publicPromotionSchema }), async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await deps.promotions.lookup(codeParam(c.req.param('code'))));
    });
}

/** Every console route below (under /api/admin), for the authorisation test. */
export const PROMOTION_ADMIN_ROUTES = [
  { method: 'GET', path: '/promotion-codes' },
  { method: 'POST', path: '/promotion-codes' },
  { method: 'POST', path: '/promotion-codes/:code/deactivate' },
  { method: 'POST', path: '/promotion-codes/:code/sync' },
] as const;

const NO_STORE = { 'cache-control': 'private, no-store' };

export function promotionAdminRoutes(promotions: PromotionsService) {
  return new Hono<{ Variables: AuthVariables }>()
    .get('/promotion-codes', describeOperation({ summary: 'Promotion codes with their redemptions, revenue, status and provider copy', auth: 'operator', response: promotionListSchema }), async (c) =>
      c.json({ promotions: await promotions.list() }, 200, NO_STORE),
    )
    .post('/promotion-codes', describeOperation({ summary: 'Create a promotion code (mirrored at the payment provider)', auth: 'operator', body: createPromotionRequestSchema, response: promotionItemSchema }), async (c) => {
      const operator = requireUser(c).email;
      return c.json(await promotions.create(await readJson(c, createPromotionRequestSchema), operator), 201);
    })
    .post('/promotion-codes/:code/deactivate', describeOperation({ summary: 'Switch a promotion code off, here and at the provider', auth: 'operator', response: promotionItemSchema }), async (c) =>
      c.json(await promotions.deactivate(codeParam(c.req.param('code')), requireUser(c).email)),
    )
    .post('/promotion-codes/:code/sync', describeOperation({ summary: 'Mirror a promotion code at the payment provider again', auth: 'operator', response: promotionItemSchema }), async (c) =>
      c.json(await promotions.sync(codeParam(c.req.param('code')))),
    );
}
