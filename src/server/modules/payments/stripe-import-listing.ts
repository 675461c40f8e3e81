// What an existing Stripe business holds on the shop's prices, for `npm run import -- stripe`:
// subscriptions (every page, canceled ones left out by Stripe's default) and paid one-time
// checkouts of a plan that never expires (by line item price or planType metadata). The shop's
// prices are the configured STRIPE_PRICE_* ids and the catalogue's published Prices (their
// metadata names the plan, decision record 058), so a member of a plan added in the console, or
// of a price set since, is found too. Reads only; each page is retried like every read of the adapter.
import type Stripe from 'stripe';
import { isCatalogueLookupKey } from '@shared/catalogue-publishing';
import { isPlanType, isRecurring, type PlanType } from '@shared/plans';
import type { CheckoutSessionSnapshot, ImportablePurchase, SubscriptionSnapshot } from './payments.port';

const PAGE = 100;

export type ImportListingDeps = {
  stripe: Stripe;
  /** The plan of one of the shop's prices (a configured id's, a published Price's); null: not the shop's. */
  planOfPrice: (price: Stripe.Price) => PlanType | null;
  read: { maxNetworkRetries: number };
  call: <T>(what: string, run: () => Promise<T>) => Promise<T | null>;
  subscriptionSnapshot: (sub: Stripe.Subscription) => SubscriptionSnapshot;
  sessionSnapshot: (session: Stripe.Checkout.Session) => CheckoutSessionSnapshot;
};

const emailOfCustomer = (customer: Stripe.Subscription['customer']) => (typeof customer === 'object' && !('deleted' in customer && customer.deleted) ? (customer as Stripe.Customer).email : null);

/** The one-time plan a paid checkout bought: its price's plan, else its planType metadata. */
function oneTimePlanOf(session: Stripe.Checkout.Session, planOfPrice: ImportListingDeps['planOfPrice']): PlanType | null {
  if (session.mode !== 'payment' || session.payment_status !== 'paid') return null;
  const byPrice = (session.line_items?.data ?? []).map((line) => (line.price ? planOfPrice(line.price) : null)).find((plan) => plan !== null);
  const byMetadata = session.metadata?.planType;
  const plan = byPrice ?? (isPlanType(byMetadata) ? byMetadata : null);
  return plan && !isRecurring(plan) ? plan : null;
}

/** Whether a subscription's price is the shop's: a configured id, or a Price the catalogue published (its lookup key; its plan may be one this instance does not know). */
const onShopPrice = (sub: Stripe.Subscription, planOfPrice: ImportListingDeps['planOfPrice']) => {
  const price = sub.items.data[0]?.price;
  return price !== undefined && (planOfPrice(price) !== null || isCatalogueLookupKey(price.lookup_key));
};

export async function* stripeImportablePurchases(deps: ImportListingDeps): AsyncGenerator<ImportablePurchase[]> {
  const { stripe, planOfPrice, read, call } = deps;
  // every subscription once, not one listing per price: the published Prices are many, and not known in advance
  for (let after: string | undefined; ; ) {
    const page = await call('subscriptions.list', () => stripe.subscriptions.list({ limit: PAGE, expand: ['data.customer'], ...(after ? { starting_after: after } : {}) }, read));
    const subs = page?.data ?? [];
    yield subs.filter((sub) => onShopPrice(sub, planOfPrice)).map((sub) => ({ kind: 'subscription' as const, subscription: deps.subscriptionSnapshot(sub), email: emailOfCustomer(sub.customer) }));
    if (!page?.has_more || subs.length === 0) break;
    after = subs[subs.length - 1]!.id;
  }
  let after: string | undefined;
  for (;;) {
    const page = await call('checkout.sessions.list', () =>
      stripe.checkout.sessions.list({ status: 'complete', limit: PAGE, expand: ['data.line_items'], ...(after ? { starting_after: after } : {}) }, read),
    );
    const sessions = page?.data ?? [];
    yield sessions.flatMap((session) => {
      const planType = oneTimePlanOf(session, planOfPrice);
      return planType ? [{ kind: 'one_time' as const, session: { ...deps.sessionSnapshot(session), planType } }] : [];
    });
    if (!page?.has_more || sessions.length === 0) break;
    after = sessions[sessions.length - 1]!.id;
  }
}
