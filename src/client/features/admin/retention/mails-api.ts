import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MEMBER_MAIL_PATHS, mailSettingsSchema, type MailSettingsRequest } from '@shared/member-mails-contract';
import { api } from '@client/lib/api/api-client';

const KEY = ['admin', 'mail-settings'] as const;

export const useMailSettings = () => useQuery({ queryKey: KEY, queryFn: () => api(MEMBER_MAIL_PATHS.settings, { schema: mailSettingsSchema }), retry: false });

export function useSaveMailSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: MailSettingsRequest) => api(MEMBER_MAIL_PATHS.settings, { method: 'PUT', body: request, schema: mailSettingsSchema }),
    onSuccess: (saved) => client.setQueryData(KEY, saved),
  });
}
