import { errorInputFromResponse } from '@shared/api-contract';
import type { ErrorInput } from '@shared/error-messages';
import { API_TIMEOUT_MS } from './api/timeouts';

/** A failed auth call, described the way the shared error mappers read it. */
export class AuthRequestError extends Error {
  constructor(readonly input: ErrorInput) {
    super(input.message ?? 'The request failed.');
  }
}

/**
 * Calls /api/auth/*. better-auth answers errors as `{ code, message }` at the top level and our
 * own additions as `{ error: { code, message } }`; both are read here (the generic api-client
 * only knows the second shape). No answer at all, a timeout or a 502–504 from a proxy count as
 * a network failure.
 */
export async function authRequest<T>(path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: body === undefined ? 'GET' : 'POST',
      credentials: 'same-origin',
      headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(API_TIMEOUT_MS.default),
    });
  } catch {
    throw new AuthRequestError({ network: true });
  }
  const payload: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const gateway = response.status >= 502 && response.status <= 504;
    throw new AuthRequestError({ ...errorInputFromResponse(response.status, payload), network: gateway });
  }
  return payload as T;
}

/** What the error mappers get for anything thrown; an unknown throw reads as unexpected. */
export function errorInputOf(error: unknown): ErrorInput {
  return error instanceof AuthRequestError ? error.input : {};
}
