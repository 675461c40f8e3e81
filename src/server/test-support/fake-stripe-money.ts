// The money side of the Stripe look-alike: refunds, disputes and expiring checkout
// sessions. Kept beside fake-stripe-server.ts, which calls into it (never the other way round), so
// the two can grow separately.

type Json = Record<string, unknown>;
type Store = Map<string, Json>;

/** The fake's stores that the money routes read and write (a part of FakeStripe). */
export type MoneyState = { sessions: Store; subscriptions: Store; invoices: Store; charges: Store; paymentIntents: Store; disputes: Store; refunds: Store };

type Result = { status: number; body: unknown };
type Next = (prefix: string) => string;

function notFound(what: string, id: string): Result {
  return { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}: '${id}'` } } };
}

/** The charge behind a payment intent. */
function chargeOfIntent(state: MoneyState, intentId: string): Json | undefined {
  const intent = state.paymentIntents.get(intentId);
  return intent ? state.charges.get(intent.latest_charge as string) : undefined;
}

/** Opens or closes a dispute of a charge as the card holder's bank would; returns the dispute. */
export function disputeCharge(state: MoneyState, next: Next, chargeId: string, status: string): Json {
  const charge = state.charges.get(chargeId);
  if (!charge) throw new Error(`no charge ${chargeId}`);
  charge.disputed = true; // stays true whatever the outcome, as at Stripe
  const existing = [...state.disputes.values()].find((dispute) => dispute.charge === chargeId);
  const dispute = existing ?? { id: next('dp'), object: 'dispute', charge: chargeId, payment_intent: charge.payment_intent, amount: charge.amount };
  dispute.status = status;
  state.disputes.set(dispute.id as string, dispute);
  return dispute;
}

/** Answers the money endpoints, or null for any other request. */
export function moneyRoute(state: MoneyState, next: Next, method: string, path: string, form: URLSearchParams, query: URLSearchParams, idempotencyKey?: string): Result | null {
  let match: RegExpMatchArray | null;
  if (method === 'POST' && (match = path.match(/^\/v1\/checkout\/sessions\/([^/]+)\/expire$/))) {
    const session = state.sessions.get(match[1]!);
    if (!session) return notFound('checkout.session', match[1]!);
    if (session.status !== 'open') {
      return { status: 400, body: { error: { type: 'invalid_request_error', message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${String(session.status)}".` } } };
    }
    session.status = 'expired';
    const { __price: _price, __subscriptionMetadata: _metadata, ...visible } = session;
    return { status: 200, body: visible };
  }
  if (method === 'POST' && path === '/v1/refunds') {
    // A retry with the same key answers the first refund, as Stripe does.
    const replay = idempotencyKey ? [...state.refunds.values()].find((refund) => refund.__key === idempotencyKey) : undefined;
    if (replay) return { status: 200, body: replay };
    const intentId = form.get('payment_intent') ?? '';
    const charge = chargeOfIntent(state, intentId);
    if (!charge) return notFound('payment_intent', intentId);
    const left = (charge.amount as number) - (charge.amount_refunded as number);
    const amount = form.has('amount') ? Number(form.get('amount')) : left;
    if (amount > left || amount <= 0) return { status: 400, body: { error: { type: 'invalid_request_error', code: 'charge_already_refunded', message: 'Charge has already been refunded.' } } };
    charge.amount_refunded = (charge.amount_refunded as number) + amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    const refund = { id: next('re'), object: 'refund', amount, charge: charge.id, payment_intent: intentId, reason: form.get('reason'), status: 'succeeded', __key: idempotencyKey };
    state.refunds.set(refund.id, refund);
    return { status: 200, body: refund };
  }
  if (method === 'GET' && path === '/v1/disputes') {
    const charge = query.get('charge');
    const data = [...state.disputes.values()].filter((dispute) => !charge || dispute.charge === charge);
    return { status: 200, body: { object: 'list', url: '/v1/disputes', data, has_more: false } };
  }
  return null;
}
