// The billing calls of spec §7 (DESIGN.md "API"): thin handlers that validate with the shared
// contract, call the billing service and answer its DTO. Sandbox provider pages mount here too.
import { Hono } from 'hono';
import {
  createCheckoutRequestSchema,
  getPaymentDetailsRequestSchema,
  postPaymentCleanupRequestSchema,
  previewUpgradeCostRequestSchema,
  updateSubscriptionRequestSchema,
} from '@shared/api-contract';
import type { Dependencies } from '../../dependencies';
import { readJson } from '../../http/errors';
import { requireUser, type AuthVariables } from '../auth/session.middleware';
import { createBillingService } from './billing.service';
import { createPaymentEventHandler, reconcileUsers } from './fulfilment';
import { sandboxRoutes } from './sandbox.routes';

const clientIp = (headers: Headers) => headers.get('x-forwarded-for')?.split(',')[0]?.trim() ?? null;

export function billingRoutes(deps: Pick<Dependencies, 'database' | 'payments' | 'config' | 'logger' | 'clock' | 'reconciler'>) {
  const { payments, config, logger, clock } = deps;
  const db = deps.database.db;
  const onUsersChanged = reconcileUsers(deps.reconciler);
  const billing = createBillingService({ db, payments, config, logger, clock, onUsersChanged });
  const routes = new Hono<{ Variables: AuthVariables }>()
    // Anonymous visitors may start a checkout (spec §6).
    .post('/create-checkout', async (c) => c.json(await billing.createCheckout(c.get('user'), await readJson(c, createCheckoutRequestSchema))))
    .post('/get-payment-details', async (c) => {
      const { sessionId } = await readJson(c, getPaymentDetailsRequestSchema);
      return c.json(await billing.getPaymentDetails(c.get('user'), sessionId));
    })
    .get('/subscription', async (c) => c.json(await billing.getSubscription(requireUser(c))))
    .post('/check-subscription', async (c) => c.json({ success: await billing.syncUser(requireUser(c)) }))
    .post('/preview-upgrade-cost', async (c) => {
      const user = requireUser(c);
      const { planType } = await readJson(c, previewUpgradeCostRequestSchema);
      return c.json(await billing.previewUpgrade(user, planType));
    })
    .post('/update-subscription', async (c) => {
      const user = requireUser(c);
      const { planType } = await readJson(c, updateSubscriptionRequestSchema);
      return c.json(await billing.updateSubscription(user, planType, clientIp(c.req.raw.headers)));
    })
    .post('/post-payment-cleanup', async (c) => {
      const user = requireUser(c);
      return c.json(await billing.postPaymentCleanup(user, await readJson(c, postPaymentCleanupRequestSchema)));
    })
    .post('/customer-portal', async (c) => c.json(await billing.customerPortal(requireUser(c))));

  if (payments.kind === 'sandbox') {
    const handler = createPaymentEventHandler({ db, payments, logger, clock, onUsersChanged });
    routes.route('/sandbox', sandboxRoutes({ payments, handler, logger }));
  }
  return routes;
}
