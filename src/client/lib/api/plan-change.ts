import type { PreviewUpgradeCostResponse, UpdateSubscriptionResponse } from '@shared/api-contract';
import { isPlanType, type PlanType } from '@shared/plans';
import { api, UnreadableAnswerError } from './api-client';
import { PATHS } from './paths';
import { API_TIMEOUT_MS } from './timeouts';

// Answers are checked by hand, not with the contract's zod schemas: the landing bundle stays free
// of zod (docs/decisions/009).

const isAmount = (value: unknown) => typeof value === 'number' && Number.isInteger(value) && value >= 0;

function isPreviewAnswer(answer: Record<string, unknown>): boolean {
  if (answer.redirectToCheckout === true) return true;
  return (
    isPlanType(answer.currentPlan) &&
    isPlanType(answer.newPlan) &&
    isAmount(answer.prorationCredit) &&
    isAmount(answer.newPlanCharge) &&
    isAmount(answer.totalDue) &&
    typeof answer.currency === 'string'
  );
}

/** What switching to `planType` costs now (credit, charge, total), or `redirectToCheckout`. */
export async function previewUpgradeCost(planType: PlanType): Promise<PreviewUpgradeCostResponse> {
  const answer = await api<Record<string, unknown> | null>(PATHS.previewUpgradeCost, { body: { planType } });
  if (!answer || !isPreviewAnswer(answer)) throw new UnreadableAnswerError('Unreadable upgrade preview');
  return answer as PreviewUpgradeCostResponse;
}

/** Switches the member's recurring subscription to `planType` (prorated by the payment provider). */
export async function updateSubscription(planType: PlanType): Promise<UpdateSubscriptionResponse> {
  const answer = await api<Partial<UpdateSubscriptionResponse> | null>(PATHS.updateSubscription, { body: { planType }, timeoutMs: API_TIMEOUT_MS.charge });
  if (answer?.success !== true || !isPlanType(answer.planType)) throw new UnreadableAnswerError('Unreadable plan change answer');
  return { success: true, planType: answer.planType };
}
