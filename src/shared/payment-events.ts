// What a payment provider's event can change, for the modules that follow the events after they
// are applied (free trials, affiliates' commissions). Pure: the event's type alone says it.

/**
 * An event about a subscription itself (customer.subscription.*): it tells of the subscription's
 * state and writes no order. Every change of a subscription's status comes as one of these, also
 * when an invoice made it (a renewal's or a trial's end's invoice.paid is followed by its
 * customer.subscription.updated, at Stripe as in the sandbox).
 */
export const isSubscriptionEvent = (type: string): boolean => type.startsWith('customer.subscription.');
