import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@client/lib/api/api-client';

// better-auth's own endpoint: checks the current password, stores the new one and, with
// revokeOtherSessions, ends every other session and gives this browser a new one.
export const CHANGE_PASSWORD_PATH = '/api/auth/change-password';

const changePasswordResponseSchema = z.object({ user: z.object({ id: z.string() }).passthrough() }).passthrough();

export const changePassword = (input: { currentPassword: string; newPassword: string }) =>
  api(CHANGE_PASSWORD_PATH, { method: 'POST', body: { ...input, revokeOtherSessions: true }, schema: changePasswordResponseSchema });

/** Changes the member's password and signs out their other devices. */
export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
