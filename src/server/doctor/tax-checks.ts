// Stripe Tax, as `npm run doctor` checks it when STRIPE_TAX is on: Stripe Tax is active (its
// head office address is set), it collects tax somewhere (an active registration), and the prices
// hold the tax or not as PRICES_INCLUDE_TAX says.
import type Stripe from 'stripe';
import { PLAN_TYPES, type PlanType } from '@shared/plans';
import type { TaxBehavior } from '@shared/vat';
import { planEnvKey } from '@shared/plan-env';
import { createStripeClient, isLiveKey, type StripeConnection } from '../modules/payments/stripe-payments';
import { ok, problem, type Check } from '../doctor-report';

export type TaxCheckSettings = { secretKey: string; priceIds: Record<PlanType, string>; behavior: TaxBehavior };

const describeError = (error: unknown) => (error instanceof Error ? error.message : String(error));
const dashboard = (live: boolean, page: string) => `https://dashboard.stripe.com/${live ? '' : 'test/'}${page}`;

async function checkSettings(stripe: Stripe, live: boolean): Promise<{ check: Check; settings: Stripe.Tax.Settings | null }> {
  try {
    const settings = await stripe.tax.settings.retrieve();
    if (settings.status === 'active') return { check: ok('Tax', 'Stripe Tax is active'), settings };
    const missing = settings.status_details.pending?.missing_fields?.join(', ') || 'its settings';
    return {
      check: problem('Tax', `STRIPE_TAX is on but Stripe Tax is not active (missing: ${missing}): checkouts with automatic tax are refused`, `fill in the head office address and the defaults at ${dashboard(live, 'settings/tax')}`),
      settings,
    };
  } catch (error) {
    return { check: problem('Tax', `the Stripe Tax settings could not be read: ${describeError(error)}`, 'give the key read access to Tax (or use the secret key) and try again'), settings: null };
  }
}

async function checkRegistrations(stripe: Stripe, live: boolean): Promise<Check> {
  try {
    const registrations = await stripe.tax.registrations.list({ status: 'active', limit: 100 });
    const countries = registrations.data.map((registration) => registration.country);
    if (countries.length > 0) return ok('Tax', `Stripe Tax collects tax in ${countries.join(', ')} (active registrations)`);
    return problem(
      'Tax',
      'Stripe Tax has no active registration: it collects no tax anywhere, every checkout shows $0 tax',
      `add a registration for each country or state where you must collect tax at ${dashboard(live, 'tax/registrations')}`,
    );
  } catch (error) {
    return problem('Tax', `the Stripe Tax registrations could not be read: ${describeError(error)}`, 'give the key read access to Tax (or use the secret key) and try again');
  }
}

const asBehavior = (value: string | null | undefined): TaxBehavior | null => (value === 'exclusive' ? 'exclusive' : value === 'inclusive' ? 'inclusive' : null);

/** How a price is taxed: its own tax_behavior, else the account's default (inferred: USD exclusive, others inclusive). */
function effectiveBehavior(price: Stripe.Price, settings: Stripe.Tax.Settings | null): TaxBehavior | null {
  const fallback = settings?.defaults.tax_behavior ?? null;
  const inferred = fallback === 'inferred_by_currency' ? (price.currency === 'usd' ? 'exclusive' : 'inclusive') : fallback;
  return asBehavior(price.tax_behavior) ?? asBehavior(inferred);
}

async function checkPriceBehavior(stripe: Stripe, settings: TaxCheckSettings, taxSettings: Stripe.Tax.Settings | null, live: boolean): Promise<Check> {
  const wrong: string[] = [];
  for (const plan of PLAN_TYPES) {
    const id = settings.priceIds[plan] ?? '';
    try {
      const behavior = effectiveBehavior(await stripe.prices.retrieve(id), taxSettings);
      if (behavior !== settings.behavior) wrong.push(`${planEnvKey('STRIPE_PRICE', plan)} ${id} is ${behavior ?? 'unspecified'}`);
    } catch {
      // an unreadable price is already a Stripe problem of its own line
    }
  }
  const wanted = settings.behavior === 'inclusive' ? 'tax-inclusive (PRICES_INCLUDE_TAX=true)' : 'tax-exclusive (PRICES_INCLUDE_TAX unset)';
  if (wrong.length === 0) return ok('Tax', `every price is ${wanted}`);
  return problem(
    'Tax',
    `the prices should be ${wanted}: ${wrong.join('; ')}`,
    `set each price's tax behavior in the Product catalogue (or the default at ${dashboard(live, 'settings/tax')}), or change PRICES_INCLUDE_TAX to match`,
  );
}

/** Every Stripe Tax check, in the order the report shows them. */
export async function checkStripeTax(settings: TaxCheckSettings, options: { connection?: StripeConnection; timeoutMs?: number } = {}): Promise<Check[]> {
  const stripe = createStripeClient({ secretKey: settings.secretKey, ...options });
  const live = isLiveKey(settings.secretKey);
  const { check, settings: taxSettings } = await checkSettings(stripe, live);
  return [check, await checkRegistrations(stripe, live), await checkPriceBehavior(stripe, settings, taxSettings, live)];
}
