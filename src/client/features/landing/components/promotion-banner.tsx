// What a /?code=CODE visit sees: a banner saying what the code gives (or why it cannot be used),
// above the cards, and a small bar fixed at the bottom of the screen that leads to them. Both
// appear after hydration only: fixed or below the fold, they move nothing on the first screen.
import { useEffect } from 'react';
import { promotionBanner } from '@shared/promotions';
import { startPromotionCode, usePromotionCode, type PromotionCodeState } from '@client/lib/promotion-code';
import { SECTION_IDS } from '../scroll';

/** Above the pricing cards: the code's offer, or the reason it shows the normal prices. */
export function PromotionNotice({ state }: { state: PromotionCodeState }) {
  if (state.status === 'valid') {
    return (
      <p role="status" data-testid="promotion-banner" className="mx-auto mt-8 max-w-2xl rounded-xl border border-primary/40 bg-primary/10 px-4 py-3 text-center text-sm font-semibold text-primary">
        {promotionBanner(state.promotion)}: the prices below include it.
      </p>
    );
  }
  if (state.status === 'invalid') {
    return (
      <p role="alert" data-testid="promotion-error" className="mx-auto mt-8 max-w-2xl rounded-xl border border-yellow-500/40 bg-yellow-500/10 px-4 py-3 text-center text-sm text-yellow-200">
        {state.message} The prices below are the regular prices.
      </p>
    );
  }
  return null;
}

/** Starts the visit's code look-up and shows the offer in a bar fixed at the bottom of the screen. */
export function PromotionBar() {
  const state = usePromotionCode();
  useEffect(() => startPromotionCode(), []);
  if (state.status !== 'valid' && state.status !== 'invalid') return null;
  const text = state.status === 'valid' ? promotionBanner(state.promotion) : state.message;
  return (
    <a
      href={`#${SECTION_IDS.prices}`}
      data-testid="promotion-bar"
      className="fixed inset-x-4 bottom-4 z-40 mx-auto block max-w-xl rounded-full border border-white/15 bg-black/85 px-4 py-2 text-center text-sm font-semibold text-white shadow-lg backdrop-blur sm:inset-x-auto sm:left-1/2 sm:-translate-x-1/2"
    >
      {text} · See prices
    </a>
  );
}
