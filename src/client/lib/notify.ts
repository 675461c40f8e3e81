import { toast } from 'sonner';

export type Notice = { title: string; description?: string };

/**
 * The same notice again (a second failed attempt, two parts of a page reporting one failure) takes
 * the place of the one on screen instead of stacking a copy: every error shows once.
 */
const noticeId = (kind: string, { title, description }: Notice) => `${kind}:${title}:${description ?? ''}`;

export const notifyError = (notice: Notice) => toast.error(notice.title, { description: notice.description, id: noticeId('error', notice) });
export const notifySuccess = (notice: Notice) => toast.success(notice.title, { description: notice.description, id: noticeId('success', notice) });
