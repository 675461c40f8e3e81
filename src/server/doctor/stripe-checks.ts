// Stripe, as `npm run doctor` checks it: the key, each configured price (each of the edited catalogue's Prices), the webhook secret and
// the customer portal. One small function per check; each turns Stripe's answer into a line.
import Stripe from 'stripe';
import { billingPeriodWords, findPlan, pageOfList, periodOfStripe, periodText, samePeriod, wholeMonths, type Catalogue } from '@shared/catalogue';
import { sameBilling, wantedPrices, type TaxBehavior, type WantedPrice } from '@shared/catalogue-publishing';
import { PLAN_CURRENCY, planDisplayName, planPeriod, formatMoney, PLAN_TYPES, type PlanType } from '@shared/plans';
import { planEnvKey } from '@shared/plan-env';
import { createStripeClient, isLiveKey, portalSettingsUrl, type StripeConnection } from '../modules/payments/stripe-payments';
import { ok, problem, type Check } from '../doctor-report';

export type StripeCheckSettings = {
  secretKey: string;
  webhookSecret: string;
  priceIds: Record<PlanType, string>;
  /** What the pricing cards show, in minor units (PRICE_*). */
  listPrices: Record<PlanType, number>;
  /**
   * The catalogue once the operator edited it (decision record 058): its Prices are checked by
   * lookup key instead of STRIPE_PRICE_*; null or absent: the seed's, the configured ids are.
   */
  catalogue?: { catalogue: Catalogue; taxBehavior: TaxBehavior; taxEnabled: boolean } | null;
};

const describeError = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function checkKey(stripe: Stripe, mode: string): Promise<Check> {
  try {
    const account = await stripe.accounts.retrieveCurrent();
    const name = account.settings?.dashboard?.display_name ?? account.business_profile?.name ?? account.email ?? account.id;
    return ok('Stripe', `STRIPE_SECRET_KEY works: ${mode} mode, account "${name}"`);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeAuthenticationError || (error instanceof Stripe.errors.StripeError && error.statusCode === 401)) {
      return problem('Stripe', `STRIPE_SECRET_KEY is refused by Stripe (${describeError(error)})`, 'copy the secret key from Developers → API keys in the Stripe dashboard');
    }
    return problem('Stripe', `Stripe cannot be reached: ${describeError(error)}`, 'check the network and try again');
  }
}

/** What a plan's Stripe price must be: recurring every 1, 3 or 12 months, or one-time for lifetime. */
function priceProblems(plan: PlanType, price: Stripe.Price, listPrice: number): string[] {
  const problems: string[] = [];
  if (!price.active) problems.push('is archived (inactive)');
  const period = planPeriod(plan);
  if (period === null) {
    if (price.type !== 'one_time') problems.push(`must be a one-time price (${planDisplayName(plan)} is paid once)`);
  } else {
    const recurring = price.recurring;
    const charged = periodOfStripe(recurring);
    // a year and twelve months are the same period
    const same = charged !== null && (wholeMonths(period) !== null ? wholeMonths(charged) === wholeMonths(period) : samePeriod(charged, period));
    const months = wholeMonths(period);
    const planEvery = months !== null ? `${months} month${months === 1 ? '' : 's'}` : periodText(period);
    if (!recurring) problems.push(`must be recurring every ${planEvery}`);
    else if (!same) problems.push(`bills every ${recurring.interval_count} ${recurring.interval}(s), the plan is every ${planEvery}`);
  }
  if (price.currency !== PLAN_CURRENCY) problems.push(`is in ${price.currency.toUpperCase()}, the cards show ${PLAN_CURRENCY.toUpperCase()}`);
  else if (price.unit_amount !== listPrice) problems.push(`charges ${formatMoney(price.unit_amount ?? 0, price.currency)}, the card shows ${formatMoney(listPrice, PLAN_CURRENCY)}`);
  return problems;
}

async function checkPrice(stripe: Stripe, mode: string, plan: PlanType, settings: StripeCheckSettings): Promise<Check> {
  const name = planEnvKey('STRIPE_PRICE', plan);
  const id = settings.priceIds[plan] ?? '';
  let price: Stripe.Price;
  try {
    price = await stripe.prices.retrieve(id);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') {
      return problem('Stripe', `${name} ${id} does not exist in ${mode} mode`, `create the price in ${mode} mode (Product catalogue) and copy its id (price_…); ids of the other mode do not work`);
    }
    return problem('Stripe', `${name} ${id} could not be read: ${describeError(error)}`, 'check the key and the network and try again');
  }
  const problems = priceProblems(plan, price, settings.listPrices[plan] ?? 0);
  if (problems.length) return problem('Stripe', `${name} ${id} ${problems.join('; ')}`, `use a price that matches the ${plan} card, or change ${planEnvKey('PRICE', plan)} to what Stripe charges`);
  const every = price.recurring ? ` every ${price.recurring.interval_count} ${price.recurring.interval}${price.recurring.interval_count === 1 ? '' : 's'}` : ' once';
  return ok('Stripe', `${name} ${id}: ${formatMoney(price.unit_amount ?? 0, price.currency)}${every}`);
}

/** What is wrong with the published Price of `wanted`, in words; empty when it charges what the cards show. */
export function publishedPriceProblems(price: Stripe.Price, wanted: WantedPrice, taxEnabled: boolean): string[] {
  const problems: string[] = [];
  if (!price.active) problems.push('is archived (inactive)');
  if (price.currency !== wanted.currency) problems.push(`is in ${price.currency.toUpperCase()}, the list charges ${wanted.currency.toUpperCase()}`);
  else if (price.unit_amount !== wanted.amount) problems.push(`charges ${formatMoney(price.unit_amount ?? 0, price.currency)}, the card shows ${formatMoney(wanted.amount, wanted.currency)}`);
  if (wanted.period === null ? price.type !== 'one_time' : !sameBilling(periodOfStripe(price.recurring), wanted.period)) {
    problems.push(`bills ${price.recurring ? `every ${price.recurring.interval_count} ${price.recurring.interval}(s)` : 'once'}, the plan bills ${billingPeriodWords(wanted.period)}`);
  }
  const behaviour = price.tax_behavior ?? 'unspecified';
  if (behaviour !== wanted.taxBehavior && (taxEnabled || behaviour !== 'unspecified')) problems.push(`is tax-${behaviour}, PRICES_INCLUDE_TAX makes prices tax-${wanted.taxBehavior}`);
  return problems;
}

async function checkPublishedPrice(stripe: Stripe, mode: string, catalogue: Catalogue, wanted: WantedPrice, taxEnabled: boolean): Promise<Check> {
  const label = `${findPlan(catalogue, wanted.plan)?.name ?? wanted.plan} (${wanted.plan}) on ${pageOfList(wanted.list)} at ${formatMoney(wanted.amount, wanted.currency)} ${billingPeriodWords(wanted.period)}`;
  let found: Stripe.Price | undefined;
  try {
    found = (await stripe.prices.list({ lookup_keys: [wanted.lookupKey], limit: 1 })).data[0];
  } catch (error) {
    return problem('Stripe', `${label}: the price could not be read: ${describeError(error)}`, 'check the key and the network and try again');
  }
  if (!found) return problem('Stripe', `${label}: no Stripe price in ${mode} mode yet (lookup key ${wanted.lookupKey})`, 'run npm run admin -- plans publish');
  const problems = publishedPriceProblems(found, wanted, taxEnabled);
  if (problems.length) return problem('Stripe', `${label}: ${found.id} ${problems.join('; ')}`, 'archive that price in Stripe and run npm run admin -- plans publish: a new one is made (prices are never edited)');
  return ok('Stripe', `${label}: ${found.id}`);
}

function checkWebhookSecret(secret: string): Check {
  if (/^whsec_\S+$/.test(secret)) return ok('Stripe', 'STRIPE_WEBHOOK_SECRET is set');
  return problem('Stripe', 'STRIPE_WEBHOOK_SECRET is not a signing secret (whsec_…)', 'copy the signing secret of the webhook endpoint (Developers → Webhooks → your endpoint → Signing secret)');
}

async function checkPortal(stripe: Stripe, live: boolean): Promise<Check> {
  const mode = live ? 'live' : 'test';
  try {
    const configurations = await stripe.billingPortal.configurations.list({ is_default: true, limit: 1 });
    if (configurations.data.length) return ok('Stripe', `customer portal configured in ${mode} mode`);
    return problem(
      'Stripe',
      `the customer portal has no configuration in ${mode} mode: members who press "Manage Subscription" see "Setup Required"`,
      `save the portal settings once at ${portalSettingsUrl(live)}`,
    );
  } catch (error) {
    return problem('Stripe', `the customer portal settings could not be read: ${describeError(error)}`, 'give the key read access to Billing → Customer portal');
  }
}

/** Every Stripe check, in the order the report shows them. The key is checked first: without it nothing else can be. */
export async function checkStripe(settings: StripeCheckSettings, options: { connection?: StripeConnection; timeoutMs?: number } = {}): Promise<Check[]> {
  const stripe = createStripeClient({ secretKey: settings.secretKey, ...options });
  const live = isLiveKey(settings.secretKey);
  const mode = live ? 'live' : 'test';
  const key = await checkKey(stripe, mode);
  if (key.status === 'problem') return [key, checkWebhookSecret(settings.webhookSecret)];
  const edited = settings.catalogue;
  const prices = edited
    ? await Promise.all(wantedPrices(edited.catalogue, edited.taxBehavior).map((wanted) => checkPublishedPrice(stripe, mode, edited.catalogue, wanted, edited.taxEnabled)))
    : await Promise.all(PLAN_TYPES.map((plan) => checkPrice(stripe, mode, plan, settings)));
  return [key, ...prices, checkWebhookSecret(settings.webhookSecret), await checkPortal(stripe, live)];
}
