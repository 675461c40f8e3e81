import { useMutation } from '@tanstack/react-query';
import type { SignUpInput } from '@shared/validation';
import { authRequest } from '@client/lib/auth-request';

/** `token` is null when no session was started (e-mail confirmation switched on). */
export type SignUpResult = { token: string | null; user: { id: string; email: string } };

export const signUp = (input: SignUpInput) =>
  authRequest<SignUpResult>('/api/auth/sign-up/email', {
    email: input.email,
    password: input.password,
    // better-auth requires a display name; the product never shows one, so the address's local part will do
    name: input.email.split('@')[0] ?? input.email,
    // where the confirmation link lands when e-mail confirmation is on: this page sends the user on
    callbackURL: '/auth',
  });

export const useSignUp = () => useMutation({ mutationFn: signUp });
