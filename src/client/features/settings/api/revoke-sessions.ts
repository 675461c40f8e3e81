import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@client/lib/api/api-client';

// better-auth's own endpoint: deletes every session of the user, this one included.
export const REVOKE_SESSIONS_PATH = '/api/auth/revoke-sessions';

const revokeSessionsResponseSchema = z.object({ status: z.boolean() });

export const revokeSessions = () =>
  api(REVOKE_SESSIONS_PATH, { method: 'POST', body: {}, schema: revokeSessionsResponseSchema });

/** Signs the member out on every device. */
export function useRevokeSessions() {
  return useMutation({ mutationFn: revokeSessions });
}
