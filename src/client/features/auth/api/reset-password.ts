import { useMutation } from '@tanstack/react-query';
import { authRequest } from '@client/lib/auth-request';

/** Sets the new password; the server also signs the user in (auth.ts after-hook). */
export const resetPassword = (input: { token: string; newPassword: string }) =>
  authRequest<{ status: boolean }>('/api/auth/reset-password', input);

export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
