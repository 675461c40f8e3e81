// Our promotion codes at Stripe: a coupon (the discount, its duration, the plans' products) plus a
// promotion code (the customer-facing code, its limit, expiry and first-time restriction; a
// churned-only code under a name no buyer can type, as Stripe has no such restriction). Never
// two of either for one code: the promotion code is looked up by its code and our id (metadata)
// first, the coupon has an id made from ours, and both creations carry idempotency keys made
// from our id, so a retry, a restart or a second instance finds what the first one made.
import type Stripe from 'stripe';
import type { PlanType } from '@shared/plans';
import { providerCodeOf } from '@shared/promotions';
import type { Logger } from '../../logger';
import type { MirroredPromotion, MirrorInput, ProviderDiscount, ProviderPromotions } from './promotions.port';
import type { CreateCheckoutInput } from './payments.port';

/** The adapter's error mapping (stripe-payments.ts `call`): a missing object is null when asked. */
export type StripeCall = <T>(what: string, run: () => Promise<T>, options?: { missingIsNull?: boolean }) => Promise<T | null>;

const RETRIES = 2;
const couponIdOf = (promotionId: string) => `candlewise-${promotionId}`;
const idOf = (value: string | { id: string } | null | undefined) => (value == null ? null : typeof value === 'string' ? value : value.id);

export function createStripePromotions(deps: {
  stripe: Stripe;
  call: StripeCall;
  /** Every price id configured for a plan (sale and regular). */
  pricesOf: (planType: PlanType) => string[];
  /** Every configured plan, to tell when a product is shared with a plan the code does not cover. */
  plans: readonly PlanType[];
  /**
   * The catalogue's Product of a plan (`cw_<slug>`), found or made as publishing does; absent: no
   * published Prices (the configured ids only). Every Price the catalogue publishes for the plan is on it.
   */
  productOf?: (planType: PlanType) => Promise<string>;
  logger: Logger;
}): ProviderPromotions {
  const { stripe, call, logger } = deps;
  const read = { maxNetworkRetries: RETRIES };
  const keyed = (key: string) => ({ maxNetworkRetries: RETRIES, idempotencyKey: key });

  /** The products of the plans' configured STRIPE_PRICE_* prices (a price taken over by publishing stays on its own). */
  async function configuredProductsOf(plans: readonly PlanType[]): Promise<Set<string>> {
    const products = new Set<string>();
    for (const priceId of plans.flatMap(deps.pricesOf)) {
      const price = await call('prices.retrieve', () => stripe.prices.retrieve(priceId, {}, read));
      const product = idOf(price?.product);
      if (product) products.add(product);
    }
    return products;
  }

  /**
   * Stripe restricts a coupon to products, not prices: the plans' products, those of their
   * configured prices and the catalogue's own (`cw_<slug>`), on which every Price published for a
   * plan is — a plan added in the console, a new amount, a vendor list's. A coupon's products
   * cannot change later, so the catalogue's are named even before its first edit. A product that
   * also sells a plan outside the list (a configured price's, shared) would let the code discount
   * that plan when a buyer types it at checkout (a preset code is checked by the shop first):
   * logged, so the vendor can split products.
   */
  async function appliesTo(promotionId: string, plans: PlanType[] | null): Promise<Stripe.CouponCreateParams.AppliesTo | undefined> {
    if (plans === null) return undefined;
    const products = await configuredProductsOf(plans);
    const { productOf } = deps;
    if (productOf) {
      for (const plan of plans) {
        const product = await call('products.publish', () => productOf(plan));
        if (product) products.add(product);
      }
    }
    const others = await configuredProductsOf(deps.plans.filter((plan) => !plans.includes(plan)));
    const shared = [...products].filter((product) => others.has(product));
    if (shared.length > 0) logger.warn({ promotionId, plans, shared }, 'a plan-restricted promotion code shares a Stripe product with other plans: Stripe cannot tell them apart');
    return { products: [...products] };
  }

  async function existingCode(input: MirrorInput): Promise<Stripe.PromotionCode | null> {
    const list = await call('promotionCodes.list', () => stripe.promotionCodes.list({ code: providerCodeOf(input.terms, input.promotionId), limit: 100 }, read));
    return list?.data.find((promo) => promo.metadata?.promotionId === input.promotionId) ?? null;
  }

  async function ensureCoupon(input: MirrorInput): Promise<string> {
    const id = couponIdOf(input.promotionId);
    const found = await call('coupons.retrieve', () => stripe.coupons.retrieve(id, {}, read), { missingIsNull: true });
    if (found) return found.id;
    const { terms } = input;
    const params: Stripe.CouponCreateParams = {
      id,
      name: terms.code,
      duration: terms.duration,
      ...(terms.duration === 'repeating' && terms.durationInMonths ? { duration_in_months: terms.durationInMonths } : {}),
      ...(terms.percentOff !== null ? { percent_off: terms.percentOff } : { amount_off: terms.amountOff ?? 0, currency: terms.currency ?? 'usd' }),
      metadata: { promotionId: input.promotionId },
    };
    const restriction = await appliesTo(input.promotionId, terms.plans);
    if (restriction) params.applies_to = restriction;
    const coupon = await call('coupons.create', () => stripe.coupons.create(params, keyed(`candlewise-coupon-${input.promotionId}`)));
    if (!coupon) throw new Error(`Stripe returned no coupon for ${terms.code}`);
    return coupon.id;
  }

  return {
    async mirror(input): Promise<MirroredPromotion> {
      const existing = await existingCode(input);
      if (existing) return { couponId: idOf(existing.promotion.coupon) ?? couponIdOf(input.promotionId), promotionCodeId: existing.id };
      const couponId = await ensureCoupon(input);
      const { terms } = input;
      const params: Stripe.PromotionCodeCreateParams = {
        promotion: { type: 'coupon', coupon: couponId },
        code: providerCodeOf(terms, input.promotionId),
        active: input.active,
        metadata: { promotionId: input.promotionId },
        ...(terms.maxRedemptions !== null ? { max_redemptions: terms.maxRedemptions } : {}),
        ...(terms.expiresAt ? { expires_at: Math.floor(terms.expiresAt.getTime() / 1000) } : {}),
        ...(terms.firstTimeOnly ? { restrictions: { first_time_transaction: true } } : {}),
      };
      const promotion = await call('promotionCodes.create', () => stripe.promotionCodes.create(params, keyed(`candlewise-promotion-code-${input.promotionId}`)));
      if (!promotion) throw new Error(`Stripe returned no promotion code for ${terms.code}`);
      return { couponId, promotionCodeId: promotion.id };
    },

    async deactivate(promotionCodeId) {
      await call('promotionCodes.update', () => stripe.promotionCodes.update(promotionCodeId, { active: false }, keyed(`candlewise-deactivate-${promotionCodeId}`)));
    },
  };
}

/**
 * A preset code goes in `discounts`; without one the buyer may type a code on Stripe's page
 * (`allow_promotion_codes`). Stripe refuses the two together.
 */
export function checkoutDiscountParams(input: Pick<CreateCheckoutInput, 'promotionCodeId'>): Partial<Stripe.Checkout.SessionCreateParams> {
  return input.promotionCodeId ? { discounts: [{ promotion_code: input.promotionCodeId }] } : { allow_promotion_codes: true };
}

/** What the session's code took off (total_details, its breakdown expanded) and which code it was. */
export function sessionDiscount(session: Stripe.Checkout.Session): ProviderDiscount | null {
  const amount = session.total_details?.amount_discount ?? 0;
  if (amount <= 0) return null;
  const applied = session.total_details?.breakdown?.discounts.find((entry) => entry.discount.promotion_code);
  return { amount, promotionCodeId: idOf(applied?.discount.promotion_code) };
}

/** What an invoice's discounts took off (its `discounts` expanded) and the promotion code behind them. */
export function invoiceDiscount(invoice: Stripe.Invoice): ProviderDiscount | null {
  const amount = (invoice.total_discount_amounts ?? []).reduce((sum, entry) => sum + entry.amount, 0);
  if (amount <= 0) return null;
  const discount = (invoice.discounts ?? []).find((entry): entry is Stripe.Discount => typeof entry === 'object' && entry.promotion_code !== null);
  return { amount, promotionCodeId: idOf(discount?.promotion_code) };
}
