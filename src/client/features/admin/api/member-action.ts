import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADMIN_API, actionResultSchema, type ActionResult } from '@shared/admin-contract';
import { api } from '@client/lib/api/api-client';

/** POSTs one member action; its answer says what happened. */
export const postMemberAction = (memberId: string, action: string, body: unknown = {}): Promise<ActionResult> =>
  api(`${ADMIN_API}/members/${encodeURIComponent(memberId)}/${action}`, { method: 'POST', body, schema: actionResultSchema });

/** A member action as a mutation: afterwards every console view (member, lists, audit log) reloads. */
export function useMemberAction<T>(call: (input: T) => Promise<ActionResult>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: call, onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }) });
}
