import { useMutation } from '@tanstack/react-query';
import type { SignInInput } from '@shared/validation';
import { authRequest } from '@client/lib/auth-request';

/** A session, or (for an account with two-factor) a request for the code before there is one. */
export type SignInResult = { token: string; user: { id: string; email: string } } | { twoFactorRedirect: true };

export const signIn = (input: SignInInput) => authRequest<SignInResult>('/api/auth/sign-in/email', { email: input.email, password: input.password });

export const useSignIn = () => useMutation({ mutationFn: signIn });
