// The cancellation flow's API: the member's options and choice (Settings → Subscription), and the
// console's offers per reason and cancellations (mounted under /api/admin, behind the operator check).
import { Hono } from 'hono';
import { cancellationOptionsSchema, cancellationRequestSchema, cancellationResponseSchema, cancellationsQuerySchema, cancellationsReportSchema, retentionOffersSchema } from '@shared/retention-contract';
import { readJson } from '../../http/errors';
import { describeOperation } from '../../http/openapi';
import { serverError } from '../../http/server-errors';
import { requireUser, type AuthVariables } from '../../http/session-user';
import type { RetentionService } from './retention.service';

const NO_STORE = { 'cache-control': 'private, no-store' };

export function retentionRoutes({ retention }: { retention: RetentionService }) {
  return new Hono<{ Variables: AuthVariables }>()
    .get('/cancellation', describeOperation({ summary: "The member's cancellation options: their plan, and the offer each reason brings", auth: 'session', response: cancellationOptionsSchema }), async (c) =>
      c.json(await retention.options(requireUser(c)), 200, NO_STORE),
    )
    .post('/cancellation', describeOperation({ summary: 'Cancel at period end with a reason, or take the offer shown for it', auth: 'session', body: cancellationRequestSchema, response: cancellationResponseSchema }), async (c) => {
      return c.json(await retention.choose(requireUser(c), await readJson(c, cancellationRequestSchema)));
    });
}

/** Under /api/admin. */
export function retentionAdminRoutes({ retention }: { retention: RetentionService }) {
  return new Hono<{ Variables: AuthVariables }>()
    .get('/retention/offers', describeOperation({ summary: 'The offer for each cancellation reason', auth: 'operator', response: retentionOffersSchema }), async (c) => c.json(await retention.offers(), 200, NO_STORE))
    .put('/retention/offers', describeOperation({ summary: 'Set the offer for each cancellation reason (null: none)', auth: 'operator', body: retentionOffersSchema, response: retentionOffersSchema }), async (c) =>
      c.json(await retention.setOffers(requireUser(c), await readJson(c, retentionOffersSchema))),
    )
    .get('/cancellations', describeOperation({ summary: 'Cancellations with their reasons and outcomes, counts per reason, pauses running', auth: 'operator', response: cancellationsReportSchema }), async (c) => {
      const query = cancellationsQuerySchema.safeParse(c.req.query());
      if (!query.success) throw serverError('invalidBody', query.error.issues[0]?.message);
      return c.json(await retention.report(query.data), 200, NO_STORE);
    });
}
