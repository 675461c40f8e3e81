// What the payment provider keeps of our promotion codes: a coupon (the discount and how long it
// lasts) plus a promotion code (the customer-facing code with its restrictions), as Stripe models
// them. Both adapters of the payments port implement it; the sandbox keeps its own such objects.
import type { PromotionTerms } from '@shared/promotions';

/** A discount as a checkout session or an invoice reports it. */
export type ProviderDiscount = {
  /** Minor units taken off. */
  amount: number;
  /** The provider's promotion code that gave it; null for a coupon applied another way. */
  promotionCodeId: string | null;
};

export type MirrorInput = {
  /** Our row's id: the provider objects carry it in their metadata, and it keys the idempotent calls. */
  promotionId: string;
  terms: PromotionTerms;
  active: boolean;
};

export type MirroredPromotion = { couponId: string; promotionCodeId: string };

export type ProviderPromotions = {
  /**
   * Makes the coupon and the promotion code of a code, or finds them when an earlier attempt
   * (a retry, a restart) already made them: never two of either for one code.
   */
  mirror(input: MirrorInput): Promise<MirroredPromotion>;
  /** Switches the promotion code off at the provider (existing subscriptions keep their discount). */
  deactivate(promotionCodeId: string): Promise<void>;
};
