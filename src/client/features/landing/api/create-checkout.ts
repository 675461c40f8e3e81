import { api, ApiRequestError } from '@client/lib/api-client';
import type { CreateCheckoutRequest, CreateCheckoutResponse } from '@shared/api-contract';
import { PATHS } from './paths';

/** Starts a checkout session; the caller sends the browser to `url` (hosted checkout or the sandbox page). */
export async function createCheckout(request: CreateCheckoutRequest): Promise<CreateCheckoutResponse> {
  const response = await api<Partial<CreateCheckoutResponse>>(PATHS.createCheckout, { body: request });
  // Checked by hand: the landing bundle stays free of zod (see bench/web.mjs for what it weighs).
  if (typeof response.url !== 'string' || response.url === '' || typeof response.sessionId !== 'string') {
    throw new ApiRequestError('No checkout URL received', 200, 'internal');
  }
  return { url: response.url, sessionId: response.sessionId };
}
