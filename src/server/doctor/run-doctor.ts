// `npm run doctor` and the production start-up check: every outside service the configuration
// names is asked whether it works as configured. Sandboxed services are reported as such.
import type { Catalogue } from '@shared/catalogue';
import type { Config } from '../config';
import type { StripeConnection } from '../modules/payments/stripe-payments';
import { sandbox, type Check } from '../doctor-report';
import { INTEGRATIONS } from '../integrations';

export type DoctorOptions = {
  /** Tests point Stripe at a local server. */
  stripeConnection?: StripeConnection;
  /** Tests point an integration's client at a local server (its fake's address), by the integration's name. */
  apiBaseUrls?: Readonly<Record<string, string>>;
  timeoutMs?: number;
  /** The catalogue once the operator edited it (its Stripe Prices are checked); absent: the seed's. */
  catalogue?: Catalogue | null;
};

/** STRIPE_TAX: Stripe Tax's settings, registrations and price behaviour; nothing when tax is off. */
async function taxChecks(config: Config, options: DoctorOptions): Promise<Check[]> {
  if (!config.tax.enabled) return [];
  const payments = config.payments;
  if (payments.kind === 'sandbox') return [sandbox('Tax', `STRIPE_TAX: the sandbox charges the standard VAT of EU billing countries (src/shared/vat.ts), prices ${config.tax.behavior === 'inclusive' ? 'including' : 'excluding'} it`)];
  const { checkStripeTax } = await import('./tax-checks');
  return checkStripeTax(
    { secretKey: payments.secretKey, priceIds: payments.priceIds, behavior: config.tax.behavior },
    { ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }), ...(options.stripeConnection ? { connection: options.stripeConnection } : {}) },
  );
}

/** Each integration of integrations.ts checks itself; its lines carry its title. */
async function integrationChecks(config: Config, options: DoctorOptions): Promise<Check[]> {
  const timeouts = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
  const checks = await Promise.all(
    INTEGRATIONS.map(async (integration) => {
      const apiBaseUrl = options.apiBaseUrls?.[integration.name];
      const lines = await integration.doctor(config, { ...timeouts, ...(apiBaseUrl ? { apiBaseUrl } : {}) });
      return lines.map((check): Check => ({ ...check, service: integration.title }));
    }),
  );
  return checks.flat();
}

export async function runDoctor(config: Config, options: DoctorOptions = {}): Promise<Check[]> {
  const timeouts = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
  const payments = config.payments;
  // The Stripe checks (and with them the SDK, the largest module the server could load) are
  // imported only when Stripe is configured: the production start-up check runs in the server.
  const [stripe, integrations] = await Promise.all([
    payments.kind === 'stripe'
      ? (await import('./stripe-checks')).checkStripe(
          {
            secretKey: payments.secretKey,
            webhookSecret: payments.webhookSecret,
            priceIds: payments.priceIds,
            listPrices: config.site.prices,
            catalogue: options.catalogue ? { catalogue: options.catalogue, taxBehavior: config.tax.behavior, taxEnabled: config.tax.enabled } : null,
          },
          { ...timeouts, ...(options.stripeConnection ? { connection: options.stripeConnection } : {}) },
        )
      : Promise.resolve([sandbox('Stripe', 'no STRIPE_SECRET_KEY: payments run in the sandbox')]),
    integrationChecks(config, options),
  ]);
  // the integrations' lines, in the registry's order (TradingView first, Mail last), after the payments'
  return [...stripe, ...(await taxChecks(config, options)), ...integrations];
}
