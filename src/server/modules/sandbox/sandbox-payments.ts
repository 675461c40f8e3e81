// The sandbox payment provider: a product feature for demos and development, not a test double.
// It keeps what Stripe would keep (customers, checkout sessions, subscriptions, invoices) in the
// sandbox_* tables, accepts Stripe's test cards on its own hosted checkout page, renews on
// schedule, and emits events (sandbox_events) that the same handler as Stripe's webhooks applies.
import type { SandboxPaymentsPort } from '../payments/payments.port';
import { createSandboxCheckout } from './sandbox-checkout';
import { createSandboxImportListing } from './sandbox-import-listing';
import { createSandboxInvoices } from './sandbox-invoices';
import { createSandboxPromotions } from './sandbox-promotions';
import { readEventObjects } from './sandbox-event-objects';
import { claimPendingEvents, markDelivered, releaseEvent, type SandboxDeps } from './sandbox-store';
import { createSandboxSubscriptions } from './sandbox-subscriptions';
import { createSandboxInvoiceList } from './sandbox-tax';
import { createSandboxTrials } from './sandbox-trials';

/** The sandbox adapter of the payments port: checkout, subscriptions and invoices, over one set of tables. */
export function createSandboxPayments(deps: SandboxDeps): SandboxPaymentsPort {
  const { db } = deps;
  const { getCheckout, pay, expireStaleCheckouts, ...checkout } = createSandboxCheckout(deps);
  const { getPortal, setCancelAtPeriodEnd, advanceToPeriodEnd, runClock, ...subscriptions } = createSandboxSubscriptions(deps);
  const { disputeCharge, ...invoices } = createSandboxInvoices(deps);
  const { remindTrials, ...trials } = createSandboxTrials(deps, subscriptions.retrieveSubscription);
  const { applyPromotionCode, ...promotions } = createSandboxPromotions(deps);
  return {
    kind: 'sandbox',
    livemode: false,
    sandbox: {
      getCheckout,
      pay,
      applyPromotionCode,
      getPortal,
      setCancelAtPeriodEnd,
      advanceToPeriodEnd,
      // trial reminders first: a clock that jumps past a trial's end still reminds before it charges
      runClock: async (now = deps.clock()) => (await remindTrials(now)) + (await runClock(now)) + (await expireStaleCheckouts(now)),
      disputeCharge,
      claimPendingEvents: (limit) => claimPendingEvents(db, limit),
      readEventObjects: (events) => readEventObjects(db, deps.clock, events),
      markDelivered: (...eventIds) => markDelivered(db, eventIds),
      releaseEvent: (eventId) => releaseEvent(db, eventId),
    },
    ...checkout,
    ...subscriptions,
    ...invoices,
    ...createSandboxInvoiceList(deps),
    ...trials,
    promotions,
    ...createSandboxImportListing(deps, { retrieveSubscription: subscriptions.retrieveSubscription, retrieveCheckoutSession: checkout.retrieveCheckoutSession }),
  };
}
