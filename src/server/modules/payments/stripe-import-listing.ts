// What an existing Stripe business holds on the shop's prices, for `npm run import -- stripe`:
// subscriptions (one price at a time, every page, canceled ones left out by Stripe's default) and
// paid one-time checkouts of a plan that never expires (by line item price or planType metadata).
// Reads only; each page is retried like every read of the adapter.
import type Stripe from 'stripe';
import { isPlanType, isRecurring, type PlanType } from '@shared/plans';
import type { CheckoutSessionSnapshot, ImportablePurchase, SubscriptionSnapshot } from './payments.port';

const PAGE = 100;

export type ImportListingDeps = {
  stripe: Stripe;
  planByPrice: ReadonlyMap<string, PlanType>;
  read: { maxNetworkRetries: number };
  call: <T>(what: string, run: () => Promise<T>) => Promise<T | null>;
  subscriptionSnapshot: (sub: Stripe.Subscription) => SubscriptionSnapshot;
  sessionSnapshot: (session: Stripe.Checkout.Session) => CheckoutSessionSnapshot;
};

const emailOfCustomer = (customer: Stripe.Subscription['customer']) => (typeof customer === 'object' && !('deleted' in customer && customer.deleted) ? (customer as Stripe.Customer).email : null);

/** The one-time plan a paid checkout bought: its price's plan, else its planType metadata. */
function oneTimePlanOf(session: Stripe.Checkout.Session, planByPrice: ReadonlyMap<string, PlanType>): PlanType | null {
  if (session.mode !== 'payment' || session.payment_status !== 'paid') return null;
  const byPrice = (session.line_items?.data ?? []).map((line) => (line.price ? planByPrice.get(line.price.id) : undefined)).find((plan) => plan !== undefined);
  const byMetadata = session.metadata?.planType;
  const plan = byPrice ?? (isPlanType(byMetadata) ? byMetadata : null);
  return plan && !isRecurring(plan) ? plan : null;
}

export async function* stripeImportablePurchases(deps: ImportListingDeps): AsyncGenerator<ImportablePurchase[]> {
  const { stripe, planByPrice, read, call } = deps;
  for (const [priceId] of [...planByPrice].filter(([, plan]) => isRecurring(plan))) {
    let after: string | undefined;
    for (;;) {
      const page = await call('subscriptions.list', () =>
        stripe.subscriptions.list({ price: priceId, limit: PAGE, expand: ['data.customer'], ...(after ? { starting_after: after } : {}) }, read),
      );
      const subs = page?.data ?? [];
      yield subs.map((sub) => ({ kind: 'subscription' as const, subscription: deps.subscriptionSnapshot(sub), email: emailOfCustomer(sub.customer) }));
      if (!page?.has_more || subs.length === 0) break;
      after = subs[subs.length - 1]!.id;
    }
  }
  let after: string | undefined;
  for (;;) {
    const page = await call('checkout.sessions.list', () =>
      stripe.checkout.sessions.list({ status: 'complete', limit: PAGE, expand: ['data.line_items'], ...(after ? { starting_after: after } : {}) }, read),
    );
    const sessions = page?.data ?? [];
    yield sessions.flatMap((session) => {
      const planType = oneTimePlanOf(session, planByPrice);
      return planType ? [{ kind: 'one_time' as const, session: { ...deps.sessionSnapshot(session), planType } }] : [];
    });
    if (!page?.has_more || sessions.length === 0) break;
    after = sessions[sessions.length - 1]!.id;
  }
}
