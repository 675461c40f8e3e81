import type { z } from 'zod';
import { API_TIMEOUT_MS } from './timeouts';

/** A failed API call as the UI needs it: the server's code and message, or a network failure. */
export class ApiRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly network = false,
    /** The error's `details` (e.g. the payment page of payment_action_required). */
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/**
 * A successful answer without what the client needs (a server change, a proxy's page). Not an
 * ApiRequestError: the error texts treat it as unexpected and show their default.
 */
export class UnreadableAnswerError extends Error {}

export type ApiOptions<T> = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** Validates the response so that a server change fails loudly here, not deep in a screen. */
  schema?: z.ZodType<T>;
  timeoutMs?: number;
  signal?: AbortSignal;
};

/** Calls the JSON API with the session cookie; every failure becomes an ApiRequestError. */
export async function api<T>(path: string, options: ApiOptions<T> = {}): Promise<T> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? API_TIMEOUT_MS.default);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      credentials: 'same-origin',
      headers: options.body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json', accept: 'application/json' },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal,
    });
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    throw new ApiRequestError(timedOut ? 'The request timed out.' : 'Network connection failed.', 0, timedOut ? 'timeout' : 'network', true);
  }
  const payload: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = errorOf(payload);
    throw new ApiRequestError(error.message ?? response.statusText, response.status, error.code ?? 'http_error', response.status >= 502 && response.status <= 504, error.details);
  }
  return options.schema ? options.schema.parse(payload) : (payload as T);
}

type ErrorFields = { code?: string; message?: string; details?: unknown };

/** Our API nests its error under `error`; better-auth (/api/auth/*) answers `{ code, message }` at the top. */
function errorOf(payload: unknown): ErrorFields {
  if (!payload || typeof payload !== 'object') return {};
  const nested = (payload as { error?: unknown }).error;
  const fields = (nested && typeof nested === 'object' ? nested : payload) as ErrorFields;
  return {
    code: typeof fields.code === 'string' ? fields.code : undefined,
    message: typeof fields.message === 'string' ? fields.message : undefined,
    details: fields.details,
  };
}
