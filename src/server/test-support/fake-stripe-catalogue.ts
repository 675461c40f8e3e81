// The catalogue side of the Stripe look-alike (decision record 058): Products with their own ids,
// Prices created with a lookup key (unique among active Prices, as Stripe keeps it), listed by
// lookup key, and updated only in what Stripe lets change (lookup key, metadata, active): never
// the amount. Kept beside fake-stripe-server.ts, which calls into it (never the other way round).
import { periodMonths, type PeriodUnit } from '@shared/catalogue';

type Json = Record<string, unknown>;

/** What this side writes of the fake's prices (FakePrice of fake-stripe-server.ts has these fields). */
type FakePrice = {
  amount: number;
  months: number | null;
  currency?: string;
  active?: boolean;
  taxBehavior?: 'exclusive' | 'inclusive' | 'unspecified';
  product?: string;
  recurring?: { interval: string; interval_count: number } | undefined;
  lookupKey?: string | undefined;
  metadata?: Json;
};
type Result = { status: number; body: unknown };

export type CatalogueHost = {
  prices: Map<string, FakePrice>;
  products: Map<string, Json>;
  next: (prefix: string) => string;
  price: (id: string) => Json | null;
};

function refuse(message: string, param: string, status = 400, code?: string): Result {
  return { status, body: { error: { type: 'invalid_request_error', message, param, ...(code ? { code } : {}) } } };
}

function metadataOf(form: URLSearchParams): Json {
  const metadata: Json = {};
  for (const [key, value] of form) {
    const match = /^metadata\[(.+)\]$/.exec(key);
    if (match?.[1]) metadata[match[1]] = value;
  }
  return metadata;
}

/** Answers the Products and Prices calls of publishing, or null for any other request. */
export function catalogueRoute(host: CatalogueHost, method: string, path: string, form: URLSearchParams, query: URLSearchParams): Result | null {
  let match: RegExpMatchArray | null;
  if (method === 'POST' && path === '/v1/products') {
    const id = form.get('id') ?? host.next('prod');
    if (host.products.has(id)) return refuse(`Product already exists.`, 'id', 400, 'resource_already_exists');
    const product = { id, object: 'product', name: form.get('name') ?? '', active: true, metadata: metadataOf(form) };
    host.products.set(id, product);
    return { status: 200, body: product };
  }
  if ((match = path.match(/^\/v1\/products\/([^/]+)$/))) {
    const product = host.products.get(match[1]!);
    if (!product) return refuse(`No such product: '${match[1]}'`, 'id', 404, 'resource_missing');
    if (method === 'POST' && form.has('name')) product.name = form.get('name');
    return { status: 200, body: product };
  }
  if (method === 'GET' && path === '/v1/prices') {
    const keys = [...query].filter(([key]) => /^lookup_keys\[\d*\]$/.test(key)).map(([, value]) => value);
    const data = [...host.prices.entries()]
      .filter(([, price]) => (keys.length === 0 || (price.lookupKey !== undefined && keys.includes(price.lookupKey))) && (query.get('active') !== 'true' || price.active !== false))
      .map(([id]) => host.price(id));
    return { status: 200, body: { object: 'list', data, has_more: false, url: '/v1/prices' } };
  }
  if (method === 'POST' && path === '/v1/prices') {
    const product = form.get('product') ?? '';
    if (!host.products.has(product)) return refuse(`No such product: '${product}'`, 'product', 400, 'resource_missing');
    const amount = Number(form.get('unit_amount'));
    if (!Number.isInteger(amount) || amount < 0) return refuse('Invalid integer: unit_amount', 'unit_amount');
    const lookupKey = form.get('lookup_key') ?? undefined;
    if (lookupKey && [...host.prices.values()].some((price) => price.lookupKey === lookupKey && price.active !== false)) {
      return refuse(`A price (\`${lookupKey}\`) already uses that lookup key.`, 'lookup_key');
    }
    const interval = form.get('recurring[interval]') as PeriodUnit | null;
    const count = Number(form.get('recurring[interval_count]') ?? '1');
    const id = host.next('price');
    host.prices.set(id, {
      amount,
      currency: form.get('currency') ?? 'usd',
      months: interval ? periodMonths({ unit: interval, count }) : null,
      recurring: interval ? { interval, interval_count: count } : undefined,
      taxBehavior: (form.get('tax_behavior') as FakePrice['taxBehavior']) ?? 'unspecified',
      product,
      lookupKey,
      metadata: metadataOf(form),
    });
    return { status: 200, body: host.price(id) };
  }
  if (method === 'POST' && (match = path.match(/^\/v1\/prices\/([^/]+)$/))) {
    const price = host.prices.get(match[1]!);
    if (!price) return refuse(`No such price: '${match[1]}'`, 'id', 404, 'resource_missing');
    // what Stripe lets change on a Price: never its amount, currency or period
    for (const fixed of ['unit_amount', 'currency', 'recurring[interval]']) if (form.has(fixed)) return refuse(`Received unknown parameter: ${fixed}`, fixed);
    if (form.has('lookup_key')) price.lookupKey = form.get('lookup_key') || undefined;
    if (form.has('active')) price.active = form.get('active') === 'true';
    price.metadata = { ...(price.metadata ?? {}), ...metadataOf(form) };
    return { status: 200, body: host.price(match[1]!) };
  }
  return null;
}
