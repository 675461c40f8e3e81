import { accessResponseSchema } from '@shared/api-contract';
import { api } from '@client/lib/api/api-client';

/** One access check for the dashboard guard; the guard adds its own retries and time limit. */
export function fetchAccessOnce(signal: AbortSignal): Promise<boolean> {
  return api('/api/access', { schema: accessResponseSchema, signal }).then((result) => result.hasAccess);
}
