// The console's catalogue (mounted under /api/admin, behind requireOperator): read it, add and
// change plans, set a price on a list, archive, schedule and remove sales, move members to a new
// price, publish the prices at Stripe. Every change is audited; a change the rules refuse is a 400
// with the reason and saves nothing.
import { Hono } from 'hono';
import { DEFAULT_LIST, periodProblem, type BillingPeriod } from '@shared/catalogue';
import {
  addPlanRequestSchema,
  addPriceListRequestSchema,
  savePriceListRequestSchema,
  catalogueResponseSchema,
  moveMembersRequestSchema,
  moveMembersResponseSchema,
  publishResponseSchema,
  type PublishResponse,
  saveSaleRequestSchema,
  setPriceRequestSchema,
  updatePlanRequestSchema,
} from '@shared/catalogue-contract';
import { ApiError, readJson } from '../../http/errors';
import { describeOperation } from '../../http/openapi';
import { requireUser, type AuthVariables } from '../../http/session-user';
import type { WantedPrice } from '@shared/catalogue-publishing';
import type { CatalogueService, PublishOutcome } from './catalogue.service';

/** Every console route below (under /api/admin), for the authorisation test. */
export const CATALOGUE_ADMIN_ROUTES = [
  { method: 'GET', path: '/catalogue' },
  { method: 'POST', path: '/catalogue/plans' },
  { method: 'PUT', path: '/catalogue/plans/:slug' },
  { method: 'PUT', path: '/catalogue/plans/:slug/price' },
  { method: 'POST', path: '/catalogue/plans/:slug/archive' },
  { method: 'POST', path: '/catalogue/plans/:slug/move-members' },
  { method: 'POST', path: '/catalogue/publish' },
  { method: 'PUT', path: '/catalogue/sales/:id' },
  { method: 'DELETE', path: '/catalogue/sales/:id' },
  { method: 'POST', path: '/catalogue/price-lists' },
  { method: 'PUT', path: '/catalogue/price-lists/:slug' },
] as const;

const NO_STORE = { 'cache-control': 'private, no-store' };

/** The answer of a publish: each price with its Stripe id and what became of it ('sandbox': nothing was sent). */
function publishAnswer(outcome: PublishOutcome): PublishResponse {
  const entry = ({ plan, list, amount, currency, period, lookupKey }: WantedPrice) => ({ plan, list, amount, currency, period, lookupKey });
  if (outcome.mode === 'sandbox') return { mode: 'sandbox', prices: outcome.prices.map((price) => ({ ...entry(price), id: null, how: 'sandbox' })) };
  return { mode: 'stripe', prices: outcome.prices.map(({ price, id, how }) => ({ ...entry(price), id, how })) };
}

export function catalogueAdminRoutes(catalogue: CatalogueService) {
  const answer = async () => ({ version: catalogue.version(), catalogue: catalogue.current() });
  return new Hono<{ Variables: AuthVariables }>()
    .get('/catalogue', describeOperation({ summary: 'The catalogue: plans, price lists and sales', auth: 'operator', response: catalogueResponseSchema }), async (c) => c.json(await answer(), 200, NO_STORE))
    .post('/catalogue/plans', describeOperation({ summary: 'Add a plan on a price list', auth: 'operator', body: addPlanRequestSchema, response: catalogueResponseSchema }), async (c) => {
      const body = await readJson(c, addPlanRequestSchema);
      const problem = periodProblem(body.period);
      if (problem) throw new ApiError(400, 'invalid_catalogue', problem);
      await catalogue.addPlan(requireUser(c).email, { slug: body.slug, name: body.name, price: body.price, period: body.period as BillingPeriod | null, ...(body.list === undefined ? {} : { list: body.list }) });
      return c.json(await answer(), 201);
    })
    .put('/catalogue/plans/:slug', describeOperation({ summary: "Change a plan's card and settings", auth: 'operator', body: updatePlanRequestSchema, response: catalogueResponseSchema }), async (c) => {
      await catalogue.updatePlan(requireUser(c).email, c.req.param('slug'), await readJson(c, updatePlanRequestSchema));
      return c.json(await answer());
    })
    .put('/catalogue/plans/:slug/price', describeOperation({ summary: "Set a plan's price on a price list (new buyers; members keep theirs)", auth: 'operator', body: setPriceRequestSchema, response: catalogueResponseSchema }), async (c) => {
      const body = await readJson(c, setPriceRequestSchema);
      await catalogue.setPrice(requireUser(c).email, c.req.param('slug'), body.price, body.list);
      return c.json(await answer());
    })
    .post('/catalogue/plans/:slug/archive', describeOperation({ summary: 'Archive a plan (kept for its members, gone from the cards)', auth: 'operator', response: catalogueResponseSchema }), async (c) => {
      await catalogue.archivePlan(requireUser(c).email, c.req.param('slug'));
      return c.json(await answer());
    })
    .post(
      '/catalogue/plans/:slug/move-members',
      describeOperation({ summary: 'Move the members who pay an older price to the current one at their next renewal (no proration, a mail to each)', auth: 'operator', body: moveMembersRequestSchema, response: moveMembersResponseSchema }),
      async (c) => {
        const body = await readJson(c, moveMembersRequestSchema);
        const { price, moved, alreadyMoved } = await catalogue.moveMembers(requireUser(c).email, c.req.param('slug'), body.list);
        const members = moved.map(({ email, from, renewsAt }) => ({ email, from, renewsAt }));
        return c.json({ plan: price.plan, list: price.list, amount: price.amount, currency: price.currency, moved: members, alreadyMoved }, 200, NO_STORE);
      },
    )
    .post(
      '/catalogue/publish',
      describeOperation({ summary: "Publish the catalogue's prices at Stripe: a Product per plan, a Price per price sold, made where missing (the sandbox: what it charges)", auth: 'operator', response: publishResponseSchema }),
      async (c) => c.json(publishAnswer(await catalogue.publish(requireUser(c).email)), 200, NO_STORE),
    )
    .put('/catalogue/sales/:id', describeOperation({ summary: 'Schedule or change a sale (at most one runs per list at a time)', auth: 'operator', body: saveSaleRequestSchema, response: catalogueResponseSchema }), async (c) => {
      const body = await readJson(c, saveSaleRequestSchema);
      await catalogue.saveSale(requireUser(c).email, { ...body, id: c.req.param('id') });
      return c.json(await answer());
    })
    .delete('/catalogue/sales/:id', describeOperation({ summary: 'Remove a sale', auth: 'operator', response: catalogueResponseSchema }), async (c) => {
      await catalogue.removeSale(requireUser(c).email, c.req.param('id'));
      return c.json(await answer());
    })
    .post('/catalogue/price-lists', describeOperation({ summary: 'Add a price list, served at /{slug}', auth: 'operator', body: addPriceListRequestSchema, response: catalogueResponseSchema }), async (c) => {
      const body = await readJson(c, addPriceListRequestSchema);
      await catalogue.savePriceList(requireUser(c).email, body, true);
      return c.json(await answer(), 201);
    })
    .put('/catalogue/price-lists/:slug', describeOperation({ summary: "Change a price list's currency, header and plans ('default' is the default page's)", auth: 'operator', body: savePriceListRequestSchema, response: catalogueResponseSchema }), async (c) => {
      const body = await readJson(c, savePriceListRequestSchema);
      const slug = c.req.param('slug') === 'default' ? DEFAULT_LIST : c.req.param('slug');
      await catalogue.savePriceList(requireUser(c).email, { ...body, slug }, false);
      return c.json(await answer());
    });
}
