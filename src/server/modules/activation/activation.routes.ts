// The two calls of the payment-success page after get-payment-details: verify-payment
// (new buyer: create the account) and activate-existing-subscription (signed-in owner: link the
// purchase, optionally with the TradingView username). Thin: validate, call the service, answer.
import type { Context } from 'hono';
import { Hono } from 'hono';
import { csrf } from 'hono/csrf';
import { z } from 'zod';
import {
  activateExistingSubscriptionRequestSchema,
  activateExistingSubscriptionResponseSchema,
  verifyPaymentRequestSchema,
  verifyPaymentResponseSchema,
  type ActivateExistingSubscriptionResponse,
  type VerifyPaymentResponse,
} from '@shared/api-contract';
import { PASSWORD_MIN_LENGTH } from '@shared/validation';
import { readJson } from '../../http/errors';
import { describeOperation } from '../../http/openapi';
import { requireUser, type AuthVariables } from '../../http/session-user';
import type { CheckoutProofs } from '../billing/checkout-proof';
import type { ActivationService } from './activation.service';
import { serverError } from '../../http/server-errors';

/** The body by `schema`; the first problem's own message is the answer (the page shows it as is). */
async function readBody<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  try {
    return await readJson(c, schema);
  } catch (error) {
    if (!(error instanceof z.ZodError)) throw error;
    const issue = error.issues[0];
    const details = error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    if (issue?.path[0] === 'password' && issue.code === 'too_small' && Number(issue.minimum) === PASSWORD_MIN_LENGTH) {
      throw serverError('weakPassword', details);
    }
    throw serverError('invalidBody', issue?.message, details);
  }
}

export function activationRoutes(deps: { service: ActivationService; checkoutProofs: CheckoutProofs; trustedOrigins: string[]; clock: () => Date }) {
  const { service, trustedOrigins } = deps;
  return (
    new Hono<{ Variables: AuthVariables }>()
      // Both calls sign someone in or hand a purchase to an account: never from another site's form.
      .use('/verify-payment', csrf({ origin: trustedOrigins }))
      .use('/activate-existing-subscription', csrf({ origin: trustedOrigins }))
      .post('/verify-payment', describeOperation({ summary: 'Create the account of a paid checkout and sign in', auth: 'none', body: verifyPaymentRequestSchema, response: verifyPaymentResponseSchema }), async (c) => {
        const input = await readBody(c, verifyPaymentRequestSchema);
        // Holding the session id is not enough: the checkout's browser or the mailed link.
        if (!deps.checkoutProofs.proves(c, input.sessionId, input.proof, deps.clock())) {
          throw serverError('purchaseUnproven');
        }
        const result = await service.verifyPayment(input, c.req.raw.headers);
        for (const cookie of result.setCookies) c.header('set-cookie', cookie, { append: true });
        c.header('Cache-Control', 'no-store');
        return c.json({ email: result.email, signedIn: result.signedIn } satisfies VerifyPaymentResponse);
      })
      .post('/activate-existing-subscription', describeOperation({
        summary: 'Link a paid checkout to the signed-in owner of its e-mail (the checkout cookie or the mailed link proves it)',
        auth: 'session',
        body: activateExistingSubscriptionRequestSchema,
        response: activateExistingSubscriptionResponseSchema,
      }), async (c) => {
        const user = requireUser(c);
        const input = await readBody(c, activateExistingSubscriptionRequestSchema);
        // Being signed in as the paid e-mail proves nothing (an account can be made for any
        // address): the purchase itself must be proven, as for verify-payment.
        const proven = deps.checkoutProofs.proves(c, input.sessionId, input.proof, deps.clock());
        c.header('Cache-Control', 'no-store');
        return c.json((await service.activateExistingSubscription(user, input, proven)) satisfies ActivateExistingSubscriptionResponse);
      })
  );
}
