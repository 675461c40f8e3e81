import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import type { PaymentsPort } from './payments.port';
import { createSandboxPayments } from './sandbox-payments';
import { createStripePayments } from './stripe-payments';

/** The payments adapter configuration asks for: Stripe with STRIPE_SECRET_KEY, else the sandbox. */
export function buildPayments(deps: { config: Config; db: Db; logger: Logger; clock: () => Date }): PaymentsPort {
  const { config } = deps;
  if (config.payments.kind === 'stripe') {
    const { secretKey, webhookSecret, priceIds } = config.payments;
    return createStripePayments({ secretKey, webhookSecret, priceIds }, deps.logger);
  }
  return createSandboxPayments({
    db: deps.db,
    clock: deps.clock,
    prices: config.site.prices,
    portalReturnUrl: `${config.publicUrl}/dashboard/settings?section=subscription`,
  });
}
