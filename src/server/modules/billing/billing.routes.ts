// The billing calls (create-checkout, get-payment-details, plan changes, portal, …), named after
// the product's operations: thin handlers that validate with the shared
// contract, call the billing service and answer its DTO. Sandbox provider pages mount here too.
import { Hono, type Context } from 'hono';
import type { ReadCache } from '@shared/read-cache';
import {
  checkSubscriptionResponseSchema,
  createCheckoutRequestSchema,
  createCheckoutResponseSchema,
  customerPortalResponseSchema,
  getPaymentDetailsRequestSchema,
  getPaymentDetailsResponseSchema,
  postPaymentCleanupRequestSchema,
  postPaymentCleanupResponseSchema,
  previewUpgradeCostRequestSchema,
  previewUpgradeCostResponseSchema,
  subscriptionViewDtoSchema,
  updateSubscriptionRequestSchema,
  updateSubscriptionResponseSchema,
} from '@shared/api-contract';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { clientAddressOf } from '../../http/client-address';
import { readJson } from '../../http/errors';
import { describeOperation } from '../../http/openapi';
import { returnBaseUrl } from '../../http/public-address';
import { requireUser, type AuthVariables } from '../../http/session-user';
import type { CheckoutProofs } from './checkout-proof';
import type { BillingService } from './billing.service';
import type { BrowserTokens } from '../../http/browser-token';
import { limitAnonymousCheckouts } from './checkout-limit';

export type BillingRoutesDeps = {
  db: Db;
  /** The member's subscription view is read through it (MEMBER_CACHE_MS). */
  reads: ReadCache;
  billing: BillingService;
  config: Config;
  clock: () => Date;
  checkoutProofs: CheckoutProofs;
  browserTokens: BrowserTokens;
  /** Told of each checkout started, with its request (the affiliate program reads its referral cookie there). */
  onCheckoutStarted?: (c: Context, sessionId: string) => Promise<void>;
};

export function billingRoutes(deps: BillingRoutesDeps) {
  const { db, reads, billing, config, clock, checkoutProofs, browserTokens } = deps;
  const routes = new Hono<{ Variables: AuthVariables }>()
    // Anonymous visitors may start a checkout, each a provider call: so many per browser and address.
    .use('/create-checkout', limitAnonymousCheckouts({ db, clock, tokens: browserTokens }))
    .post('/create-checkout', describeOperation({ summary: 'Start a hosted checkout for a plan', auth: 'none', body: createCheckoutRequestSchema, response: createCheckoutResponseSchema }), async (c) => {
      const checkout = await billing.createCheckout(c.get('user'), await readJson(c, createCheckoutRequestSchema), returnBaseUrl(config, c));
      // This browser may take the purchase after paying; any other must prove the e-mail.
      checkoutProofs.remember(c, checkout.sessionId);
      await deps.onCheckoutStarted?.(c, checkout.sessionId);
      return c.json(checkout);
    })
    .post('/get-payment-details', describeOperation({ summary: 'Details and buyer status of a paid checkout', auth: 'none', body: getPaymentDetailsRequestSchema, response: getPaymentDetailsResponseSchema }), async (c) => {
      const { sessionId, proof } = await readJson(c, getPaymentDetailsRequestSchema);
      const proven = checkoutProofs.proves(c, sessionId, proof, clock());
      c.header('Cache-Control', 'no-store');
      return c.json(await billing.getPaymentDetails(c.get('user'), sessionId, proven));
    })
    .get('/subscription', describeOperation({ summary: 'The derived subscription view', auth: 'session', response: subscriptionViewDtoSchema }), async (c) => {
      const user = requireUser(c);
      return c.json(await reads.read(`subscription:${user.id}`, () => billing.getSubscription(user)));
    })
    .post('/check-subscription', describeOperation({ summary: 'Sync the subscription with the payment provider', auth: 'session', response: checkSubscriptionResponseSchema }), async (c) => c.json({ success: await billing.syncUser(requireUser(c)) }))
    .post('/preview-upgrade-cost', describeOperation({ summary: 'Preview the proration of a plan change', auth: 'session', body: previewUpgradeCostRequestSchema, response: previewUpgradeCostResponseSchema }), async (c) => {
      const user = requireUser(c);
      const { planType } = await readJson(c, previewUpgradeCostRequestSchema);
      return c.json(await billing.previewUpgrade(user, planType));
    })
    .post('/update-subscription', describeOperation({ summary: 'Change the plan with the previewed proration', auth: 'session', body: updateSubscriptionRequestSchema, response: updateSubscriptionResponseSchema }), async (c) => {
      const user = requireUser(c);
      const { planType } = await readJson(c, updateSubscriptionRequestSchema);
      return c.json(await billing.updateSubscription(user, planType, clientAddressOf(c.req.raw.headers)));
    })
    .post('/post-payment-cleanup', describeOperation({ summary: 'Cancel the recurring plan a lifetime purchase replaced', auth: 'session', body: postPaymentCleanupRequestSchema, response: postPaymentCleanupResponseSchema }), async (c) => {
      const user = requireUser(c);
      return c.json(await billing.postPaymentCleanup(user, await readJson(c, postPaymentCleanupRequestSchema)));
    })
    .post('/customer-portal', describeOperation({ summary: 'Open the billing portal', auth: 'session', response: customerPortalResponseSchema }), async (c) => c.json(await billing.customerPortal(requireUser(c), returnBaseUrl(config, c))));
  return routes;
}
