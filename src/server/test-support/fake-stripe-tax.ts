// The tax side of the Stripe look-alike: Stripe Tax (its settings and registrations), checkout
// sessions with automatic_tax, billing address and tax ID collection, invoices for one-time
// payments (invoice_creation), invoice tax totals, and the invoices list. Kept beside
// fake-stripe-server.ts, which calls into it (never the other way round).
// Like Stripe Tax, tax is charged only where the account has an active registration; the rate of
// a registered EU country is its standard VAT rate.
import { vatRate } from '@shared/vat';

type Json = Record<string, unknown>;
type Store = Map<string, Json>;
type Result = { status: number; body: unknown };
type Next = (prefix: string) => string;

/** The fake's stores the tax side reads and writes (a part of FakeStripe). */
export type TaxState = { sessions: Store; invoices: Store; customers: Store; paymentIntents: Store };

export type FakeTaxSettings = { status: 'active' | 'pending'; defaultTaxBehavior: 'exclusive' | 'inclusive' | 'inferred_by_currency' | null };

export type FakeTax = {
  /** Stripe Tax's settings: `pending` until the head office address is filled in. */
  settings: FakeTaxSettings;
  /** Countries where the account collects tax (active registrations), e.g. ['DE', 'FR']. */
  registrations: string[];
  /** Whether the account's prices hold the tax (the prices' tax_behavior); exclusive by default. */
  priceBehavior: 'exclusive' | 'inclusive';
  /** What the buyer types on Checkout's address form (call before complete). */
  fillBilling(sessionId: string, billing: { country: string; taxId?: string }): void;
};

function refuse(message: string, param: string): Result {
  return { status: 400, body: { error: { type: 'invalid_request_error', message, param } } };
}

/** What Stripe refuses of a checkout's tax and invoice parameters. */
export function checkoutTaxRefusal(form: URLSearchParams): Result | null {
  const mode = form.get('mode');
  const customer = form.get('customer');
  if (form.has('invoice_creation[enabled]') && mode !== 'payment') return refuse('`invoice_creation` can only be used in `payment` mode.', 'invoice_creation');
  if ([...form.keys()].some((key) => key.startsWith('customer_update[')) && !customer) return refuse('`customer_update` can only be used with `customer`.', 'customer_update');
  if (form.get('automatic_tax[enabled]') === 'true' && customer && form.get('customer_update[address]') !== 'auto') {
    return refuse(
      "Automatic tax calculation in Checkout requires a valid address on the Customer. Add a valid address to the Customer or set either `customer_update[address]` to 'auto' or 'never'.",
      'customer_update[address]',
    );
  }
  if (form.get('tax_id_collection[enabled]') === 'true' && customer && form.get('customer_update[name]') !== 'auto') {
    return refuse('tax_id_collection.enabled requires updating the customer name. Set `customer_update[name]` to `auto`.', 'customer_update[name]');
  }
  return null;
}

/** The tax fields of a new session, as Stripe shows them before the buyer fills in an address. */
export function checkoutTaxFields(form: URLSearchParams, amount: number): Json {
  const automatic = form.get('automatic_tax[enabled]') === 'true';
  return {
    automatic_tax: { enabled: automatic, status: automatic ? 'requires_location_inputs' : null, liability: null },
    billing_address_collection: form.get('billing_address_collection'),
    tax_id_collection: { enabled: form.get('tax_id_collection[enabled]') === 'true' },
    invoice_creation: form.get('mode') === 'payment' ? { enabled: form.get('invoice_creation[enabled]') === 'true' } : null,
    amount_subtotal: amount,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
  };
}

/** The invoice fields a new invoice of `amount` starts with (no tax yet). */
export function invoiceTaxFields(id: string, amount: number, number: string): Json {
  return {
    number,
    subtotal: amount,
    total: amount,
    total_excluding_tax: amount,
    total_taxes: [],
    invoice_pdf: `https://pay.stripe.com/invoice/acct_fake/${id}/pdf`,
  };
}

export function createFakeTax(state: TaxState, next: Next) {
  const tax: FakeTax = {
    settings: { status: 'active', defaultTaxBehavior: 'exclusive' },
    registrations: [],
    priceBehavior: 'exclusive',
    fillBilling(sessionId, billing) {
      const session = state.sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      session.__billing = billing;
    },
  };

  function rateFor(country: string | undefined): number {
    if (!country || tax.settings.status !== 'active' || !tax.registrations.includes(country)) return 0;
    return vatRate(country);
  }

  /**
   * The buyer pays: with automatic tax, the tax of the address they typed goes into the session's
   * totals, and the address and tax ID onto the customer (a new one, or customer_update=auto).
   */
  function beforeSettle(session: Json): void {
    const automatic = (session.automatic_tax as { enabled?: boolean } | undefined)?.enabled === true;
    const billing = session.__billing as { country: string; taxId?: string } | undefined;
    if (!automatic) return;
    if (!billing) throw new Error('automatic tax needs the billing address: call tax.fillBilling before complete');
    // like Stripe, the tax is taken on what is left after a discount
    const discount = (session.total_details as { amount_discount?: number } | undefined)?.amount_discount ?? 0;
    const taxable = (session.amount_subtotal as number) - discount;
    const rate = rateFor(billing.country);
    const taxAmount = rate === 0 ? 0 : tax.priceBehavior === 'exclusive' ? Math.round((taxable * rate) / 10_000) : taxable - Math.round((taxable * 10_000) / (10_000 + rate));
    const total = tax.priceBehavior === 'exclusive' ? taxable + taxAmount : taxable;
    // a trial's checkout charges nothing today: nothing to tax
    if (session.amount_total === 0) return;
    Object.assign(session, {
      amount_total: total,
      total_details: { amount_discount: discount, amount_shipping: 0, amount_tax: taxAmount },
      automatic_tax: { enabled: true, status: 'complete', liability: { type: 'self' } },
      __taxRate: rate,
    });
    const details = (session.customer_details as Json | null) ?? {};
    const taxIds = billing.taxId ? [{ type: 'eu_vat', value: billing.taxId }] : [];
    session.customer_details = { ...details, address: { country: billing.country }, tax_exempt: 'none', tax_ids: taxIds };
    const customer = state.customers.get(session.customer as string);
    if (customer) Object.assign(customer, { address: { country: billing.country } });
  }

  /** After payment: the first invoice carries the tax; a one-time payment gets its invoice (invoice_creation). */
  function afterSettle(session: Json): void {
    const amountTax = (session.total_details as { amount_tax: number }).amount_tax;
    const taxes = amountTax > 0 ? [{ amount: amountTax, tax_behavior: tax.priceBehavior, taxability_reason: 'standard_rated', taxable_amount: (session.amount_subtotal as number) - (session.total_details as { amount_discount: number }).amount_discount, type: 'tax_rate_details', tax_rate_details: { tax_rate: `txr_${String(session.__taxRate)}` } }] : [];
    if (session.mode === 'subscription' && typeof session.invoice === 'string') {
      const invoice = state.invoices.get(session.invoice);
      if (invoice && (invoice.total as number) > 0) Object.assign(invoice, { total_taxes: taxes, total_excluding_tax: (invoice.total as number) - (tax.priceBehavior === 'exclusive' ? amountTax : 0) });
      return;
    }
    const creation = session.invoice_creation as { enabled: boolean } | null;
    if (session.mode !== 'payment' || !creation?.enabled) return;
    const id = next('in');
    const total = session.amount_total as number;
    state.invoices.set(id, {
      id,
      object: 'invoice',
      customer: session.customer,
      status: 'paid',
      billing_reason: 'manual',
      amount_paid: total,
      amount_due: total,
      amount_remaining: 0,
      currency: session.currency,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      hosted_invoice_url: `https://invoice.stripe.com/i/acct_fake/${id}`,
      parent: null,
      lines: { object: 'list', data: [{ id: next('il'), object: 'line_item', amount: session.amount_subtotal, pricing: { type: 'price_details', price_details: { price: session.__price, product: 'prod_test' } }, parent: null }], has_more: false },
      ...invoiceTaxFields(id, total, `FAKE-${id.replace(/\D/g, '').padStart(4, '0')}`),
      total_taxes: taxes,
      __intent: session.payment_intent,
    });
    session.invoice = id;
  }

  /** GET /v1/invoices (by customer, newest first, paged), /v1/tax/settings and /v1/tax/registrations; null for any other request. */
  function route(method: string, path: string, query: URLSearchParams, publicInvoice: (invoice: Json) => Json): Result | null {
    if (method !== 'GET') return null;
    if (path === '/v1/invoices') {
      const customer = query.get('customer');
      if (customer && !state.customers.has(customer)) return { status: 400, body: { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'customer', message: `No such customer: '${customer}'` } } };
      const limit = Math.min(Number(query.get('limit') ?? 10), 100);
      const all = [...state.invoices.values()].filter((invoice) => !customer || invoice.customer === customer).reverse();
      const after = query.get('starting_after');
      const start = after ? all.findIndex((invoice) => invoice.id === after) + 1 : 0;
      const data = all.slice(start, start + limit).map(publicInvoice);
      return { status: 200, body: { object: 'list', data, has_more: start + limit < all.length, url: '/v1/invoices' } };
    }
    if (path === '/v1/tax/settings') {
      const pending = tax.settings.status === 'pending';
      return {
        status: 200,
        body: {
          object: 'tax.settings',
          livemode: false,
          status: tax.settings.status,
          status_details: pending ? { pending: { missing_fields: ['head_office'] } } : { active: {} },
          defaults: { tax_behavior: tax.settings.defaultTaxBehavior, tax_code: 'txcd_10000000' },
          head_office: pending ? null : { address: { country: 'DE' } },
        },
      };
    }
    if (path === '/v1/tax/registrations') {
      const wanted = query.get('status') ?? 'all';
      const active = ['all', 'active'].includes(wanted) ? tax.registrations : [];
      const data = active.map((country, index) => ({ id: `taxreg_fake_${index}`, object: 'tax.registration', country, status: 'active', active_from: 1_700_000_000, expires_at: null, livemode: false }));
      return { status: 200, body: { object: 'list', data, has_more: false, url: '/v1/tax/registrations' } };
    }
    return null;
  }

  return { tax, beforeSettle, afterSettle, route };
}
