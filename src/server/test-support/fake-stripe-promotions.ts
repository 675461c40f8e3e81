// The promotions side of the Stripe look-alike: coupons and promotion codes (API "endive":
// `promotion: { type: 'coupon', coupon }`), checkout sessions with `discounts` or
// `allow_promotion_codes` (Stripe refuses both together), total_details.amount_discount and its
// breakdown, discounts on subscriptions and their invoices, and renewals that keep a discount for
// its coupon's duration. Kept beside fake-stripe-server.ts, which calls into it (never the other way round).

type Json = Record<string, unknown>;
type Store = Map<string, Json>;
type Result = { status: number; body: unknown };
type Next = (prefix: string) => string;

const DAY = 24 * 60 * 60;

/** What the promotions side needs of the fake: its stores, clock and the makers of payments and invoices. */
export type PromotionHost = {
  sessions: Store;
  subscriptions: Store;
  invoices: Store;
  charges: Store;
  customers: Store;
  next: Next;
  now: () => number;
  price: (id: string) => Json | null;
  payment: (amount: number, customerId: string) => { intent: string };
  invoice: (input: { customer: string; subscription: string; amount: number; status: 'paid' | 'open'; reason: string; intent: string; priceId: string }) => string;
  months: (priceId: string) => number;
};

function refuse(message: string, param: string, code?: string): Result {
  return { status: 400, body: { error: { type: 'invalid_request_error', message, param, ...(code ? { code } : {}) } } };
}

/** Stripe's form encoding of metadata[key]=value. */
function metadataOf(form: URLSearchParams, prefix = 'metadata'): Json {
  const metadata: Json = {};
  for (const [key, value] of form) {
    const match = key.match(new RegExp(`^${prefix}\\[(.+)\\]$`));
    if (match?.[1]) metadata[match[1]] = value;
  }
  return metadata;
}

export function createFakePromotions(host: PromotionHost) {
  const coupons: Store = new Map();
  const promotionCodes: Store = new Map();
  const discounts: Store = new Map();
  /** Idempotent creations: the same key answers the first result, as Stripe does for 24 hours. */
  const replies = new Map<string, Result>();
  /** The code applied to each open session, until it is paid; then the discount it became. */
  const applied = new Map<string, { promotionCode: Json; amount: number }>();
  const sessionDiscounts = new Map<string, string>();

  function couponDiscount(coupon: Json, amount: number, currency: string): number {
    if (typeof coupon.percent_off === 'number') return Math.round((amount * coupon.percent_off) / 100);
    return coupon.currency === currency ? Math.min(coupon.amount_off as number, amount) : 0;
  }

  /** Why a promotion code cannot be redeemed now for `price` (and `customer`, when known), as Stripe says it. */
  function refusal(promotion: Json, price: Json, customerId: string | null): string | null {
    const coupon = coupons.get((promotion.promotion as { coupon: string }).coupon);
    if (!promotion.active || !coupon) return `This promotion code is not active.`;
    if (typeof promotion.expires_at === 'number' && promotion.expires_at <= host.now()) return 'This promotion code has expired.';
    if (typeof promotion.max_redemptions === 'number' && (promotion.times_redeemed as number) >= promotion.max_redemptions) return 'This promotion code has reached its maximum number of redemptions.';
    const products = (coupon.applies_to as { products: string[] } | null)?.products;
    if (products && !products.includes(price.product as string)) return 'This promotion code cannot be applied to any of the items in this Checkout Session.';
    const firstTime = (promotion.restrictions as { first_time_transaction: boolean }).first_time_transaction;
    if (firstTime && customerId && [...host.charges.values()].some((charge) => charge.customer === customerId && charge.status === 'succeeded')) {
      return 'This promotion code cannot be redeemed because the associated customer has prior transactions.';
    }
    return null;
  }

  function createCoupon(form: URLSearchParams): Result {
    const id = form.get('id') ?? host.next('co');
    if (coupons.has(id)) return refuse(`Coupon already exists.`, 'id', 'resource_already_exists');
    const percent = form.get('percent_off');
    const amount = form.get('amount_off');
    if ((percent === null) === (amount === null)) return refuse('You must pass exactly one of `percent_off` or `amount_off`.', percent === null ? 'percent_off' : 'amount_off');
    if (amount !== null && !form.get('currency')) return refuse('You must pass currency when passing amount_off.', 'currency');
    const duration = form.get('duration') ?? 'once';
    if (duration === 'repeating' && !form.get('duration_in_months')) return refuse('You must pass duration_in_months when duration is repeating.', 'duration_in_months');
    const products = [...form].filter(([key]) => /^applies_to\[products\]\[\d*\]$/.test(key)).map(([, value]) => value);
    const coupon: Json = {
      id,
      object: 'coupon',
      name: form.get('name'),
      percent_off: percent === null ? null : Number(percent),
      amount_off: amount === null ? null : Number(amount),
      currency: form.get('currency'),
      duration,
      duration_in_months: duration === 'repeating' ? Number(form.get('duration_in_months')) : null,
      applies_to: products.length > 0 ? { products } : null,
      metadata: metadataOf(form),
      valid: true,
      times_redeemed: 0,
      livemode: false,
      created: host.now(),
    };
    coupons.set(id, coupon);
    return { status: 200, body: coupon };
  }

  function createPromotionCode(form: URLSearchParams): Result {
    const couponId = form.get('promotion[coupon]');
    if (form.get('promotion[type]') !== 'coupon' || !couponId) return refuse('Missing required param: promotion.', 'promotion');
    if (!coupons.has(couponId)) return refuse(`No such coupon: '${couponId}'`, 'promotion[coupon]', 'resource_missing');
    const code = form.get('code') ?? host.next('CODE').toUpperCase();
    if (!/^[A-Za-z0-9-]+$/.test(code)) return refuse('Promotion codes can only contain alphanumeric characters and dashes.', 'code');
    const active = form.get('active') !== 'false';
    const taken = [...promotionCodes.values()].some((promotion) => promotion.active && (promotion.code as string).toUpperCase() === code.toUpperCase());
    if (active && taken) return refuse('An active promotion code with `code` already exists.', 'code');
    const id = host.next('promo');
    const promotion: Json = {
      id,
      object: 'promotion_code',
      code,
      active,
      promotion: { type: 'coupon', coupon: couponId },
      customer: null,
      expires_at: form.has('expires_at') ? Number(form.get('expires_at')) : null,
      max_redemptions: form.has('max_redemptions') ? Number(form.get('max_redemptions')) : null,
      restrictions: { first_time_transaction: form.get('restrictions[first_time_transaction]') === 'true', minimum_amount: null, minimum_amount_currency: null },
      metadata: metadataOf(form),
      times_redeemed: 0,
      livemode: false,
      created: host.now(),
    };
    promotionCodes.set(id, promotion);
    return { status: 200, body: promotion };
  }

  /** POST/GET /v1/coupons… and /v1/promotion_codes…; null for any other request. */
  function route(method: string, path: string, form: URLSearchParams, query: URLSearchParams, idempotencyKey?: string): Result | null {
    let match: RegExpMatchArray | null;
    const once = (make: () => Result): Result => {
      if (!idempotencyKey) return make();
      const replay = replies.get(idempotencyKey);
      if (replay) return replay;
      const result = make();
      if (result.status === 200) replies.set(idempotencyKey, result);
      return result;
    };
    if (method === 'POST' && path === '/v1/coupons') return once(() => createCoupon(form));
    if (method === 'GET' && (match = path.match(/^\/v1\/coupons\/([^/]+)$/))) {
      const coupon = coupons.get(decodeURIComponent(match[1]!));
      return coupon ? { status: 200, body: coupon } : { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: `No such coupon: '${match[1]}'` } } };
    }
    if (method === 'POST' && path === '/v1/promotion_codes') return once(() => createPromotionCode(form));
    if (method === 'GET' && path === '/v1/promotion_codes') {
      const code = query.get('code')?.toUpperCase();
      const data = [...promotionCodes.values()].filter((promotion) => !code || (promotion.code as string).toUpperCase() === code);
      return { status: 200, body: { object: 'list', data, has_more: false, url: '/v1/promotion_codes' } };
    }
    if ((match = path.match(/^\/v1\/promotion_codes\/([^/]+)$/))) {
      const promotion = promotionCodes.get(match[1]!);
      if (!promotion) return { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: `No such promotion code: '${match[1]}'` } } };
      if (method === 'POST' && form.has('active')) promotion.active = form.get('active') === 'true';
      return { status: 200, body: promotion };
    }
    return null;
  }

  /**
   * A new checkout session's discount fields, or Stripe's refusal: `discounts` (a preset code) and
   * `allow_promotion_codes` (the buyer types one) exclude each other.
   */
  function checkoutFields(form: URLSearchParams, price: Json, amount: number): { refusal: Result } | { fields: Json; promotion: { promotionCode: Json; amount: number } | null } {
    const preset = form.get('discounts[0][promotion_code]');
    const allow = form.get('allow_promotion_codes') === 'true';
    if (preset && allow) return { refusal: refuse('You may only specify one of these parameters: allow_promotion_codes, discounts.', 'discounts') };
    const fields: Json = { allow_promotion_codes: allow, discounts: [] };
    if (!preset) return { fields, promotion: null };
    const promotion = promotionCodes.get(preset);
    if (!promotion) return { refusal: refuse(`No such promotion code: '${preset}'`, 'discounts[0][promotion_code]', 'resource_missing') };
    const refused = refusal(promotion, price, form.get('customer'));
    if (refused) return { refusal: refuse(refused, 'discounts[0][promotion_code]') };
    const coupon = coupons.get((promotion.promotion as { coupon: string }).coupon)!;
    const off = couponDiscount(coupon, amount, price.currency as string);
    return { fields: { ...fields, discounts: [{ coupon: coupon.id, promotion_code: promotion.id }], amount_total: amount - off, total_details: { amount_discount: off, amount_shipping: 0, amount_tax: 0 } }, promotion: { promotionCode: promotion, amount: off } };
  }

  /** Remembers a new session's preset code (from checkoutFields) until it is paid. */
  function opened(sessionId: string, promotion: { promotionCode: Json; amount: number } | null): void {
    if (promotion) applied.set(sessionId, promotion);
  }

  /** The buyer types a code on Checkout's page (a session that allows it); throws Stripe's refusal text. */
  function typeCode(sessionId: string, code: string): void {
    const session = host.sessions.get(sessionId);
    if (!session?.allow_promotion_codes) throw new Error(`session ${sessionId} does not take promotion codes`);
    const promotion = [...promotionCodes.values()].find((candidate) => candidate.active && (candidate.code as string).toUpperCase() === code.toUpperCase());
    if (!promotion) throw new Error('This code is invalid.');
    const price = host.price(session.__price as string)!;
    const refused = refusal(promotion, price, session.customer as string | null);
    if (refused) throw new Error(refused);
    const coupon = coupons.get((promotion.promotion as { coupon: string }).coupon)!;
    const amount = price.unit_amount as number;
    const off = couponDiscount(coupon, amount, price.currency as string);
    Object.assign(session, { amount_total: amount - off, total_details: { ...(session.total_details as Json), amount_discount: off } });
    applied.set(sessionId, { promotionCode: promotion, amount: off });
  }

  function discountObject(promotion: Json, links: Json): Json {
    const coupon = coupons.get((promotion.promotion as { coupon: string }).coupon)!;
    const start = host.now();
    const end = coupon.duration === 'repeating' ? start + (coupon.duration_in_months as number) * 30 * DAY : null;
    const id = host.next('di');
    const discount: Json = { id, object: 'discount', promotion_code: promotion.id, source: { type: 'coupon', coupon: coupon.id }, start, end, customer: null, invoice: null, subscription: null, checkout_session: null, ...links };
    discounts.set(id, discount);
    return discount;
  }

  /**
   * The session was paid: the code's redemption is counted and its discount recorded on the
   * session (breakdown), the subscription and the first invoice.
   */
  function settled(session: Json): void {
    const promotion = applied.get(session.id as string);
    if (!promotion) return;
    applied.delete(session.id as string);
    promotion.promotionCode.times_redeemed = (promotion.promotionCode.times_redeemed as number) + 1;
    const coupon = coupons.get((promotion.promotionCode.promotion as { coupon: string }).coupon)!;
    coupon.times_redeemed = (coupon.times_redeemed as number) + 1;
    const discount = discountObject(promotion.promotionCode, { checkout_session: session.id, customer: session.customer, subscription: session.subscription ?? null });
    sessionDiscounts.set(session.id as string, discount.id as string);
    session.discounts = [{ coupon: coupon.id, promotion_code: promotion.promotionCode.id }];
    const sub = typeof session.subscription === 'string' ? host.subscriptions.get(session.subscription) : undefined;
    if (sub) sub.discounts = [discount.id];
    const invoice = typeof session.invoice === 'string' ? host.invoices.get(session.invoice) : undefined;
    if (invoice && session.mode === 'subscription') discountInvoice(invoice, discount, promotion.amount);
  }

  function discountInvoice(invoice: Json, discount: Json, amount: number): void {
    Object.assign(invoice, { discounts: [discount.id], total_discount_amounts: [{ amount, discount: discount.id }] });
  }

  /** total_details.breakdown when asked (expand[]=total_details.breakdown), as Stripe includes it. */
  function expandSession(visible: Json, expand: string[]): void {
    if (!expand.includes('total_details.breakdown') || !visible.total_details) return;
    const discountId = sessionDiscounts.get(visible.id as string);
    const discount = discountId ? discounts.get(discountId) : undefined;
    const amount = (visible.total_details as { amount_discount: number }).amount_discount;
    visible.total_details = { ...(visible.total_details as Json), breakdown: { discounts: discount ? [{ amount, discount }] : [], taxes: [] } };
  }

  /** An invoice's discounts (empty lists without one), expanded when asked. */
  function expandInvoice(visible: Json, expand: string[]): void {
    if (!visible.discounts) Object.assign(visible, { discounts: [], total_discount_amounts: [] });
    if (expand.includes('discounts')) visible.discounts = (visible.discounts as string[]).map((id) => discounts.get(id) ?? id);
  }

  /**
   * The subscription's period ends and Stripe renews it: a new period, and its invoice paid with
   * the discount while the coupon lasts (once: the first invoice only; repeating: until the
   * discount's end; forever: always). Answers the new invoice's id.
   */
  function renew(subscriptionId: string): string {
    const sub = host.subscriptions.get(subscriptionId);
    if (!sub) throw new Error(`no subscription ${subscriptionId}`);
    const item = (sub.items as { data: Json[] }).data[0]!;
    const priceId = (item.price as Json).id as string;
    const start = item.current_period_end as number;
    const listAmount = (item.price as Json).unit_amount as number;
    const discount = ((sub.discounts as string[] | undefined) ?? []).map((id) => discounts.get(id)).find(Boolean);
    const coupon = discount ? coupons.get((discount.source as { coupon: string }).coupon) : undefined;
    const lasts = coupon && discount && coupon.duration !== 'once' && (discount.end === null || start < (discount.end as number));
    const off = lasts ? couponDiscount(coupon, listAmount, (item.price as Json).currency as string) : 0;
    const { intent } = host.payment(listAmount - off, sub.customer as string);
    const id = host.invoice({ customer: sub.customer as string, subscription: subscriptionId, amount: listAmount - off, status: 'paid', reason: 'subscription_cycle', intent, priceId });
    if (off > 0 && discount) discountInvoice(host.invoices.get(id)!, discount, off);
    // a once discount is used up by the first invoice; Stripe removes it from the subscription
    if (discount && !lasts) sub.discounts = [];
    Object.assign(item, { current_period_start: start, current_period_end: start + host.months(priceId) * 30 * DAY });
    sub.latest_invoice = id;
    return id;
  }

  return { coupons, promotionCodes, route, checkoutFields, opened, typeCode, settled, expandSession, expandInvoice, renew };
}

export type FakePromotions = Pick<ReturnType<typeof createFakePromotions>, 'coupons' | 'promotionCodes' | 'typeCode'>;
