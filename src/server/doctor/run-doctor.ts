// `npm run doctor` and the production start-up check: every outside service the configuration
// names is asked whether it works as configured. Sandboxed services are reported as such.
import type { Config } from '../config';
import type { StripeConnection } from '../modules/payments/stripe-payments';
import { sandbox, type Check } from './doctor-report';
import { checkDiscord } from './discord-checks';
import { checkMail } from './mail-checks';
import { checkTradingView } from './tradingview-checks';

export type DoctorOptions = {
  /** Tests point Stripe at a local server. */
  stripeConnection?: StripeConnection;
  /** Tests point Discord at a local server (startFakeDiscord's baseUrl). */
  discordApiBaseUrl?: string;
  timeoutMs?: number;
};

export async function runDoctor(config: Config, options: DoctorOptions = {}): Promise<Check[]> {
  const timeouts = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
  const payments = config.payments;
  // The Stripe checks (and with them the SDK, the largest module the server could load) are
  // imported only when Stripe is configured: the production start-up check runs in the server.
  const [stripe, tradingView, discord, mail] = await Promise.all([
    payments.kind === 'stripe'
      ? (await import('./stripe-checks')).checkStripe(
          { secretKey: payments.secretKey, webhookSecret: payments.webhookSecret, priceIds: payments.priceIds, listPrices: config.site.prices },
          { ...timeouts, ...(options.stripeConnection ? { connection: options.stripeConnection } : {}) },
        )
      : Promise.resolve([sandbox('Stripe', 'no STRIPE_SECRET_KEY: payments run in the sandbox')]),
    checkTradingView({ baseUrl: config.tradingView.baseUrl, credentials: config.tradingView.credentials, scriptIds: config.tradingView.scriptIds }, timeouts),
    checkDiscord(
      { ...config.discord, publicUrl: config.publicUrl, isProduction: config.isProduction },
      { ...timeouts, ...(options.discordApiBaseUrl ? { apiBaseUrl: options.discordApiBaseUrl } : {}) },
    ),
    checkMail(config.mail, timeouts),
  ]);
  return [...stripe, ...tradingView, ...discord, ...mail];
}
