// POST /api/webhooks/stripe. Mounted on the root app, outside the API's session middleware, so
// the raw body reaches the signature check untouched: a webhook reads the raw body, verifies the
// signature, and only then parses the event.
import { Hono } from 'hono';
import { errorBody } from '../../http/errors';
import { describeOperation } from '../../http/openapi';
import type { Logger } from '../../logger';
import type { PaymentsPort } from '../payments/payments.port';
import type { PaymentEventHandler } from './fulfilment';
import type { SignatureRefusals } from './signature-refusals';

/** `refusals`: this instance's tally of bad signatures, which the operators' alert reads. */
export function webhookRoutes(deps: { payments: PaymentsPort; handler: PaymentEventHandler; refusals: SignatureRefusals; logger: Logger; clock: () => Date }) {
  const { payments, handler, refusals, logger, clock } = deps;
  const routes = new Hono();
  if (payments.kind !== 'stripe') {
    routes.post('/stripe', describeOperation({ summary: 'Signed payment-provider events (Stripe): this server has no Stripe, so it answers 404', auth: 'none' }), (c) => c.json(errorBody('not_found', 'Stripe is not configured on this server.'), 404));
    return routes;
  }
  routes.post('/stripe', describeOperation({
    summary: 'Signed payment-provider events (Stripe): the raw event, checked against its Stripe-Signature header, then applied',
    auth: 'none',
    parameters: [{ in: 'header', name: 'stripe-signature', required: true, schema: { type: 'string' } }],
    ok: '{ received: true, result }',
  }), async (c) => {
    const signature = c.req.header('stripe-signature');
    if (!signature) return c.json(errorBody('validation_failed', 'Missing Stripe-Signature header.'), 400);
    const raw = new Uint8Array(await c.req.arrayBuffer());
    let event;
    try {
      event = payments.parseWebhook(raw, signature);
    } catch (error) {
      // counted in memory for the operators' alert (a wrong secret or a forger): anyone can post
      // here, so a refusal writes nothing and logs at most one line a minute
      const refused = refusals.record(clock());
      if (refused !== null) logger.warn({ refused, reason: error instanceof Error ? error.message : String(error) }, 'Stripe webhooks with a bad signature refused');
      return c.json(errorBody('validation_failed', 'Invalid Stripe signature.'), 400);
    }
    // A failure here answers 500, so Stripe delivers the event again later.
    const result = await handler.handle(event, 'stripe');
    logger.info({ eventId: event.id, type: event.type, result }, 'Stripe webhook');
    return c.json({ received: true, result });
  });
  return routes;
}
