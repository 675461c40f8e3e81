import { useMutation } from '@tanstack/react-query';
import { API_PATHS, verifyPaymentResponseSchema, type VerifyPaymentRequest } from '@shared/api-contract';
import { api } from '@client/lib/api/api-client';

/** Creates the buyer's account for the paid e-mail; the server sets the session cookie. */
export const verifyPayment = (body: VerifyPaymentRequest) => api(API_PATHS.verifyPayment, { body, schema: verifyPaymentResponseSchema });

export const useVerifyPayment = () => useMutation({ mutationFn: verifyPayment });
