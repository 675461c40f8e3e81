import { ApiRequestError } from '@client/lib/api-client';
import type { ErrorInput } from '@shared/error-messages';

/** What the shared error mappers (src/shared/error-messages.ts) need from a failed call. */
export function toErrorInput(error: unknown): ErrorInput {
  if (error instanceof ApiRequestError) {
    return { status: error.status, code: error.code, message: error.message, network: error.network };
  }
  return { message: error instanceof Error ? error.message : undefined };
}
