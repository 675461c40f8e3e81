import { useMutation } from '@tanstack/react-query';
import { errorInputFromResponse } from '@shared/api-contract';
import type { ErrorInput } from '@shared/error-messages';

const TIMEOUT_MS = 15_000;

/** A failed sign-in, described the way paymentLoginError (spec §8) reads it. */
export class SignInError extends Error {
  constructor(readonly input: ErrorInput) {
    super(input.message ?? 'Sign-in failed.');
  }
}

/**
 * better-auth's e-mail sign-in; it answers errors as `{ code, message }` at the top level, which
 * the generic api client does not read. On success the session cookie is set.
 */
export async function signInWithPassword(input: { email: string; password: string }): Promise<void> {
  let response: Response;
  try {
    response = await fetch('/api/auth/sign-in/email', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify(input),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    throw new SignInError({ network: true });
  }
  if (response.ok) return;
  const payload: unknown = await response.json().catch(() => null);
  const gateway = response.status >= 502 && response.status <= 504;
  throw new SignInError({ ...errorInputFromResponse(response.status, payload), network: gateway });
}

export const useSignInWithPassword = () => useMutation({ mutationFn: signInWithPassword });
