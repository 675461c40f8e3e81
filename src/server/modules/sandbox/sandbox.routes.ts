// The sandbox provider's own API behind its hosted checkout page (/sandbox/checkout/:id) and its
// customer portal (/sandbox/portal/:customerId). Mounted only while payments run in the sandbox.
// Like Stripe's hosted pages, the unguessable id in the URL is the buyer's key to the page.
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { SANDBOX_SUBSCRIPTION_ACTIONS, sandboxCheckoutSchema, sandboxPayRequestSchema, sandboxPayResponseSchema, sandboxPortalSchema, sandboxPromotionCodeRequestSchema } from '@shared/sandbox-contract';
import { readJson } from '../../http/errors';
import { describeOperation } from '../../http/openapi';
import type { Logger } from '../../logger';
import type { PaymentEventHandler } from '../fulfilment/fulfilment';
import { maskEmail, type CheckoutProofs } from '../billing/checkout-proof';
import type { SandboxPaymentsPort } from '../payments/payments.port';
import { deliverSandboxEvents } from './sandbox-delivery';
import { serverError } from '../../http/server-errors';

const idParam = z.string().min(1).max(100).regex(/^[A-Za-z0-9_]+$/, 'Malformed id.');
const BY_ID = { auth: 'none', description: 'Mounted only while payments run in the sandbox; the id in the path is the key.' } as const;

export function sandboxRoutes({
  payments,
  handler,
  logger,
  checkoutProofs,
}: {
  payments: SandboxPaymentsPort;
  handler: PaymentEventHandler;
  logger: Logger;
  /** Whether the caller's browser started a checkout (then it sees the whole e-mail it gave). */
  checkoutProofs: Pick<CheckoutProofs, 'started'>;
}) {
  const { sandbox } = payments;
  // Applying the events right away means the shop already knows when the buyer lands back on it.
  const deliverNow = () => deliverSandboxEvents(payments, handler, logger).catch((error: unknown) => logger.error({ err: error }, 'sandbox delivery failed'));

  /**
   * The checkout page's data. The id is the payment's session id, which travels in URLs: a stranger
   * holding it must not learn the address to sign up with, so only the browser that started the
   * checkout sees it whole.
   */
  async function visibleCheckout(c: Context, id: string) {
    const checkout = await sandbox.getCheckout(id);
    if (!checkout) throw serverError('sandboxCheckoutMissing');
    const customerEmail = checkout.customerEmail && !checkoutProofs.started(c, id) ? maskEmail(checkout.customerEmail) : checkout.customerEmail;
    return { ...checkout, customerEmail };
  }

  return new Hono()
    .get('/checkout/:id', describeOperation({ summary: "The sandbox provider's hosted checkout", ...BY_ID, response: sandboxCheckoutSchema }), async (c) => {
      const id = idParam.parse(c.req.param('id'));
      c.header('Cache-Control', 'no-store');
      return c.json(await visibleCheckout(c, id));
    })
    .post('/checkout/:id/pay', describeOperation({ summary: 'Pay a sandbox checkout with a test card', ...BY_ID, body: sandboxPayRequestSchema, response: sandboxPayResponseSchema }), async (c) => {
      const id = idParam.parse(c.req.param('id'));
      const result = await sandbox.pay(id, await readJson(c, sandboxPayRequestSchema));
      await deliverNow();
      return c.json(result);
    })
    .post('/checkout/:id/promotion-code', describeOperation({ summary: 'Apply a promotion code the buyer typed to a sandbox checkout', ...BY_ID, body: sandboxPromotionCodeRequestSchema, response: sandboxCheckoutSchema }), async (c) => {
      const id = idParam.parse(c.req.param('id'));
      await sandbox.applyPromotionCode(id, (await readJson(c, sandboxPromotionCodeRequestSchema)).code);
      c.header('Cache-Control', 'no-store');
      return c.json(await visibleCheckout(c, id));
    })
    // Stripe's "expire a session" call: the buyer left, and the shop hears checkout.session.expired now
    .post('/checkout/:id/expire', describeOperation({ summary: 'Expire an open sandbox checkout (as if the buyer left it)', ...BY_ID }), async (c) => {
      const id = idParam.parse(c.req.param('id'));
      if (!(await sandbox.getCheckout(id))) throw serverError('sandboxCheckoutMissing');
      await payments.expireCheckoutSession(id);
      await deliverNow();
      return c.json({ expired: true });
    })
    .get('/portal/:customerId', describeOperation({ summary: "The sandbox provider's customer portal", ...BY_ID, response: sandboxPortalSchema }), async (c) => {
      const portal = await sandbox.getPortal(idParam.parse(c.req.param('customerId')));
      if (!portal) throw serverError('sandboxCustomerMissing');
      return c.json(portal);
    })
    .post('/portal/:customerId/subscriptions/:subscriptionId/:action', describeOperation({
      summary: 'Cancel, resume or renew a sandbox subscription now',
      ...BY_ID,
      parameters: [{ in: 'path', name: 'action', required: true, schema: { type: 'string', enum: [...SANDBOX_SUBSCRIPTION_ACTIONS] } }],
      response: sandboxPortalSchema,
    }), async (c) => {
      const customerId = idParam.parse(c.req.param('customerId'));
      const subscriptionId = idParam.parse(c.req.param('subscriptionId'));
      const action = c.req.param('action');
      if (action === 'cancel') await sandbox.setCancelAtPeriodEnd(customerId, subscriptionId, true);
      else if (action === 'resume') await sandbox.setCancelAtPeriodEnd(customerId, subscriptionId, false);
      else if (action === 'renew-now') await sandbox.advanceToPeriodEnd(customerId, subscriptionId);
      else throw serverError('sandboxUnknownAction', action);
      await deliverNow();
      const portal = await sandbox.getPortal(customerId);
      return c.json(portal);
    });
}
