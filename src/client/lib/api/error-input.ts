import { errorCodeOf } from '@shared/error-messages';
import type { ErrorInput } from '@shared/error-messages';
import { ApiRequestError } from './api-client';

/**
 * What the shared error mappers need from a failed call. Anything that is not an answer
 * of our API (an unreadable response, a bug) maps to the mapper's default text, never to raw internals.
 */
export function toErrorInput(error: unknown): ErrorInput {
  if (!(error instanceof ApiRequestError)) return {};
  // The api client flags 502–504 as network trouble so queries retry them; when our server answered
  // with one of its own codes (tv_unverifiable is a 502) the user must read that error's text, not
  // "Connection error".
  const answeredByServer = error.status !== 0 && errorCodeOf({ code: error.code }) !== null;
  return { status: error.status, code: error.code, message: error.message, network: error.network && !answeredByServer };
}
