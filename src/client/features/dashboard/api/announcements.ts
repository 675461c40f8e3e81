import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CONTENT_STUDIO_PATHS, memberAnnouncementsSchema } from '@shared/content-studio';
import { api } from '@client/lib/api/api-client';

const KEY = ['announcements'] as const;

/** What's new for this member, read again every minute while the dashboard is open. */
export const useAnnouncements = () =>
  useQuery({ queryKey: KEY, queryFn: () => api(CONTENT_STUDIO_PATHS.announcements, { schema: memberAnnouncementsSchema }), refetchInterval: 60_000, retry: false });

export function useMarkAnnouncementsRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api(CONTENT_STUDIO_PATHS.announcementsRead, { body: {}, schema: memberAnnouncementsSchema }),
    onSuccess: (data) => client.setQueryData(KEY, data),
  });
}
