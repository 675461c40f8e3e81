import { currentPrices, isSaleRunning } from '@shared/campaign';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import type { PaymentsPort } from './payments.port';
import { createSandboxPayments } from '../sandbox/sandbox-payments';

/**
 * The payments adapter configuration asks for: Stripe with STRIPE_SECRET_KEY, else the sandbox.
 * The Stripe SDK (about 20 MB resident) is imported only here, so a sandboxed shop never loads it.
 */
export async function buildPayments(deps: { config: Config; db: Db; logger: Logger; clock: () => Date }): Promise<PaymentsPort> {
  const { config } = deps;
  if (config.payments.kind === 'stripe') {
    const { createStripePayments } = await import('./stripe-payments');
    const { secretKey, webhookSecret, priceIds, regularPriceIds } = config.payments;
    const regular = { priceIds: regularPriceIds, saleRunning: () => isSaleRunning(config.site, deps.clock()) };
    return createStripePayments({ secretKey, webhookSecret, priceIds, regular }, deps.logger);
  }
  return createSandboxPayments({
    db: deps.db,
    clock: deps.clock,
    prices: () => currentPrices(config.site, isSaleRunning(config.site, deps.clock())),
    // The sandbox portal is a page of this shop: a relative link keeps whichever address the buyer used.
    portalReturnUrl: '/dashboard/settings?section=subscription',
  });
}
