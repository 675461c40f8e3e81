import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CONTENT_STUDIO_PATHS, announcementMailsSchema } from '@shared/content-studio';
import { api } from '@client/lib/api/api-client';

const KEY = ['preferences', 'announcement-mails'] as const;

export const useAnnouncementMails = () => useQuery({ queryKey: KEY, queryFn: () => api(CONTENT_STUDIO_PATHS.announcementMails, { schema: announcementMailsSchema }), retry: false });

export function useSetAnnouncementMails() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (announcementMails: boolean) => api(CONTENT_STUDIO_PATHS.announcementMails, { method: 'PUT', body: { announcementMails }, schema: announcementMailsSchema }),
    onSuccess: (data) => client.setQueryData(KEY, data),
  });
}
