// What a provider's discount means in our rows: the code (ours, found by the provider's promotion
// code id, so a code the buyer typed on Stripe's page is named too) and the amount it took off.
import type { Db } from '../../db/client';
import type { ProviderDiscount } from '../payments/promotions.port';
import { codeOfProviderPromotion } from './promotions.repository';

export type DiscountColumns = { promotionCode: string | null; amountDiscount: number };

/** `knownCode`: the code our row already names (a code the shop applied at checkout). */
export async function discountColumns(tx: Db, discount: ProviderDiscount | null, knownCode: string | null): Promise<DiscountColumns> {
  if (!discount) return { promotionCode: knownCode, amountDiscount: 0 };
  const named = discount.promotionCodeId ? await codeOfProviderPromotion(tx, discount.promotionCodeId) : null;
  return { promotionCode: named ?? knownCode, amountDiscount: discount.amount };
}
