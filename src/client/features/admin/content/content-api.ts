import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CONTENT_STUDIO_PATHS as PATHS,
  adminAnnouncementListSchema,
  adminAnnouncementSchema,
  contentImageListSchema,
  contentImageSchema,
  contentItemSchema,
  contentListSchema,
  type ContentImageInfo,
  type ContentPreview,
  type PostAnnouncementRequest,
  type SaveContentRequest,
} from '@shared/content-studio';
import { api, ApiRequestError } from '@client/lib/api/api-client';

const ROOT = ['admin', 'content'] as const;
const ANNOUNCEMENTS = ['admin', 'announcements'] as const;

export const useContentList = () => useQuery({ queryKey: ROOT, queryFn: () => api(PATHS.items, { schema: contentListSchema }), retry: false });

export const useContentItem = (id: string | null) =>
  useQuery({ queryKey: [...ROOT, 'item', id], queryFn: () => api(PATHS.item(id ?? ''), { schema: contentItemSchema }), enabled: id !== null, retry: false });

export const useContentImages = () => useQuery({ queryKey: [...ROOT, 'images'], queryFn: () => api(PATHS.images, { schema: contentImageListSchema }), retry: false });

/** Every change of a piece reads the list and the piece again. */
function useContentChange<T, R>(call: (input: T) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: call, onSettled: () => client.invalidateQueries({ queryKey: ROOT }) });
}

export const useCreateContent = () => useContentChange((body: SaveContentRequest) => api(PATHS.items, { body, schema: contentItemSchema }));
export const useSaveContent = () => useContentChange(({ id, body }: { id: string; body: SaveContentRequest }) => api(PATHS.item(id), { method: 'PUT', body, schema: contentItemSchema }));
export const usePublishContent = () =>
  useContentChange(({ id, publishAt }: { id: string; publishAt: string | null }) => api(PATHS.publish(id), { body: { publishAt }, schema: contentItemSchema }));
export const useUnpublishContent = () => useContentChange((id: string) => api(PATHS.unpublish(id), { body: {}, schema: contentItemSchema }));
export const useRestoreRevision = () => useContentChange(({ id, revision }: { id: string; revision: number }) => api(PATHS.restore(id, revision), { body: {}, schema: contentItemSchema }));

export const previewContent = (body: SaveContentRequest, signal: AbortSignal) => api<ContentPreview>(PATHS.preview, { body, signal });

/** The bytes as they are (the server checks what they really are). */
async function uploadImage(file: File): Promise<ContentImageInfo> {
  let response: Response;
  try {
    response = await fetch(PATHS.upload(file.name), { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/octet-stream', accept: 'application/json' }, body: file });
  } catch {
    throw new ApiRequestError('Network connection failed.', 0, 'network', true);
  }
  const payload = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
  if (!response.ok) throw new ApiRequestError(payload?.error?.message ?? response.statusText, response.status, payload?.error?.code ?? 'http_error');
  return contentImageSchema.parse(payload);
}

export const useUploadImage = () => useContentChange(uploadImage);

export const useAdminAnnouncements = () => useQuery({ queryKey: ANNOUNCEMENTS, queryFn: () => api(PATHS.adminAnnouncements, { schema: adminAnnouncementListSchema }), retry: false });

export function usePostAnnouncement() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PostAnnouncementRequest) => api(PATHS.adminAnnouncements, { body, schema: adminAnnouncementSchema }),
    onSettled: () => client.invalidateQueries({ queryKey: ANNOUNCEMENTS }),
  });
}
