import { useMutation } from '@tanstack/react-query';
import { API_PATHS, createCheckoutResponseSchema } from '@shared/api-contract';
import type { CreateCheckoutRequest } from '@shared/api-contract';
import type { OriginPage, PlanType } from '@shared/plans';
import { api } from '@client/lib/api-client';

export const createCheckout = (body: CreateCheckoutRequest) =>
  api(API_PATHS.createCheckout, { body, schema: createCheckoutResponseSchema });

function readCookie(name: string): string | null {
  const prefix = `${name}=`;
  const entry = document.cookie.split('; ').find((part) => part.startsWith(prefix));
  return entry ? decodeURIComponent(entry.slice(prefix.length)) : null;
}

/** The checkout request for a signed-in member (spec §7 create-checkout). */
export function memberCheckoutRequest(planType: PlanType, email: string, originPage: OriginPage): CreateCheckoutRequest {
  return {
    planType,
    customerEmail: email,
    // The ad-pixel cookies exist only where the vendor runs a pixel; the server accepts null.
    fbc: readCookie('_fbc'),
    fbp: readCookie('_fbp'),
    userAgent: navigator.userAgent.slice(0, 2048),
    originPage,
  };
}

/** Starts a card checkout; the caller sends the browser to the returned url. */
export function useCreateCheckout() {
  return useMutation({ mutationFn: createCheckout });
}
