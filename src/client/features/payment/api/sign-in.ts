import { useMutation } from '@tanstack/react-query';
import { authRequest } from '@client/lib/auth-request';

/** better-auth's e-mail sign-in; on success the session cookie is set. */
export async function signInWithPassword(input: { email: string; password: string }): Promise<void> {
  await authRequest<unknown>('/api/auth/sign-in/email', input);
}

export const useSignInWithPassword = () => useMutation({ mutationFn: signInWithPassword });
