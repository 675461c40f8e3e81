import { useQuery } from '@tanstack/react-query';
import { OPERATOR_INVITATIONS_PATH, operatorInvitationAcceptedSchema, operatorInvitationSchema } from '@shared/admin-contract';
import { api } from '@client/lib/api/api-client';

export function useOperatorInvitation(token: string) {
  return useQuery({
    queryKey: ['operator-invitation', token],
    queryFn: () => api(`${OPERATOR_INVITATIONS_PATH}/${encodeURIComponent(token)}`, { schema: operatorInvitationSchema }),
    enabled: token !== '',
    retry: false,
  });
}

export const acceptOperatorInvitation = (input: { token: string; password: string }) =>
  api(`${OPERATOR_INVITATIONS_PATH}/accept`, { method: 'POST', body: input, schema: operatorInvitationAcceptedSchema });
