import { Check, Crown, Infinity as InfinityIcon, Loader2, Sparkles } from 'lucide-react';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { isRedirectToCheckout, paymentActionUrl } from '@shared/api-contract';
import type { UpgradePreview } from '@shared/api-contract';
import { checkoutError, previewError, SERVER_ERROR_MESSAGES, upgradeError } from '@shared/error-messages';
import { currentPrices, landingCards } from '@shared/campaign';
import { formatCardPrice, oneTimePlan, planDisplayName } from '@shared/plans';
import type { PlanType, PricingCard } from '@shared/plans';
import { activeCatalogue } from '@shared/catalogue';
import { planChangePage } from '@shared/catalogue-publishing';
import { cardPlan, memberPlanOf, planChangeButton, planChangeNote, PRICING_BUTTON_TEXTS } from '@shared/pricing-state';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Card } from '@client/components/ui/card';
import { Spinner } from '@client/components/ui/spinner';
import { ApiRequestError } from '@client/lib/api/api-client';
import { checkoutRequest, createCheckout } from '@client/lib/api/checkout';
import { toErrorInput } from '@client/lib/api/error-input';
import { previewUpgradeCost, updateSubscription } from '@client/lib/api/plan-change';
import { useSubscription } from '@client/lib/api/subscription';
import { useAuth } from '@client/lib/auth-state';
import { cn } from '@client/lib/cn';
import { notifyError, notifySuccess } from '@client/lib/notify';
import { useSiteSettings } from '@client/lib/site-settings';
import { useOwnListSale, useSale } from '@client/lib/use-sale';
import { clickIds, trackInitiateCheckout } from '@client/lib/tracking';
import { useRefreshSubscription } from '../api/refresh-subscription';
import { useExternalNavigation } from '../settings-environment';
import { runUpgradeSuccessSequence, sleep } from '../upgrade-success';
import { SettingsCardHeader, SubscriptionLoadError } from './detail-list';
import { UpgradeConfirmDialog } from './upgrade-confirm-dialog';

/** The one-time plan's button under the cards: 'Get Lifetime Access'. */
export function oneTimeOfferText(name: string): string {
  return `Get ${name} Access`;
}

export const PLAN_CARD_TEXTS = {
  title: 'Change Plan',
  fullPrice: 'Full Price',
  mostPopular: 'Most Popular',
  currentPlan: 'Current Plan',
  finishing: 'Updating your plan...',
  lifetimeOffer: oneTimeOfferText('Lifetime'),
  confirmPayment: 'Confirm the payment',
} as const;

/** The Change/Upgrade Plan card: the plans of the member's price list, plan changes with a cost preview. */
/** Any number of plans (1 to 6): one row up to three, two rows of two or three beyond. */
const PLAN_GRID_COLUMNS: Record<number, string> = { 0: 'grid-cols-1', 1: 'grid-cols-1', 2: 'grid-cols-2', 3: 'grid-cols-3', 4: 'grid-cols-2', 5: 'grid-cols-3', 6: 'grid-cols-3' };

export function PlanChangeCard() {
  const { user, refreshAccess } = useAuth();
  const settings = useSiteSettings();
  const sale = useSale();
  const subscription = useSubscription();
  const refreshSubscription = useRefreshSubscription();
  const previewCost = useMutation({ mutationFn: previewUpgradeCost });
  const update = useMutation({ mutationFn: updateSubscription });
  const checkout = useMutation({ mutationFn: createCheckout });
  const external = useExternalNavigation();
  const navigate = useNavigate();

  const [previewingPlan, setPreviewingPlan] = useState<PlanType | null>(null);
  const [checkoutPlan, setCheckoutPlan] = useState<PlanType | null>(null);
  const [pendingChange, setPendingChange] = useState<UpgradePreview | null>(null);
  const [finishing, setFinishing] = useState(false);
  // A plan change waiting for the bank's authentication (3-D Secure) on Stripe's invoice page.
  const [authenticationUrl, setAuthenticationUrl] = useState<string | null>(null);

  // Leaving the page stops the post-upgrade sequence, so it never navigates from elsewhere.
  const sequenceRef = useRef<AbortController | null>(null);
  useEffect(() => () => sequenceRef.current?.abort(), []);

  const member = memberPlanOf(subscription.data);
  // the plans and prices of the list the member bought on, in its currency: what a change charges them
  const originPage = planChangePage(settings.catalogue ?? activeCatalogue(), { planType: member.planType, boughtOn: subscription.data?.boughtOn ?? null });
  // a vendor's own list prices its cards at the instant its own sale starts or ends
  const { now } = useOwnListSale(originPage);
  const cards = landingCards(settings, originPage, sale.running, now);
  const prices = currentPrices(settings, sale.running);
  const note = planChangeNote(member);
  const oneTime = oneTimePlan();
  const busy = previewingPlan !== null || checkoutPlan !== null || finishing || update.isPending;

  /** `cardKey` is the plan as the card names it, for the button's loading state. */
  async function startCheckout(planType: PlanType, cardKey: PlanType) {
    if (!user) return;
    setCheckoutPlan(cardKey);
    try {
      const session = await checkout.mutateAsync(checkoutRequest({ planType, email: user.email, originPage, clickIds: clickIds() }));
      // A no-op unless the vendor's pixel is running; the session id deduplicates with the server's event.
      trackInitiateCheckout({
        planName: planDisplayName(planType),
        planType,
        value: (prices[planType] ?? 0) / 100,
        eventId: session.sessionId,
      });
      // The browser is leaving for the payment page; the button keeps its loading state.
      external.assign(session.url);
    } catch (error) {
      notifyError(checkoutError(toErrorInput(error)));
      setCheckoutPlan(null);
    }
  }

  async function startPreview(card: PricingCard) {
    const planType = cardPlan(card, originPage);
    setPreviewingPlan(card.planType);
    let result;
    try {
      result = await previewCost.mutateAsync(planType);
    } catch (error) {
      notifyError(previewError(toErrorInput(error)));
      setPreviewingPlan(null);
      return;
    }
    setPreviewingPlan(null);
    // No upgrade path between these plans: buy the new plan through checkout instead.
    if (isRedirectToCheckout(result)) await startCheckout(planType, card.planType);
    else setPendingChange(result);
  }

  async function confirmChange() {
    if (!pendingChange) return;
    let newPlan: PlanType;
    try {
      newPlan = (await update.mutateAsync(pendingChange.newPlan)).planType;
    } catch (error) {
      setPendingChange(null);
      const url = error instanceof ApiRequestError ? paymentActionUrl(error) : null;
      if (url) setAuthenticationUrl(url);
      else notifyError(upgradeError(toErrorInput(error), 'settings'));
      return;
    }
    setPendingChange(null);
    setFinishing(true);
    sequenceRef.current?.abort();
    const controller = new AbortController();
    sequenceRef.current = controller;
    await runUpgradeSuccessSequence(newPlan, {
      notifySuccess,
      refreshSubscription,
      refreshAccess,
      navigate: (path) => void navigate(path),
      sleep,
      signal: controller.signal,
    });
    if (!controller.signal.aborted) setFinishing(false);
  }

  function onCardClick(card: PricingCard, action: 'none' | 'preview' | 'checkout') {
    if (action === 'preview') void startPreview(card);
    else if (action === 'checkout') void startCheckout(cardPlan(card, originPage), card.planType);
  }

  return (
    <Card role="region" aria-labelledby="plan-change-title" className="p-8">
      <SettingsCardHeader
        icon={<Sparkles className="h-5 w-5" />}
        title={PLAN_CARD_TEXTS.title}
        titleId="plan-change-title"
        description={
          member.isLifetime
            ? 'Your Lifetime plan includes every indicator and update, with no renewals.'
            : member.currentlyActive
              ? 'Switch plans at any time. Unused time on your current plan is credited toward the new one.'
              : 'Choose the plan that suits your trading.'
        }
      />

      {subscription.isPending ? (
        <div className="flex min-h-64 items-center justify-center">
          <Spinner label="Loading plans..." />
        </div>
      ) : !subscription.data ? (
        <SubscriptionLoadError onRetry={() => void subscription.refetch()} />
      ) : (
        <>
          {note ? (
            <div role="note" className="mb-6 flex items-center gap-3 rounded-xl border border-primary/30 bg-primary/10 px-4 py-3 text-sm font-medium text-primary">
              <Crown aria-hidden="true" className="h-5 w-5 shrink-0" />
              {note}
            </div>
          ) : null}
          {authenticationUrl ? (
            <div role="alert" className="mb-6 rounded-xl border border-amber-400/40 bg-amber-400/10 px-4 py-3 text-sm text-amber-100">
              <p>{SERVER_ERROR_MESSAGES.payment_action_required}</p>
              <a href={authenticationUrl} className="mt-2 inline-block font-semibold text-amber-300 underline underline-offset-2">
                {PLAN_CARD_TEXTS.confirmPayment}
              </a>
            </div>
          ) : null}
          {finishing ? (
            <p role="status" className="mb-6 flex items-center gap-2 text-sm text-muted">
              <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin text-primary" />
              {PLAN_CARD_TEXTS.finishing}
            </p>
          ) : null}

          <ul className={`grid gap-5 ${PLAN_GRID_COLUMNS[Math.min(cards.length, 6)] ?? 'grid-cols-3'}`} aria-label="Plans">
            {cards.map((card) => {
              const button = planChangeButton({ card, member, previewingPlan, originPage });
              const loadingCheckout = checkoutPlan === card.planType;
              return (
                <li key={card.planType}>
                  <PlanOption
                    card={card}
                    current={button.showCurrentBadge}
                    label={loadingCheckout ? PRICING_BUTTON_TEXTS.loading : button.label}
                    disabled={button.disabled || busy}
                    onClick={() => onCardClick(card, button.action)}
                  />
                </li>
              );
            })}
          </ul>

          {originPage === '/' && !member.isLifetime && oneTime !== null && prices[oneTime] !== undefined ? (
            <LifetimeOffer
              name={planDisplayName(oneTime)}
              price={formatCardPrice(prices[oneTime])}
              loading={checkoutPlan === oneTime}
              disabled={busy}
              onClick={() => void startCheckout(oneTime, oneTime)}
            />
          ) : null}
        </>
      )}

      <UpgradeConfirmDialog
        preview={pendingChange}
        pending={update.isPending}
        onConfirm={() => void confirmChange()}
        onCancel={() => setPendingChange(null)}
      />
    </Card>
  );
}

function PlanOption({
  card,
  current,
  label,
  disabled,
  onClick,
}: {
  card: PricingCard;
  current: boolean;
  label: string;
  disabled: boolean;
  onClick: () => void;
}) {
  return (
    <article
      aria-label={`${card.name} plan`}
      className={cn(
        'relative flex h-full flex-col rounded-2xl border bg-black/20 p-6 transition-colors',
        current ? 'border-primary ring-1 ring-primary/50' : card.isPopular ? 'border-accent/60' : 'border-border',
      )}
    >
      <div className="flex min-h-6 flex-wrap gap-2">
        {card.isPopular ? (
          <Badge className="bg-accent text-white">{PLAN_CARD_TEXTS.mostPopular}</Badge>
        ) : null}
        {current ? <Badge tone="green">{PLAN_CARD_TEXTS.currentPlan}</Badge> : null}
      </div>
      <h3 className="mt-4 text-xl font-semibold">{card.name}</h3>
      <div className="mt-3 min-h-5 text-sm text-muted">
        {card.originalPrice ? (
          <s aria-label={`Original price ${card.originalPrice}`}>{card.originalPrice}</s>
        ) : null}
      </div>
      <p className="mt-1 flex items-baseline gap-1.5">
        <span className="text-4xl font-bold tracking-tight">{card.price}</span>
        <span className="text-sm text-muted">{card.period}</span>
      </p>
      <p className="mt-3">
        {card.savings ? (
          <Badge tone="green">{card.savings}</Badge>
        ) : (
          <Badge tone="neutral">{PLAN_CARD_TEXTS.fullPrice}</Badge>
        )}
      </p>
      <ul className="mt-6 flex-1 space-y-2.5 text-sm">
        {card.features.map((feature) => (
          <li key={feature} className="flex items-center gap-2.5">
            <Check aria-hidden="true" className="h-4 w-4 shrink-0 text-primary" />
            {feature}
          </li>
        ))}
      </ul>
      <Button
        className="mt-6 w-full"
        variant={current ? 'secondary' : card.isPopular ? 'primary' : 'outline'}
        disabled={disabled}
        onClick={onClick}
      >
        {label}
      </Button>
    </article>
  );
}

function LifetimeOffer({
  name,
  price,
  loading,
  disabled,
  onClick,
}: {
  name: string;
  price: string;
  loading: boolean;
  disabled: boolean;
  onClick: () => void;
}) {
  return (
    <div className="mt-6 flex items-center justify-between gap-6 rounded-2xl border border-border bg-gradient-to-r from-accent/10 to-transparent p-5">
      <div className="flex items-center gap-4">
        <span aria-hidden="true" className="flex h-10 w-10 items-center justify-center rounded-xl bg-accent/20 text-accent">
          <InfinityIcon className="h-5 w-5" />
        </span>
        <div>
          <p className="font-semibold">
            {name} <span className="ml-1 text-muted">{price} one time</span>
          </p>
          <p className="text-sm text-muted">Pay once and keep every indicator and update for good. No renewals.</p>
        </div>
      </div>
      <Button variant="outline" className="shrink-0" disabled={disabled} onClick={onClick}>
        {loading ? PRICING_BUTTON_TEXTS.loading : oneTimeOfferText(name)}
      </Button>
    </div>
  );
}
