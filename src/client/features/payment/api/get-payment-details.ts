import { useQuery } from '@tanstack/react-query';
import { API_PATHS, getPaymentDetailsResponseSchema, type GetPaymentDetailsResponse } from '@shared/api-contract';
import { ApiRequestError, api } from '@client/lib/api/api-client';

/** The answer was empty or not payment details at all ('No payment data received'). */
export class NoPaymentDataError extends Error {}

export const paymentDetailsKey = (sessionId: string) => ['payment', 'details', sessionId] as const;

/** `proof`: the token of the mailed "Finish setting up" link, when the page was opened from it. */
export async function getPaymentDetails(sessionId: string, proof: string | null): Promise<GetPaymentDetailsResponse> {
  const payload = await api<unknown>(API_PATHS.getPaymentDetails, { body: proof ? { sessionId, proof } : { sessionId } });
  const parsed = getPaymentDetailsResponseSchema.safeParse(payload);
  if (!parsed.success) throw new NoPaymentDataError('No payment data received');
  return parsed.data;
}

// The buyer may land here a moment before the provider reports the payment as paid: keep asking
// for a while (the page's 15 s timeout still applies), and retry a flaky connection once or twice.
const UNPAID_RETRIES = 6;
const NETWORK_RETRIES = 2;
export const PAYMENT_DETAILS_RETRY_MS = 2000;

export function shouldRetryDetails(failures: number, error: unknown): boolean {
  if (!(error instanceof ApiRequestError)) return false;
  if (error.code === 'session_not_paid') return failures < UNPAID_RETRIES;
  return error.network && failures < NETWORK_RETRIES;
}

/** POST /api/get-payment-details; waits (`enabled`) until the session cookie is known. */
export function usePaymentDetails(sessionId: string | null, proof: string | null, enabled: boolean) {
  return useQuery({
    queryKey: paymentDetailsKey(sessionId ?? ''),
    queryFn: () => getPaymentDetails(sessionId ?? '', proof),
    enabled: enabled && sessionId !== null,
    retry: shouldRetryDetails,
    retryDelay: PAYMENT_DETAILS_RETRY_MS,
    // userStatus depends on who is signed in: the page refetches on purpose, never behind its back.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}
