import { useQueryClient } from '@tanstack/react-query';
import { CrownIcon } from '../components/icons';
import { lazy, Suspense, useEffect, useState } from 'react';
import type { UpgradePreview } from '@shared/api-contract';
import { checkoutError, planUpdatedToast, previewError, upgradeError } from '@shared/error-messages';
import { cardBilled, currentPrices, landingCards } from '@shared/campaign';
import { PLAN_CURRENCY, type OriginPage, type PlanType, type PricingCard as Card } from '@shared/plans';
import { promotedCards } from '@shared/promotions';
import { cardPlan, lifetimeBanner, pricingCardButton } from '@shared/pricing-state';
import { NO_TRIAL, planHasTrial, planTrialDays, trialOfferText } from '@shared/trials';
import { checkoutRequest, createCheckout } from '@client/lib/api/checkout';
import { toErrorInput } from '@client/lib/api/error-input';
import { previewUpgradeCost, updateSubscription } from '@client/lib/api/plan-change';
import { subscriptionKeys } from '@client/lib/api/subscription';
import { useAuth } from '@client/lib/auth-state';
import { notifyError, notifySuccess } from '@client/lib/notify';
import { useSiteSettings } from '@client/lib/site-settings';
import { useOwnListSale, useSale } from '@client/lib/use-sale';
import { checkoutPromotionCode, usePromotionCode } from '@client/lib/promotion-code';
import { PromotionNotice } from '../components/promotion-banner';
import { PricingCard } from './pricing-card';
import { useMemberPlan } from './use-member-plan';

const UpgradeDialog = lazy(() => import('./upgrade-dialog').then((module) => ({ default: module.UpgradeDialog })));

/** 1 to 6 cards: one column on a phone; on wider screens rows of at most three (four fit a wide desktop). */
export function cardColumns(count: number): string {
  if (count <= 1) return 'md:mx-auto md:max-w-md md:grid-cols-1';
  if (count === 2) return 'md:mx-auto md:max-w-3xl md:grid-cols-2';
  if (count === 4) return 'md:grid-cols-2 xl:grid-cols-4';
  return 'md:grid-cols-3';
}

const defaultRedirect = (url: string) => window.location.assign(url);

/**
 * The pricing cards of a landing page (section id 'prices'): buys through
 * checkout, lets active members preview and change plans, and shows the member's current or
 * lifetime plan. Self-contained so other screens can reuse it.
 */
export function PricingSection({
  originPage,
  redirect = defaultRedirect,
}: {
  originPage: OriginPage;
  /** Where a checkout sends the browser; tests pass a spy. */
  redirect?: (url: string) => void;
}) {
  const settings = useSiteSettings();
  const { running } = useSale();
  // a vendor's own list prices its cards at the instant its own sale starts or ends
  const { now } = useOwnListSale(originPage);
  const { refreshAccess } = useAuth();
  const queryClient = useQueryClient();
  const { member, isLoading: memberLoading, email } = useMemberPlan();
  const [processingPlan, setProcessingPlan] = useState<PlanType | null>(null);
  const [preview, setPreview] = useState<UpgradePreview | null>(null);
  const [updating, setUpdating] = useState(false);
  const prices = currentPrices(settings, running);
  // a plan's own trial days (the console's) or the shop's TRIAL_DAYS for TRIAL_PLANS
  const trialSettings = settings.trial ?? NO_TRIAL;
  // a usable /?code= reprices the cards it covers; the checkout charges the same (the server checks again)
  const promotion = usePromotionCode();
  const plainCards = landingCards(settings, originPage, running, now);
  const cards = promotion.status === 'valid' ? promotedCards(plainCards, prices, originPage, promotion.promotion, PLAN_CURRENCY) : plainCards;

  // Coming back from the checkout page with the Back button restores this page from the
  // back-forward cache, where the card would still say 'Loading...'.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setProcessingPlan(null);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);
  const banner = lifetimeBanner(member);

  const startCheckout = async (card: Card) => {
    const planType = cardPlan(card, originPage);
    setProcessingPlan(card.planType);
    try {
      const tracking = await import('@client/lib/tracking');
      const session = await createCheckout(checkoutRequest({ planType, email, originPage, clickIds: tracking.clickIds(), promotionCode: checkoutPromotionCode(promotion) }));
      tracking.trackInitiateCheckout({ planName: card.name, planType, value: (prices[planType] ?? 0) / 100, eventId: session.sessionId });
      redirect(session.url);
      // The button keeps saying 'Loading...' while the browser leaves for the checkout page.
    } catch (error) {
      notifyError(checkoutError(toErrorInput(error)));
      setProcessingPlan(null);
    }
  };

  const startPreview = async (card: Card) => {
    setProcessingPlan(card.planType);
    try {
      const result = await previewUpgradeCost(cardPlan(card, originPage));
      if ('redirectToCheckout' in result) {
        // No upgrade path to this plan (lifetime is not a subscription change): buy it through
        // checkout instead.
        await startCheckout(card);
        return;
      }
      setPreview(result);
    } catch (error) {
      notifyError(previewError(toErrorInput(error)));
    }
    setProcessingPlan(null);
  };

  const confirmChange = async () => {
    if (!preview) return;
    setUpdating(true);
    try {
      const result = await updateSubscription(preview.newPlan);
      notifySuccess(planUpdatedToast(result.planType));
      setPreview(null);
      await queryClient.invalidateQueries({ queryKey: subscriptionKeys.all });
      await refreshAccess().catch(() => false);
    } catch (error) {
      notifyError(upgradeError(toErrorInput(error), 'landing'));
    } finally {
      setUpdating(false);
    }
  };

  return (
    <section id="prices" aria-labelledby="prices-heading" className="scroll-mt-28 py-14 md:py-20">
      <div className="mx-auto max-w-7xl px-4 sm:px-6">
        <h2 id="prices-heading" className="text-center text-3xl font-bold tracking-tight text-white md:text-4xl">
          Choose Your Plan
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-center text-foreground/70">
          Every plan unlocks every indicator, guide and community channel. Cancel any time.
        </p>

        {banner ? (
          <p role="status" className="mx-auto mt-8 flex max-w-2xl items-center justify-center gap-2 rounded-xl border border-green-500/40 bg-green-500/10 px-4 py-3 text-center text-sm font-semibold text-green-300">
            <CrownIcon className="h-4 w-4 flex-none" />
            {banner}
          </p>
        ) : null}

        <PromotionNotice state={promotion} />

        <div className={`mx-auto mt-12 grid max-w-md gap-8 md:max-w-none md:gap-6 lg:gap-8 ${cardColumns(cards.length)}`} aria-busy={memberLoading}>
          {cards.map((card) => {
            const button = pricingCardButton({ card, member, processingPlan, originPage });
            const plan = cardPlan(card, originPage);
            // a member changing plans gets no trial: only cards that buy advertise it
            const trial = button.variant !== 'current' && button.variant !== 'lifetime' && button.variant !== 'preview' && planHasTrial(trialSettings, plan) ? trialOfferText(planTrialDays(trialSettings, plan), plan, prices[plan] ?? 0) : null;
            return (
              <PricingCard
                trial={trial}
                billed={cardBilled(card, originPage, prices, settings.catalogue, now)}
                key={card.planType}
                card={card}
                // Until the member's plan is known a click could buy what they already have.
                button={memberLoading ? { ...button, disabled: true } : button}
                onSelect={() => void (button.variant === 'preview' ? startPreview(card) : startCheckout(card))}
              />
            );
          })}
        </div>
      </div>

      {preview ? (
        <Suspense fallback={null}>
          <UpgradeDialog preview={preview} updating={updating} onConfirm={() => void confirmChange()} onClose={() => setPreview(null)} />
        </Suspense>
      ) : null}
    </section>
  );
}
