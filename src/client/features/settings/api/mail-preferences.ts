import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MEMBER_MAIL_PATHS, mailPreferencesSchema } from '@shared/member-mails-contract';
import type { MemberMailKind } from '@shared/member-mails';
import { api } from '@client/lib/api/api-client';

const KEY = ['preferences', 'member-mails'] as const;

export const useMailPreferences = () => useQuery({ queryKey: KEY, queryFn: () => api(MEMBER_MAIL_PATHS.preferences, { schema: mailPreferencesSchema }), retry: false });

export function useSetMailPreference() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (choice: { kind: MemberMailKind; on: boolean }) => api(MEMBER_MAIL_PATHS.preferences, { method: 'PUT', body: choice, schema: mailPreferencesSchema }),
    onSuccess: (data) => client.setQueryData(KEY, data),
  });
}
