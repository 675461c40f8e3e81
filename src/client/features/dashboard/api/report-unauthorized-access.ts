import { api } from '@client/lib/api/api-client';

/**
 * Tells the server that the signed-in user was turned away from the dashboard. The server checks
 * that the user really has no access and decides what to record; losing this report is harmless.
 */
export function reportUnauthorizedAccess(path: string): void {
  void api('/api/security/events/unauthorized-access', { body: { path } }).catch(() => undefined);
}
