// Publishing the catalogue at Stripe (decision record 058): a Product per plan and a Price per
// plan, list, amount, currency, period and tax behaviour, each found again by its lookup key
// (catalogue-publishing.ts). A Price is never edited: a changed amount is a new Price for new
// buyers, every subscription keeps the one it was bought at. A live shop's STRIPE_PRICE_* price is
// taken over (given the lookup key) when it is what the catalogue sells, so nothing changes for it.
import type Stripe from 'stripe';
import { chargedPrice, planChangePrice, sameBilling, wantedPrices, type BoughtOn, type PublishedPrice, type TaxBehavior, type WantedPrice } from '@shared/catalogue-publishing';
import { findPlan, homeEntry, periodOfStripe, stripeRecurring, type Catalogue } from '@shared/catalogue';
import { serverError } from '../../http/server-errors';

export type PublishSettings = {
  taxBehavior: TaxBehavior;
  /** STRIPE_PRICE_<PLAN> of the configuration: the price a live shop sold each seed plan at. */
  configured: Readonly<Record<string, string | undefined>>;
};

const RETRIES = { maxNetworkRetries: 2 };

/** The Product of a plan: its own id, so it is found again without a search. */
export const productIdOf = (plan: string) => `cw_${plan}`;

/** Whether a Stripe Price charges what `price` is (a year and twelve months are one period). */
export function chargesAs(stripePrice: Stripe.Price, price: Omit<WantedPrice, 'lookupKey'>): boolean {
  const samePeriods = price.period === null ? stripePrice.type === 'one_time' : sameBilling(periodOfStripe(stripePrice.recurring), price.period);
  return stripePrice.active && stripePrice.unit_amount === price.amount && stripePrice.currency === price.currency && samePeriods;
}

async function ensureProduct(stripe: Stripe, catalogue: Catalogue, plan: string): Promise<string> {
  const id = productIdOf(plan);
  const name = findPlan(catalogue, plan)?.name ?? plan;
  try {
    const product = await stripe.products.retrieve(id, {}, RETRIES);
    // the Product's name is what Checkout and the portal show: it follows the plan's (a Price never changes)
    if (product.name !== name) await stripe.products.update(id, { name }, RETRIES);
  } catch (error) {
    if ((error as { code?: string }).code !== 'resource_missing') throw error;
    await stripe.products.create({ id, name, metadata: { plan } }, { ...RETRIES, idempotencyKey: `product-${id}` });
  }
  return id;
}

/** The configured STRIPE_PRICE_* of the plan, when `price` is on the plan's first list and Stripe charges exactly that. */
async function adoptable(stripe: Stripe, catalogue: Catalogue, price: WantedPrice, settings: PublishSettings): Promise<string | null> {
  const id = settings.configured[price.plan];
  if (!id || homeEntry(catalogue, price.plan)?.list.slug !== price.list) return null;
  const existing = await stripe.prices.retrieve(id, {}, RETRIES).catch(() => null);
  const taxOk = existing !== null && (existing.tax_behavior === price.taxBehavior || existing.tax_behavior === 'unspecified' || existing.tax_behavior === null);
  return existing && taxOk && chargesAs(existing, price) && !existing.lookup_key ? existing.id : null;
}

/** The Stripe Price of `price`: found by its lookup key, else the configured one taken over, else created. */
export async function ensurePrice(stripe: Stripe, catalogue: Catalogue, price: WantedPrice, settings: PublishSettings): Promise<PublishedPrice> {
  const found = await stripe.prices.list({ lookup_keys: [price.lookupKey], active: true, limit: 1 }, RETRIES);
  if (found.data[0]) return { price, id: found.data[0].id, how: 'kept' };
  const metadata = { plan: price.plan, list: price.list };
  const adopted = await adoptable(stripe, catalogue, price, settings);
  if (adopted) {
    // naming it is no edit of what it charges: the lookup key and metadata only
    await stripe.prices.update(adopted, { lookup_key: price.lookupKey, metadata }, RETRIES);
    return { price, id: adopted, how: 'adopted' };
  }
  const product = await ensureProduct(stripe, catalogue, price.plan);
  const created = await stripe.prices.create(
    {
      product,
      unit_amount: price.amount,
      currency: price.currency,
      tax_behavior: price.taxBehavior,
      lookup_key: price.lookupKey,
      metadata,
      ...(price.period === null ? {} : { recurring: stripeRecurring(price.period) }),
    },
    { ...RETRIES, idempotencyKey: `price-${price.lookupKey}` },
  );
  return { price, id: created.id, how: 'created' };
}

/** Publishes every Price the catalogue sells (`npm run admin -- plans publish`, the console's "Publish to Stripe"). */
export async function publishCatalogue(stripe: Stripe, catalogue: Catalogue, settings: PublishSettings): Promise<PublishedPrice[]> {
  const published: PublishedPrice[] = [];
  // one at a time: Stripe's rate limit, and a failure leaves the rest to the next run (each step is found again)
  for (const price of wantedPrices(catalogue, settings.taxBehavior)) published.push(await ensurePrice(stripe, catalogue, price, settings));
  return published;
}

/**
 * The catalogue's Stripe Prices as payments use them (decision record 058), each published on
 * first use with its id kept in memory (a lookup key never changes what it charges): a checkout's
 * (its plan on its page's list), a plan change's (the plan on the list the member bought on, in
 * their currency) — both the running sale's price while one runs, and null while the catalogue is
 * the seed's, so a shop that never edited it charges its STRIPE_PRICE_* as before — the Price a
 * member is moved to, and all of them at once (publishing).
 */
export function createCataloguePrices(deps: { catalogue: () => Catalogue; edited: () => boolean; clock: () => Date; settings: PublishSettings }) {
  const ids = new Map<string, string>();
  async function published(stripe: Stripe, price: WantedPrice): Promise<string> {
    const known = ids.get(price.lookupKey);
    if (known) return known;
    const { id } = await ensurePrice(stripe, deps.catalogue(), price, deps.settings);
    ids.set(price.lookupKey, id);
    return id;
  }
  return {
    published,
    /** Every Price the catalogue sells (publishCatalogue), their ids kept for the checkouts to come. */
    publishAll: async (stripe: Stripe, catalogue: Catalogue): Promise<PublishedPrice[]> => {
      const all = await publishCatalogue(stripe, catalogue, deps.settings);
      for (const { price, id } of all) ids.set(price.lookupKey, id);
      return all;
    },
    checkout: async (stripe: Stripe, plan: string, originPage: string | undefined): Promise<string | null> => {
      if (!deps.edited()) return null;
      const price = chargedPrice(deps.catalogue(), plan, originPage, deps.clock(), deps.settings.taxBehavior);
      return price ? published(stripe, price) : null;
    },
    /** The plan's Product (`cw_<slug>`), made when missing: what a plan-limited promotion code names at Stripe. */
    product: (stripe: Stripe, plan: string): Promise<string> => ensureProduct(stripe, deps.catalogue(), plan),
    /** Refused (400) when no list sells `plan` in the member's currency. */
    planChange: async (stripe: Stripe, plan: string, bought: BoughtOn): Promise<string | null> => {
      if (!deps.edited()) return null;
      const price = planChangePrice(deps.catalogue(), plan, bought, deps.clock(), deps.settings.taxBehavior);
      if (!price) throw serverError('planNotSoldInCurrency', { plan, currency: bought.currency });
      return published(stripe, price);
    },
  };
}
