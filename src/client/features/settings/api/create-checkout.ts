import { useMutation } from '@tanstack/react-query';
import { API_PATHS, createCheckoutResponseSchema } from '@shared/api-contract';
import type { CreateCheckoutRequest } from '@shared/api-contract';
import type { OriginPage, PlanType } from '@shared/plans';
import { api } from '@client/lib/api-client';
import { clickIds } from '@client/lib/tracking';

export const createCheckout = (body: CreateCheckoutRequest) =>
  api(API_PATHS.createCheckout, { body, schema: createCheckoutResponseSchema });

/** The checkout request of a signed-in member (spec §7 create-checkout). */
export function memberCheckoutRequest(planType: PlanType, email: string, originPage: OriginPage): CreateCheckoutRequest {
  return {
    planType,
    customerEmail: email,
    // The ad click ids exist only where the vendor runs a pixel; null otherwise.
    ...clickIds(),
    userAgent: navigator.userAgent.slice(0, 2048),
    originPage,
  };
}

/** Starts a card checkout; the caller sends the browser to the returned url. */
export function useCreateCheckout() {
  return useMutation({ mutationFn: createCheckout });
}
