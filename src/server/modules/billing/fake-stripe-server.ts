// A small Stripe look-alike on 127.0.0.1 for the Stripe adapter's tests: it answers the endpoints
// the adapter calls with Stripe-shaped objects (API "endive": periods on subscription items,
// invoice.parent.subscription_details) and records every request it receives.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type RecordedRequest = { method: string; path: string; query: URLSearchParams; form: URLSearchParams; headers: IncomingMessage['headers'] };

type Json = Record<string, unknown>;

export const FAKE_PRICES: Record<string, { amount: number; months: number | null }> = {
  price_monthly: { amount: 3600, months: 1 },
  price_quarterly: { amount: 7200, months: 3 },
  price_yearly: { amount: 20400, months: 12 },
  price_lifetime: { amount: 54999, months: null },
  price_eu_monthly: { amount: 2999, months: 1 },
  price_eu_quarterly: { amount: 5999, months: 3 },
};

export const STRIPE_TEST_ENV = {
  STRIPE_SECRET_KEY: 'sk_test_fake',
  STRIPE_WEBHOOK_SECRET: 'whsec_fake_secret',
  STRIPE_PRICE_MONTHLY: 'price_monthly',
  STRIPE_PRICE_QUARTERLY: 'price_quarterly',
  STRIPE_PRICE_YEARLY: 'price_yearly',
  STRIPE_PRICE_LIFETIME: 'price_lifetime',
  STRIPE_PRICE_EU_MONTHLY: 'price_eu_monthly',
  STRIPE_PRICE_EU_QUARTERLY: 'price_eu_quarterly',
};

const DAY = 24 * 60 * 60;

export type FakeStripe = {
  port: number;
  requests: RecordedRequest[];
  sessions: Map<string, Json>;
  subscriptions: Map<string, Json>;
  invoices: Map<string, Json>;
  charges: Map<string, Json>;
  /** When set, the billing portal answers Stripe's "not configured" error. */
  portalConfigured: boolean;
  /** When set, subscription updates leave a pending_update (the card was declined). */
  declineUpdates: boolean;
  /** Pays a session as Checkout would, creating the customer, subscription or payment. */
  complete(sessionId: string, email: string): Json;
  close(): Promise<void>;
};

function price(id: string) {
  const known = FAKE_PRICES[id];
  if (!known) throw new Error(`unknown price ${id}`);
  return {
    id,
    object: 'price',
    unit_amount: known.amount,
    currency: 'usd',
    recurring: known.months ? { interval: 'month', interval_count: known.months } : null,
  };
}

/** Stripe's SDK sends expand[0]=…; curl users send expand[]=…: accept both. */
export function expandOf(query: URLSearchParams): string[] {
  return [...query].filter(([key]) => /^expand\[\d*\]$/.test(key)).map(([, value]) => value);
}

function stripeError(status: number, message: string, type = 'invalid_request_error', code?: string) {
  return { status, body: { error: { type, message, ...(code ? { code } : {}) } } };
}

export async function startFakeStripe(): Promise<FakeStripe> {
  let counter = 0;
  const next = (prefix: string) => `${prefix}_test_${++counter}`;
  const now = () => Math.floor(Date.now() / 1000);

  const state = {
    requests: [] as RecordedRequest[],
    sessions: new Map<string, Json>(),
    subscriptions: new Map<string, Json>(),
    invoices: new Map<string, Json>(),
    charges: new Map<string, Json>(),
    paymentIntents: new Map<string, Json>(),
    portalConfigured: true,
    declineUpdates: false,
  };

  function subscription(id: string, customer: string, priceId: string, start: number, metadata: Json): Json {
    const months = FAKE_PRICES[priceId]?.months ?? 1;
    return {
      id,
      object: 'subscription',
      customer,
      status: 'active',
      currency: 'usd',
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      created: start,
      metadata,
      pending_update: null,
      items: {
        object: 'list',
        data: [{ id: `si_${id}`, object: 'subscription_item', price: price(priceId), current_period_start: start, current_period_end: start + months * 30 * DAY, quantity: 1 }],
        has_more: false,
      },
    };
  }

  function complete(sessionId: string, email: string): Json {
    const session = state.sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    const customer = (session.customer as string | null) ?? next('cus');
    Object.assign(session, { status: 'complete', payment_status: 'paid', customer, customer_details: { email } });
    const priceId = session.__price as string;
    if (session.mode === 'subscription') {
      const id = next('sub');
      state.subscriptions.set(id, subscription(id, customer, priceId, now(), (session.__subscriptionMetadata as Json) ?? {}));
      const invoice = next('in');
      state.invoices.set(invoice, {
        id: invoice,
        object: 'invoice',
        customer,
        status: 'paid',
        billing_reason: 'subscription_create',
        amount_paid: session.amount_total,
        amount_due: session.amount_total,
        currency: 'usd',
        created: now(),
        parent: { type: 'subscription_details', subscription_details: { subscription: id, metadata: {} } },
      });
      Object.assign(session, { subscription: id, invoice });
    } else {
      const intent = next('pi');
      const charge = next('ch');
      state.charges.set(charge, { id: charge, object: 'charge', amount: session.amount_total, amount_refunded: 0, refunded: false, disputed: false, payment_intent: intent, currency: 'usd' });
      state.paymentIntents.set(intent, { id: intent, object: 'payment_intent', latest_charge: charge });
      session.payment_intent = intent;
    }
    return publicSession(session, []);
  }

  function publicSession(session: Json, expand: string[]): Json {
    const { __price: _price, __subscriptionMetadata: _metadata, ...visible } = session;
    if (expand.includes('payment_intent.latest_charge') && typeof visible.payment_intent === 'string') {
      const intent = state.paymentIntents.get(visible.payment_intent);
      if (intent) visible.payment_intent = { ...intent, latest_charge: state.charges.get(intent.latest_charge as string) ?? intent.latest_charge };
    }
    return visible;
  }

  function route(method: string, path: string, form: URLSearchParams, query: URLSearchParams): { status: number; body: unknown } {
    let match: RegExpMatchArray | null;
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const priceId = form.get('line_items[0][price]') ?? '';
      const id = next('cs');
      const metadata: Json = {};
      const subscriptionMetadata: Json = {};
      for (const [key, value] of form) {
        const meta = key.match(/^metadata\[(.+)\]$/);
        if (meta?.[1]) metadata[meta[1]] = value;
        const subMeta = key.match(/^subscription_data\[metadata\]\[(.+)\]$/);
        if (subMeta?.[1]) subscriptionMetadata[subMeta[1]] = value;
      }
      const session: Json = {
        id,
        object: 'checkout.session',
        url: `https://checkout.stripe.com/c/pay/${id}`,
        mode: form.get('mode'),
        status: 'open',
        payment_status: 'unpaid',
        amount_total: price(priceId).unit_amount,
        currency: 'usd',
        created: now(),
        customer: form.get('customer'),
        customer_email: form.get('customer_email'),
        customer_details: null,
        metadata,
        subscription: null,
        payment_intent: null,
        invoice: null,
        success_url: form.get('success_url'),
        cancel_url: form.get('cancel_url'),
        __price: priceId,
        __subscriptionMetadata: subscriptionMetadata,
      };
      state.sessions.set(id, session);
      return { status: 200, body: publicSession(session, []) };
    }
    if (method === 'GET' && (match = path.match(/^\/v1\/checkout\/sessions\/([^/]+)$/))) {
      const session = state.sessions.get(match[1]!);
      return session ? { status: 200, body: publicSession(session, expandOf(query)) } : stripeError(404, `No such checkout.session: '${match[1]}'`, 'invalid_request_error', 'resource_missing');
    }
    if ((match = path.match(/^\/v1\/subscriptions\/([^/]+)$/))) {
      const sub = state.subscriptions.get(match[1]!);
      if (!sub) return stripeError(404, `No such subscription: '${match[1]}'`, 'invalid_request_error', 'resource_missing');
      if (method === 'GET') return { status: 200, body: sub };
      if (method === 'DELETE') {
        Object.assign(sub, { status: 'canceled', canceled_at: now(), ended_at: now() });
        return { status: 200, body: sub };
      }
      if (method === 'POST') {
        const newPrice = form.get('items[0][price]');
        if (newPrice && state.declineUpdates) {
          sub.pending_update = { expires_at: now() + DAY, subscription_items: [{ price: price(newPrice) }] };
          return { status: 200, body: sub };
        }
        if (newPrice) {
          const items = sub.items as { data: Json[] };
          const item = items.data[0]!;
          const months = FAKE_PRICES[newPrice]?.months ?? 1;
          const old = FAKE_PRICES[(item.price as Json).id as string]?.months ?? 1;
          item.price = price(newPrice);
          if (months !== old) {
            const start = Number(form.get('proration_date') ?? now());
            Object.assign(item, { current_period_start: start, current_period_end: start + months * 30 * DAY });
          }
        }
        if (form.has('cancel_at_period_end')) sub.cancel_at_period_end = form.get('cancel_at_period_end') === 'true';
        return { status: 200, body: sub };
      }
    }
    if (method === 'POST' && path === '/v1/invoices/create_preview') {
      const sub = state.subscriptions.get(form.get('subscription') ?? '');
      const newPrice = form.get('subscription_details[items][0][price]') ?? '';
      if (!sub) return stripeError(404, 'No such subscription', 'invalid_request_error', 'resource_missing');
      const item = (sub.items as { data: Json[] }).data[0]!;
      const start = item.current_period_start as number;
      const end = item.current_period_end as number;
      const at = Number(form.get('subscription_details[proration_date]'));
      const remaining = Math.max(0, end - at) / (end - start);
      const credit = Math.round(((item.price as Json).unit_amount as number) * remaining);
      const charge = price(newPrice).unit_amount;
      const lines = [
        { id: 'il_1', object: 'line_item', amount: -credit, currency: 'usd', parent: { type: 'subscription_item_details', subscription_item_details: { proration: true, subscription_item: item.id } } },
        { id: 'il_2', object: 'line_item', amount: charge, currency: 'usd', parent: { type: 'subscription_item_details', subscription_item_details: { proration: false, subscription_item: item.id } } },
      ];
      return {
        status: 200,
        body: { id: null, object: 'invoice', currency: 'usd', amount_due: Math.max(0, charge - credit), created: now(), lines: { object: 'list', data: lines, has_more: false } },
      };
    }
    if (method === 'GET' && (match = path.match(/^\/v1\/invoices\/([^/]+)$/))) {
      const invoice = state.invoices.get(match[1]!);
      return invoice ? { status: 200, body: invoice } : stripeError(404, 'No such invoice', 'invalid_request_error', 'resource_missing');
    }
    if (method === 'GET' && (match = path.match(/^\/v1\/charges\/([^/]+)$/))) {
      const charge = state.charges.get(match[1]!);
      return charge ? { status: 200, body: charge } : stripeError(404, 'No such charge', 'invalid_request_error', 'resource_missing');
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      if (!state.portalConfigured) {
        return stripeError(
          400,
          'No configuration provided and your test mode default configuration has not been created. Provide a configuration or create your default by saving your customer portal settings in test mode at https://dashboard.stripe.com/test/settings/billing/portal.',
        );
      }
      return { status: 200, body: { id: next('bps'), object: 'billing_portal.session', customer: form.get('customer'), return_url: form.get('return_url'), url: `https://billing.stripe.com/p/session/${next('portal')}` } };
    }
    return stripeError(404, `Unrecognized request URL (${method}: ${path}).`);
  }

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      state.requests.push({ method: request.method ?? 'GET', path: url.pathname, query: url.searchParams, form, headers: request.headers });
      let result: { status: number; body: unknown };
      try {
        result = route(request.method ?? 'GET', url.pathname, form, url.searchParams);
      } catch (error) {
        result = stripeError(400, error instanceof Error ? error.message : String(error));
      }
      response.writeHead(result.status, { 'content-type': 'application/json', 'request-id': `req_${counter}` });
      response.end(JSON.stringify(result.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    get requests() {
      return state.requests;
    },
    sessions: state.sessions,
    subscriptions: state.subscriptions,
    invoices: state.invoices,
    charges: state.charges,
    get portalConfigured() {
      return state.portalConfigured;
    },
    set portalConfigured(value: boolean) {
      state.portalConfigured = value;
    },
    get declineUpdates() {
      return state.declineUpdates;
    },
    set declineUpdates(value: boolean) {
      state.declineUpdates = value;
    },
    complete,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
