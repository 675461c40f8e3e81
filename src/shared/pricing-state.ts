// Button states of the landing pricing cards and the settings plan-change card.
import type { SubscriptionViewDto } from './api-contract';
import { DEFAULT_START_TEXT, isRecurring, neverExpires, toEuPlan } from './plans';
import type { OriginPage, PlanType, PricingCard } from './plans';

export const LIFETIME_BANNER = 'You have a Lifetime subscription - enjoy unlimited access!';
export const LIFETIME_ACTIVE_NOTE = 'Lifetime Plan Active – You already have the best plan!';

export const PRICING_BUTTON_TEXTS = {
  preview: 'Preview Change',
  loading: 'Loading...',
  current: 'Current Plan',
  lifetime: 'Lifetime Active',
  loadingPreview: 'Loading Preview...',
} as const;

export type MemberPlanState = {
  signedIn: boolean;
  /** Plan of the member's subscription, null without one. */
  planType: PlanType | null;
  /** Has access and is not canceled (access.ts isCurrentlyActive). */
  currentlyActive: boolean;
  /** Holds an active lifetime plan. */
  isLifetime: boolean;
};

export const ANONYMOUS_MEMBER: MemberPlanState = {
  signedIn: false,
  planType: null,
  currentlyActive: false,
  isLifetime: false,
};

/** A signed-in member's plan state from their subscription view; undefined (loading, failed) reads as no plan. */
export function memberPlanOf(
  view: Pick<SubscriptionViewDto, 'planType' | 'isActive' | 'isCanceled'> | undefined,
): Omit<MemberPlanState, 'signedIn'> {
  return {
    planType: view?.planType ?? null,
    currentlyActive: view !== undefined && view.isActive && !view.isCanceled,
    isLifetime: view?.planType != null && neverExpires(view.planType) && view.isActive,
  };
}

/** The plan a card buys on a page: on /eu the Monthly and Quarterly cards sell the EU variants. */
export function cardPlan(card: Pick<PricingCard, 'planType'>, originPage: OriginPage): PlanType {
  return toEuPlan(card.planType, originPage);
}

function isMembersCard(
  card: PricingCard,
  member: Pick<MemberPlanState, 'planType'>,
  originPage: OriginPage,
): boolean {
  return (
    member.planType !== null &&
    (member.planType === card.planType || member.planType === cardPlan(card, originPage))
  );
}

export type PricingCardButton = {
  label: string;
  disabled: boolean;
  variant: 'current' | 'lifetime' | 'preview' | 'buy' | 'loading';
  showCurrentBadge: boolean;
};

/** Landing pricing-card button: what it says, whether it is clickable, and the badge. */
export function pricingCardButton(input: {
  card: PricingCard;
  member: MemberPlanState;
  /** Plan whose checkout or preview is in flight (as the card names it), else null. */
  processingPlan: PlanType | null;
  originPage?: OriginPage;
}): PricingCardButton {
  const { card, member, processingPlan } = input;
  const originPage = input.originPage ?? '/';
  // isLifetime alone marks the lifetime card: callers may derive currentlyActive separately.
  const isCurrent =
    member.signedIn &&
    (member.currentlyActive || member.isLifetime) &&
    isMembersCard(card, member, originPage);

  if (member.signedIn && member.isLifetime) {
    return { label: PRICING_BUTTON_TEXTS.lifetime, disabled: true, variant: 'lifetime', showCurrentBadge: isCurrent };
  }
  if (isCurrent) {
    return { label: PRICING_BUTTON_TEXTS.current, disabled: true, variant: 'current', showCurrentBadge: true };
  }
  // One request at a time: every card waits while any plan is processing.
  const busy = processingPlan !== null;
  if (processingPlan === card.planType) {
    return { label: PRICING_BUTTON_TEXTS.loading, disabled: true, variant: 'loading', showCurrentBadge: false };
  }
  if (member.signedIn && member.currentlyActive && isRecurring(card.planType)) {
    return { label: PRICING_BUTTON_TEXTS.preview, disabled: busy, variant: 'preview', showCurrentBadge: false };
  }
  return {
    label: card.buttonText ?? DEFAULT_START_TEXT,
    disabled: busy,
    variant: 'buy',
    showCurrentBadge: false,
  };
}

export function lifetimeBanner(member: MemberPlanState): string | null {
  return member.signedIn && member.isLifetime ? LIFETIME_BANNER : null;
}

export type PlanChangeButton = {
  label: string;
  disabled: boolean;
  showCurrentBadge: boolean;
  /** What a click starts: an upgrade preview for a recurring member, else a checkout. */
  action: 'none' | 'preview' | 'checkout';
};

/** Settings plan-change card button ("Change/Upgrade Plan"). */
export function planChangeButton(input: {
  card: PricingCard;
  member: Omit<MemberPlanState, 'signedIn'>;
  /** Plan whose upgrade preview is loading (as the card names it), else null. */
  previewingPlan: PlanType | null;
  originPage?: OriginPage;
}): PlanChangeButton {
  const { card, member, previewingPlan } = input;
  const originPage = input.originPage ?? '/';
  if (isMembersCard(card, member, originPage)) {
    return { label: PRICING_BUTTON_TEXTS.current, disabled: true, showCurrentBadge: true, action: 'none' };
  }
  if (previewingPlan === card.planType) {
    return { label: PRICING_BUTTON_TEXTS.loadingPreview, disabled: true, showCurrentBadge: false, action: 'none' };
  }
  const label = card.buttonText ?? DEFAULT_START_TEXT;
  // Lifetime holders have the highest tier; the card shows LIFETIME_ACTIVE_NOTE instead.
  if (member.isLifetime) return { label, disabled: true, showCurrentBadge: false, action: 'none' };
  const disabled = previewingPlan !== null;
  // Lifetime is a one-time purchase, not a change of the recurring plan (as on the landing page).
  if (member.currentlyActive && isRecurring(card.planType)) {
    return { label: `Change to ${card.name}`, disabled, showCurrentBadge: false, action: 'preview' };
  }
  return { label, disabled, showCurrentBadge: false, action: 'checkout' };
}

export function planChangeNote(member: Pick<MemberPlanState, 'isLifetime'>): string | null {
  return member.isLifetime ? LIFETIME_ACTIVE_NOTE : null;
}
