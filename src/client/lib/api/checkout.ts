import type { CreateCheckoutRequest, CreateCheckoutResponse } from '@shared/api-contract';
import type { OriginPage, PlanType } from '@shared/plans';
import { api, UnreadableAnswerError } from './api-client';
import { PATHS } from './paths';

/** The answer of create-checkout had no checkout to send the browser to. */
export class MissingCheckoutUrlError extends UnreadableAnswerError {
  constructor() {
    super('No checkout URL received');
  }
}

/** The request of a checkout for `planType` (create-checkout, also used for reactivation). */
export function checkoutRequest(input: {
  planType: PlanType;
  /** The buyer's e-mail when signed in; null lets the checkout page ask for it. */
  email: string | null;
  originPage: OriginPage;
  /** The ad click ids (lib/tracking clickIds()); null where the vendor runs no pixel. */
  clickIds: { fbc: string | null; fbp: string | null };
  /** The visit's promotion code (/?code=); absent or null: none (the checkout page then takes one). */
  promotionCode?: string | null;
}): CreateCheckoutRequest {
  return {
    planType: input.planType,
    customerEmail: input.email,
    fbc: input.clickIds.fbc,
    fbp: input.clickIds.fbp,
    userAgent: navigator.userAgent.slice(0, 2048),
    originPage: input.originPage,
    ...(input.promotionCode ? { promotionCode: input.promotionCode } : {}),
  };
}

/** Starts a checkout session; the caller sends the browser to `url` (hosted checkout or the sandbox page). */
export async function createCheckout(request: CreateCheckoutRequest): Promise<CreateCheckoutResponse> {
  const response = await api<Partial<CreateCheckoutResponse> | null>(PATHS.createCheckout, { body: request });
  // Checked by hand: the landing bundle stays free of zod (see bench/web.mjs for what it weighs).
  if (typeof response?.url !== 'string' || response.url === '' || typeof response.sessionId !== 'string') {
    throw new MissingCheckoutUrlError();
  }
  return { url: response.url, sessionId: response.sessionId };
}
