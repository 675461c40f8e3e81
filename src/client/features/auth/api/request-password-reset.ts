import { useMutation } from '@tanstack/react-query';
import type { ForgotPasswordInput } from '@shared/validation';
import { authRequest } from '@client/lib/auth-request';

// The answer is the same whether or not the address has an account.
export const requestPasswordReset = (input: ForgotPasswordInput) =>
  authRequest<{ status: boolean }>('/api/auth/request-password-reset', { email: input.email });

export const useRequestPasswordReset = () => useMutation({ mutationFn: requestPasswordReset });
